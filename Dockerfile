# Gin Rummy web game. Self-host: `docker compose up -d` (compose.yaml), or
#   docker build -t gin-rummy . && docker run -p 8000:8000 -v gin-data:/data gin-rummy
# The volume is not optional: it holds the key that opens every saved game (docs/operations.md).
# The app writes only to /data, so the root filesystem can be read-only:
#   docker run --read-only --tmpfs /tmp -p 8000:8000 -v gin-data:/data gin-rummy

# An exact release of the official image, for both stages, so that a rebuild gets the same
# Python. The digest is not pinned: no registry can be reached from where this is built and
# tested, so none could be checked. CI passes a local stand-in (--build-arg PYTHON_IMAGE=...).
ARG PYTHON_IMAGE=python:3.11.16-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

# A virtualenv: pip does not warn about root inside one, and the final stage copies it whole.
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/gin-rummy/bin:$PATH
WORKDIR /src

# The locked, hashed dependencies first (a layer that survives changes to the code), then the
# game itself, built from this very tree with the locked setuptools. The tools that installed
# it (pip, setuptools) leave before the copy: the image serves, it never installs.
COPY requirements/runtime.txt requirements/build.txt requirements/
RUN python -m venv /opt/gin-rummy \
    && pip install --require-hashes -r requirements/runtime.txt -r requirements/build.txt
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-deps --no-build-isolation . \
    && pip uninstall --yes setuptools pip


FROM ${PYTHON_IMAGE}

ENV PATH=/opt/gin-rummy/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    GIN_HOST=0.0.0.0 \
    GIN_PORT=8000 \
    GIN_DATA_DIR=/data

# uid/gid 10001: a regular (not --system) account, so useradd has no range to warn about;
# --no-log-init keeps a high uid from growing /var/log/lastlog.
RUN groupadd --gid 10001 gin \
    && useradd --no-log-init --uid 10001 --gid gin --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin gin \
    && install --directory --owner gin --group gin --mode 0700 /data
COPY --from=build /opt/gin-rummy /opt/gin-rummy

# Holds secret.key: keep the volume, or set GIN_KEYS, so saved games survive a new container.
VOLUME /data
USER 10001:10001
WORKDIR /data
EXPOSE 8000

# Every 5 s, so that "healthy" follows the app's first answer within seconds. (Docker 25's
# --start-interval would allow a slower steady pace, but Debian 12's engine, 20.10, refuses
# the flag.) A probe is one short Python process.
HEALTHCHECK --interval=5s --timeout=4s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('GIN_PORT', '8000') + '/healthz', timeout=3)"]

CMD ["gin-rummy"]
