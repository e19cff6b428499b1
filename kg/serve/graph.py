"""The graph a server answers from: the built store, read-only, the IRI base it is served at, and
the pool of worker processes that answer its SPARQL queries."""

from __future__ import annotations

import asyncio
import logging
import math
import queue
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.sparql_guard import READY_TIMEOUT, Answer, Job, Limits, Worker
from kg.vocabulary import BASE

log = logging.getLogger("kg.serve")
ANSWERS = 64 << 20  # bytes of answers kept (queries and bodies), the least recently asked for dropped


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
        bounds = (
            ("workers", "worker processes (--workers)", 64),
            ("concurrent", "queries admitted at once (--max-queries)", 10_000),
            ("request_bytes", "bytes of a request (--max-request)", 64 << 20),
        )
        for name, label, most in bounds:
            value = getattr(self, name)
            if not 1 <= value <= most:
                raise InputError(f"{label}: at least 1 and at most {most}, not {value}")

    @property
    def retry_after(self) -> int:
        """Seconds a client turned away should wait: until a running query has surely ended."""
        return math.ceil(self.query.deadline)


class Busy(KgError):
    """Every query slot is taken (or no worker came free in time): the client should come back."""


@dataclass
class _Ticket:
    """A job waiting in the pool: ``done`` gets its answer in the asker's ``loop``. ``taken`` once a
    worker has it, ``dropped`` when the asker stopped waiting before one did (both under the pool's lock)."""

    job: Job
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[Answer]
    taken: bool = False
    dropped: bool = False


def _settle(done: asyncio.Future[Answer], answer: Answer | None, error: Exception | None) -> None:
    if done.done():  # the asker has gone
        return
    if error is None:
        done.set_result(answer)
    else:
        done.set_exception(error)


def _size(job: Job, answer: Answer) -> int:
    return len(job.text.encode()) + len(answer.body)


class QueryPool:
    """Persistent :class:`~kg.sparql_guard.Worker` processes, each with its own copy of the store and a
    thread that hands it the waiting jobs one after another.

    :meth:`run` is awaited in the server's event loop: it takes a slot or raises Busy and queues the
    job; the first worker free takes it. A query waiting holds no thread of the server's pool, and a
    worker goes on to the next job as soon as it has answered, without waiting for the event loop.
    When a worker was killed at the deadline or died, its thread starts a replacement while the
    other workers go on answering.

    The store does not change while it is served, so the answer of a repeatable query (one that calls
    no NOW(), RAND() …) is kept, :data:`ANSWERS` bytes of them at most, and the same job asked again
    is answered at once, without a slot or a worker.
    """

    def __init__(self, graph: Path, limits: ServeLimits) -> None:
        self.graph = graph
        self.limits = limits
        self._jobs: queue.SimpleQueue[_Ticket | None] = queue.SimpleQueue()
        self._admitted = 0
        self._answers: OrderedDict[Job, Answer] = OrderedDict()
        self._kept = 0  # bytes in _answers
        self._workers: set[Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._started = threading.Event()  # a worker has loaded the store

    def start(self) -> None:
        """Start the workers; each takes jobs once it has loaded the store."""
        for _ in range(self.limits.workers):
            threading.Thread(target=self._hand_jobs, name="kg-serve-worker", daemon=True).start()

    def _hand_jobs(self) -> None:
        """One worker's thread: the waiting jobs to the worker, one after another, and their answers
        back to the event loop; a new worker when it was killed or died."""
        worker = None
        while True:
            if worker is None or not worker.alive:
                if worker is not None:
                    self._retire(worker)
                if (worker := self._new_worker()) is None:
                    return
                self._started.set()
            ticket = self._jobs.get()
            if ticket is None:
                return
            with self._lock:
                if ticket.dropped:
                    continue
                ticket.taken = True
            answer, error = None, None
            try:
                answer = worker.run(ticket.job)
            except Exception as exc:  # the asker's to answer, as when it ran the job itself
                error = exc
            try:
                ticket.loop.call_soon_threadsafe(_settle, ticket.done, answer, error)
            except RuntimeError:  # the event loop has closed: the server has stopped
                return

    def _new_worker(self) -> Worker | None:
        """A worker that has loaded the store; None when the pool is closed or the worker did not start."""
        with self._lock:
            if self._closed:
                return None
            worker = Worker(self.graph, self.limits.query)
            self._workers.add(worker)
        try:
            worker.wait_ready()
        except (KgError, OSError) as exc:
            log.error("a query worker did not start: %s", exc)
            self._retire(worker)
            return None
        return worker

    def _retire(self, worker: Worker) -> None:
        with self._lock:
            self._workers.discard(worker)
        worker.close()

    def _withdraw(self, ticket: _Ticket) -> bool:
        """Drop a job no worker has taken yet; False when one has (its answer is coming)."""
        with self._lock:
            ticket.dropped = not ticket.taken
            return ticket.dropped

    async def run(self, job: Job) -> Answer:
        """The answer to ``job``, kept or from a worker; Busy when no slot or no worker is free in time."""
        if (kept := self._answers.get(job)) is not None:
            self._answers.move_to_end(job)
            return kept
        if self._admitted >= self.limits.concurrent:
            raise Busy(f"{self.limits.concurrent} queries are already running or waiting: try again shortly")
        self._admitted += 1
        loop = asyncio.get_running_loop()
        ticket = _Ticket(job, loop, loop.create_future())
        self._jobs.put(ticket)
        # while the first workers load the store, a job waits for them as long as a worker may take
        patience = self.limits.query.deadline if self._started.is_set() else READY_TIMEOUT
        try:
            await asyncio.wait([ticket.done], timeout=patience)
            if not ticket.done.done() and self._withdraw(ticket):
                raise Busy("no query worker came free in time: try again shortly")
            answer = await ticket.done
        finally:
            self._withdraw(ticket)  # the asker was cancelled: no worker takes the job,
            ticket.done.cancel()  # or the answer coming is dropped
            self._admitted -= 1
        if answer.repeatable:
            self._keep(job, answer)
        return answer

    def _keep(self, job: Job, answer: Answer) -> None:
        if _size(job, answer) > ANSWERS // 16 or job in self._answers:
            return
        self._answers[job] = answer
        self._kept += _size(job, answer)
        while self._kept > ANSWERS:
            self._kept -= _size(*self._answers.popitem(last=False))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
        for _ in range(self.limits.workers):
            self._jobs.put(None)
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
