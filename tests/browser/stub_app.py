"""A stand-in ASGI app for testing the live-server harness without the real game."""

from __future__ import annotations

import os

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse

app = FastAPI()


@app.get("/healthz", response_class=PlainTextResponse)
def healthz() -> str:
    return "ok"


@app.get("/data-dir", response_class=PlainTextResponse)
def data_dir() -> str:
    return os.environ.get("GIN_DATA_DIR", "")
