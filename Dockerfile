# Gin Rummy web game: docker build -t gin-rummy . && docker run -p 8000:8000 -v gin-data:/data gin-rummy
# The app writes only to /data, so the root filesystem can be read-only:
#   docker run --read-only --tmpfs /tmp -p 8000:8000 -v gin-data:/data gin-rummy   (see docs/operations.md)
FROM python:3.11-slim AS build

WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .


FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GIN_HOST=0.0.0.0 \
    GIN_PORT=8000 \
    GIN_DATA_DIR=/data

# The wheel is built above from this very source tree; its dependencies resolve from PyPI
# within the ranges pyproject.toml declares.
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl \
    && rm -rf /wheels \
    && groupadd --system --gid 10001 gin \
    && useradd --system --uid 10001 --gid gin --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin gin \
    && mkdir /data \
    && chown gin:gin /data \
    && chmod 0700 /data

# Holds secret.key: keep the volume, or set GIN_KEYS, so saved games survive a new container.
VOLUME /data
USER 10001:10001
WORKDIR /data
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('GIN_PORT', '8000') + '/healthz', timeout=4)"]

CMD ["gin-rummy"]
