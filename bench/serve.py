"""Load on ``kg serve`` over loopback: concurrent clients for a fixed time while one runaway query runs.

The server is started as its own process (``kg serve`` on a free port of 127.0.0.1, on the build),
so the clients (in one event loop here) do not share its interpreter. Each client holds one
keep-alive HTTP/1.1 connection and loops over three kinds of request: a cheap SPARQL query, a rule
page and a concept page (the Linked Data HTML of a rule or concept found in the graph). The client
is a few lines over asyncio streams rather than httpx: httpx spends some 2.5 ms of CPU on a
request, five times what the server does, so on a small machine it would measure itself. Two
seconds in, one more connection sends a runaway query (a cross product of all triples, thrice),
which the server must stop at its deadline while the others go on. The three cheap queries repeat,
so after their first answers the server answers them from memory; with ``--fresh`` each query text
is new (a numbered comment), and every one goes to a worker. Every loop is bounded by time and by a
total request count; nothing leaves 127.0.0.1. Run from the repository root after ``kg build``:

    python -m bench.serve [--clients 50] [--seconds 30] [--timeout 10] [--max-queries 51] [--fresh]

Prints per kind: requests, answers by status (or the exception that ended a request), throughput,
p50 and p99 latency, over the whole run and over the requests sent while the runaway query ran;
and when the runaway query was answered (its status and message).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode

from kg.paths import BUILD

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
CHEAP = (
    "PREFIX dk: <https://w3id.org/divkg/>\nSELECT (COUNT(?w) AS ?n) WHERE { ?w a dk:Work }",
    "ASK { ?s a <https://w3id.org/divkg/Rule> }",
    "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
    "SELECT ?c ?l WHERE { ?c skos:prefLabel ?l } LIMIT 20",
)
PAGES = "SELECT ?x WHERE {{ ?x a <{cls}> }} ORDER BY ?x LIMIT 20"
BASE = "https://w3id.org/divkg/"
HOST = "127.0.0.1"
TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Connection:
    """One keep-alive HTTP/1.1 connection to the server; answers must carry a Content-Length (the
    server's all do), and the connection is opened again when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        """The status and body of the answer to one request."""
        try:
            return await asyncio.wait_for(self._exchange(method, target, headers or {}, body), TIMEOUT)
        except BaseException:
            self.close()
            raise

    async def _exchange(
        self, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes]:
        if self._streams is None:
            self._streams = await asyncio.open_connection(HOST, self.port)
        reader, writer = self._streams
        fields = {"Host": f"{HOST}:{self.port}", "Content-Length": str(len(body)), **headers}
        head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        writer.write(head.encode() + b"\r\n" + body)
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        answer = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)
        }
        if "content-length" not in answer:
            raise ValueError(f"an answer without Content-Length to {method} {target}")
        content = await reader.readexactly(int(answer["content-length"]))
        if answer.get("connection", "").lower() == "close":
            self.close()
        return int(lines[0].split()[1]), content

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


def sparql(query: str) -> str:
    return "/sparql?" + urlencode({"query": query})


async def wait_ready(connection: Connection, limit: float = 30.0) -> float:
    """Seconds until the server answers a query."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            if (await connection.request("GET", sparql("ASK {}")))[0] == 200:
                return time.monotonic() - start
        except (OSError, asyncio.IncompleteReadError):
            pass
        await asyncio.sleep(0.05)
    raise SystemExit(f"the server did not answer within {limit:g} s")


async def page_paths(connection: Connection, cls: str) -> list[str]:
    """Paths of the HTML pages of some instances of ``cls`` on this server."""
    _, body = await connection.request("GET", sparql(PAGES.format(cls=cls)), {"Accept": "application/json"})
    rows = json.loads(body)["results"]["bindings"]
    return ["/" + row["x"]["value"].removeprefix(BASE) + ".html" for row in rows]


def report(title: str, timings: dict[str, list[float]], statuses: dict[str, Counter], elapsed: float) -> None:
    print(title)
    print(f"{'kind':<14}{'requests':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}  statuses")
    for kind, times in timings.items():
        if len(times) < 2:
            continue
        p50, p99 = (statistics.quantiles(times, n=100)[i] * 1000 for i in (49, 98))
        answers = ", ".join(f"{status}: {n}" for status, n in sorted(statuses[kind].items(), key=str))
        print(f"{kind:<14}{len(times):>9}{len(times) / elapsed:>8.1f}{p50:>9.1f}{p99:>9.1f}  {answers}")


async def load(port: int, clients: int, seconds: float, budget: int, fresh: bool) -> None:
    targets: list[tuple[str, str, dict[str, str]]] = []
    setup = Connection(port)
    print(f"server answering after {await wait_ready(setup):.2f} s")
    targets += [("sparql", q, {"Accept": "text/csv"}) for q in CHEAP]
    for kind, cls in (
        ("rule page", BASE + "Rule"),
        ("concept page", "http://www.w3.org/2004/02/skos/core#Concept"),
    ):
        paths = await page_paths(setup, cls)
        targets += [(kind, path, {}) for path in paths[:3]]
    setup.close()
    if not any(kind != "sparql" for kind, _, _ in targets):
        print("no rule or concept pages found: SPARQL only")
    plan = itertools.cycle(targets)
    sent = itertools.count()
    different = itertools.count()
    done: list[tuple[str, float, float, int | str]] = []  # kind, sent at, seconds, status
    runaway: dict[str, object] = {}
    start = time.monotonic()

    async def one_client() -> None:
        connection = Connection(port)
        while time.monotonic() - start < seconds and next(sent) < budget:
            kind, target, headers = next(plan)
            if kind == "sparql":
                target = sparql(f"{target}\n# {next(different)}" if fresh else target)
            began = time.monotonic()
            try:
                status: int | str = (await connection.request("GET", target, headers))[0]
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
                status = type(exc).__name__
            done.append((kind, began - start, time.monotonic() - began, status))
        connection.close()

    async def the_runaway() -> None:
        await asyncio.sleep(2)
        connection = Connection(port)
        began = time.monotonic()
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        status, text = await connection.request(
            "POST", "/sparql", form, urlencode({"query": RUNAWAY}).encode()
        )
        connection.close()
        runaway.update(sent=began - start, took=time.monotonic() - began, status=status, text=text.decode())

    await asyncio.gather(the_runaway(), *(one_client() for _ in range(clients)))
    elapsed = time.monotonic() - start
    windows = [(f"{clients} clients for {elapsed:.1f} s", 0.0, elapsed)]
    if runaway:
        began, took = float(runaway["sent"]), float(runaway["took"])  # type: ignore[arg-type]
        windows.append((f"sent while the runaway query ran ({took:.1f} s)", began, began + took))
    for title, low, high in windows:
        timings: dict[str, list[float]] = defaultdict(list)
        statuses: dict[str, Counter] = defaultdict(Counter)
        for kind, at, seconds_taken, status in done:
            if low <= at < high:
                timings[kind].append(seconds_taken)
                statuses[kind][status] += 1
        report(title, timings, statuses, high - low)
    if runaway:
        print(
            f"runaway query sent at {runaway['sent']:.1f} s, answered {runaway['took']:.2f} s later: "
            f"{runaway['status']} {str(runaway['text']).strip()}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--requests", type=int, default=500_000, help="Total requests at most.")
    parser.add_argument("--timeout", type=float, default=10.0, help="The server's query deadline.")
    parser.add_argument("--workers", type=int, default=2, help="The server's query workers.")
    parser.add_argument("--max-queries", type=int, help="The server's query slots (default: clients + 1).")
    parser.add_argument("--build", type=Path, default=BUILD)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="Make every SPARQL query new (a numbered comment), so none is answered from kept answers.",
    )
    args = parser.parse_args()
    port = free_port()
    command = [
        *(sys.executable, "-m", "kg.cli", "serve", "--host", HOST, "--port", str(port)),
        *("--build", str(args.build), "--timeout", str(args.timeout), "--workers", str(args.workers)),
        *("--max-queries", str(args.max_queries or args.clients + 1)),
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        asyncio.run(load(port, args.clients, args.seconds, args.requests, args.fresh))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
