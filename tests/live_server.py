"""A real ``kg serve`` application on uvicorn, on a free port of 127.0.0.1, for client tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn

from kg.serve.app import create_app
from kg.serve.graph import ServedGraph, ServeLimits


@contextmanager
def serving(build: Path, limits: ServeLimits) -> Iterator[str]:
    """uvicorn in a thread; yields the base URL once the endpoint answers a query."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    app = create_app(ServedGraph.load(build, base, limits))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "sparql", params={"query": "ASK {}"}).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    else:
        raise RuntimeError(f"the server at {base} did not answer a query within 30 s")
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(10)
