"""``kg serve``: the built graph over HTTP — the SPARQL endpoint, Linked Data pages and DTS — on
uvicorn, read-only."""

from __future__ import annotations

import gc
from pathlib import Path

import click

from kg.paths import BUILD
from kg.query import limit_options
from kg.serve.graph import ServeLimits
from kg.sparql_guard import Limits

DEFAULTS = ServeLimits()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--base",
    help="Public base URL the graph's IRIs are served under, behind a proxy (default: http://HOST:PORT/).",
)
@click.option(
    "--build",
    type=click.Path(path_type=Path, file_okay=False),
    default=BUILD,
    show_default=True,
    help="Build directory holding kg.nq.",
)
@limit_options(deadline=DEFAULTS.query.deadline, rows=DEFAULTS.query.rows)
@click.option(
    "--workers", type=int, default=DEFAULTS.workers, show_default=True, help="Query worker processes."
)
@click.option(
    "--max-queries",
    type=int,
    default=DEFAULTS.concurrent,
    show_default=True,
    help="Queries admitted at once, running or waiting for a worker; past it 503 with Retry-After.",
)
@click.option(
    "--max-request",
    type=int,
    default=DEFAULTS.request_bytes,
    show_default=True,
    help="Bytes of one request (query or body); past it 413.",
)
def serve_command(
    host: str,
    port: int,
    base: str | None,
    build: Path,
    timeout: float,
    memory: int,
    max_rows: int,
    workers: int,
    max_queries: int,
    max_request: int,
) -> None:
    """Serve the built graph: SPARQL 1.1 at /sparql (with a YASGUI page), Linked Data, DTS.

    Example: kg serve --port 8000, then open http://127.0.0.1:8000/sparql
    """
    import uvicorn

    from kg.serve.app import create_app
    from kg.serve.graph import ServedGraph

    limits = ServeLimits(Limits(timeout, memory, max_rows), workers, max_queries, max_request)
    address = f"[{host}]" if ":" in host else host
    graph = ServedGraph.load(build, base or f"http://{address}:{port}/", limits)
    gc.freeze()  # the graph lives as long as the server: the collector need not walk it again
    uvicorn.run(create_app(graph), host=host, port=port)
