"""Load on ``kg serve`` over loopback: concurrent clients for a fixed time while one runaway query runs.

The server is started as its own process (``kg serve`` on a free port of 127.0.0.1, on the build),
so the clients (httpx, from the test extra, in one event loop here) do not share its interpreter.
Each client loops over three kinds of request: a cheap SPARQL query, a rule page and a concept
page (the Linked Data HTML of a rule or concept found in the graph). Two seconds in, one client
sends a runaway query (a cross product of all triples, thrice), which the server must stop at its
deadline while the others go on. Every loop is bounded by time and by a total request count;
nothing leaves 127.0.0.1. Run from the repository root after ``kg build``:

    python -m bench.serve [--clients 50] [--seconds 30] [--timeout 10] [--max-queries 51]

Prints per kind: requests, answers by status, throughput, p50 and p99 latency; and when the
runaway query was answered (its status and message).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import httpx

from kg.build import BUILD

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
CHEAP = (
    "PREFIX dk: <https://w3id.org/divkg/>\nSELECT (COUNT(?w) AS ?n) WHERE { ?w a dk:Work }",
    "ASK { ?s a <https://w3id.org/divkg/Rule> }",
    "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
    "SELECT ?c ?l WHERE { ?c skos:prefLabel ?l } LIMIT 20",
)
PAGES = "SELECT ?x WHERE {{ ?x a <{cls}> }} ORDER BY ?x LIMIT 20"
BASE = "https://w3id.org/divkg/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def wait_ready(client: httpx.AsyncClient, limit: float = 30.0) -> float:
    """Seconds until the server answers a query."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            if (await client.get("sparql", params={"query": "ASK {}"})).status_code == 200:
                return time.monotonic() - start
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit(f"the server did not answer within {limit:g} s")


async def page_paths(client: httpx.AsyncClient, cls: str) -> list[str]:
    """Paths of the HTML pages of some instances of ``cls`` on this server."""
    response = await client.get(
        "sparql", params={"query": PAGES.format(cls=cls)}, headers={"Accept": "application/json"}
    )
    rows = response.json()["results"]["bindings"]
    return [row["x"]["value"].removeprefix(BASE) + ".html" for row in rows]


async def load(base: str, clients: int, seconds: float, budget: int) -> None:
    timings: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter] = defaultdict(Counter)
    runaway: dict[str, object] = {}
    # below uvicorn's 5 s keep-alive, so no request goes out on a connection the server is closing
    limits = httpx.Limits(max_connections=clients + 1, keepalive_expiry=4)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        print(f"server answering after {await wait_ready(client):.2f} s")
        requests = [("sparql", {"query": q}) for q in CHEAP]
        for kind, cls in (
            ("rule page", BASE + "Rule"),
            ("concept page", "http://www.w3.org/2004/02/skos/core#Concept"),
        ):
            paths = await page_paths(client, cls)
            requests += [(kind, path) for path in paths[:3]]
        if not any(kind != "sparql" for kind, _ in requests):
            print("no rule or concept pages found: SPARQL only")
        plan = itertools.cycle(requests)
        sent = itertools.count()
        start = time.monotonic()

        async def one_client() -> None:
            while time.monotonic() - start < seconds and next(sent) < budget:
                kind, target = next(plan)
                began = time.monotonic()
                try:
                    if kind == "sparql":
                        response = await client.get("sparql", params=target, headers={"Accept": "text/csv"})
                    else:
                        response = await client.get(target)
                    statuses[kind][response.status_code] += 1
                except httpx.HTTPError as exc:
                    statuses[kind][type(exc).__name__] += 1
                timings[kind].append(time.monotonic() - began)

        async def the_runaway() -> None:
            await asyncio.sleep(2)
            began = time.monotonic()
            response = await client.post("sparql", data={"query": RUNAWAY})
            runaway.update(
                sent=began - start,
                took=time.monotonic() - began,
                status=response.status_code,
                text=response.text,
            )

        await asyncio.gather(the_runaway(), *(one_client() for _ in range(clients)))
        elapsed = time.monotonic() - start
    print(f"{clients} clients for {elapsed:.1f} s")
    print(f"{'kind':<14}{'requests':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}  statuses")
    for kind, times in timings.items():
        p50, p99 = (statistics.quantiles(times, n=100)[i] * 1000 for i in (49, 98))
        answers = ", ".join(f"{status}: {n}" for status, n in sorted(statuses[kind].items(), key=str))
        print(f"{kind:<14}{len(times):>9}{len(times) / elapsed:>8.1f}{p50:>9.1f}{p99:>9.1f}  {answers}")
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
    args = parser.parse_args()
    port = free_port()
    command = [
        *(sys.executable, "-m", "kg.cli", "serve", "--host", "127.0.0.1", "--port", str(port)),
        *("--build", str(args.build), "--timeout", str(args.timeout), "--workers", str(args.workers)),
        *("--max-queries", str(args.max_queries or args.clients + 1)),
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        asyncio.run(load(f"http://127.0.0.1:{port}/", args.clients, args.seconds, args.requests))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
