"""The graph a server answers from: the built store, read-only, the IRI base it is served at, and
the pool of worker processes that answer its SPARQL queries."""

from __future__ import annotations

import logging
import math
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.sparql_guard import Answer, Job, Limits, Worker
from kg.vocabulary import BASE

log = logging.getLogger("kg.serve")


@dataclass(frozen=True)
class ServeLimits:
    """What one server allows: the limits of each query (deadline, worker memory, rows), the number
    of worker processes, the queries admitted at once (running or waiting for a worker; past it the
    answer is 503) and the bytes of one request."""

    query: Limits = field(default_factory=lambda: Limits(deadline=10.0, rows=10_000))
    workers: int = 2
    concurrent: int = 8
    request_bytes: int = 64 * 1024

    def __post_init__(self) -> None:
        for name in ("workers", "concurrent", "request_bytes"):
            if getattr(self, name) < 1:
                raise InputError(f"{name.replace('_', ' ')} must be at least 1, not {getattr(self, name)}")

    @property
    def retry_after(self) -> int:
        """Seconds a client turned away should wait: until a running query has surely ended."""
        return math.ceil(self.query.deadline)


class Busy(KgError):
    """Every query slot is taken (or no worker came free in time): the client should come back."""


class QueryPool:
    """Persistent :class:`~kg.sparql_guard.Worker` processes, each with its own copy of the store.

    :meth:`run` blocks (call it from a thread): it takes a slot or raises Busy, waits for an idle
    worker, and hands the worker back afterwards — or, when the worker was killed at the deadline
    or died, starts a replacement, while the other workers go on answering.
    """

    def __init__(self, graph: Path, limits: ServeLimits) -> None:
        self.graph = graph
        self.limits = limits
        self._idle: queue.Queue[Worker] = queue.Queue()
        self._slots = threading.BoundedSemaphore(limits.concurrent)
        self._workers: set[Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> None:
        """Start the workers; each becomes idle once it has loaded the store."""
        for _ in range(self.limits.workers):
            self._spawn()

    def _spawn(self) -> None:
        threading.Thread(target=self._add, name="kg-serve-worker-start", daemon=True).start()

    def _add(self) -> None:
        with self._lock:
            if self._closed:
                return
            worker = Worker(self.graph, self.limits.query)
            self._workers.add(worker)
        try:
            worker.wait_ready()
        except (KgError, OSError) as exc:
            log.error("a query worker did not start: %s", exc)
            self._retire(worker)
            return
        self._idle.put(worker)

    def _retire(self, worker: Worker) -> None:
        with self._lock:
            self._workers.discard(worker)
        worker.close()

    def run(self, job: Job) -> Answer:
        """The answer to ``job`` from a worker; Busy when no slot or no worker is free in time."""
        if not self._slots.acquire(blocking=False):
            raise Busy(f"{self.limits.concurrent} queries are already running or waiting: try again shortly")
        try:
            try:
                worker = self._idle.get(timeout=self.limits.query.deadline)
            except queue.Empty:
                raise Busy("no query worker came free in time: try again shortly") from None
            try:
                return worker.run(job)
            finally:
                if worker.alive:
                    self._idle.put(worker)
                else:
                    self._retire(worker)
                    self._spawn()
        finally:
            self._slots.release()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
        for worker in workers:
            worker.close()


@dataclass
class ServedGraph:
    """The built graph, the public base its IRIs are written under, and the query pool.

    ``base`` is where the server is reached (``http://127.0.0.1:8000/``, or the real base behind a
    proxy); :meth:`local` and :meth:`public` translate between the graph's IRIs and the server's.
    The pool's workers start with the application (:func:`kg.serve.app.create_app`), not here.
    """

    kg: KnowledgeGraph
    build: Path
    base: str = BASE
    limits: ServeLimits = field(default_factory=ServeLimits)
    queries: QueryPool = field(init=False)

    def __post_init__(self) -> None:
        self.queries = QueryPool(self.build / "kg.nq", self.limits)

    @classmethod
    def load(cls, build: Path, base: str = BASE, limits: ServeLimits | None = None) -> ServedGraph:
        base = base if base.endswith("/") else base + "/"
        return cls(KnowledgeGraph.load(build / "kg.nq"), build, base, limits or ServeLimits())

    @property
    def base_path(self) -> str:
        """The path of :attr:`base` (``/`` at a server's root): the prefix of every page and link."""
        return urlsplit(self.base).path or "/"

    def local(self, iri: str) -> str:
        """The server's address for a graph IRI (unchanged when the IRI is not under the graph base)."""
        return self.base + iri.removeprefix(BASE) if iri.startswith(BASE) else iri

    def public(self, url: str) -> str:
        """The graph IRI a server address names (the inverse of :meth:`local`)."""
        return BASE + url.removeprefix(self.base) if url.startswith(self.base) else url
