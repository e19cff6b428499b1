"""The ASGI application: routes of every endpoint and page kind over one :class:`ServedGraph`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from kg.serve import dts, linked_data, readings, sparql
from kg.serve.graph import ServedGraph

HERE = Path(__file__).resolve().parent


def create_app(graph: ServedGraph) -> Starlette:
    """One application; each module contributes ``routes(graph)``. Linked Data comes last: it
    answers every other path under the base. The query workers run while the application does."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        graph.queries.start()
        try:
            yield
        finally:
            graph.queries.close()

    routes = [
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
        *sparql.routes(graph),
        *dts.routes(graph),
        *readings.routes(graph),
        *linked_data.routes(graph),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.graph = graph
    return app
