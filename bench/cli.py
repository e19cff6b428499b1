"""Benchmark: wall time of ``kg reading`` on the built graph (run `kg build` first), and where it goes.

Each figure is the median of fresh processes, timed in the same run:

  python          an interpreter that does nothing (the floor)
  import          ``import kg.reading.liuyao``: what ``kg reading liuyao`` loads before it runs (the
                  command of one system imports that chart system alone)
  reading         ``kg reading liuyao … --topic 遷移`` and ``kg reading liuren … --topic 婚姻`` on the build,
                  which takes the rule index from the build's kg.index.marshal
  no index        the same on a copy of kg.nq with no index beside it (the graph loaded into Oxigraph
                  and its rule index and provenance queried, as before the index was cached)

Then, inside one process, the stages of a 六爻 reading, and the imports that cost most
(``python -X importtime``, cumulative, the modules kg.reading and kg.reading.liuyao pull in directly).

Run from the repository root: python -m bench.cli [--runs 7] [--graph build/kg.nq]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kg.paths import BUILD

LIUYAO = ["reading", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--topic", "遷移"]
LIUREN = ["reading", "liuren", "--day", "癸未", "--ju", "4", "--day-night", "晝", "--topic", "婚姻"]
TARGET = 0.5
"""``kg reading`` wall time, seconds."""

STAGES = """
import time
clock = time.perf_counter
marks = [("start", clock())]
import kg.reading.liuyao
marks.append(("import kg.reading.liuyao", clock()))
from pathlib import Path
from kg.match import KnowledgeGraph
from kg.record import cast, read, text_report
from kg.simplified import topic
concept = topic("遷移")
marks.append(("topic (the vocabulary)", clock()))
found = cast("liuyao", {{"pillars": "庚寅 戊寅 癸亥", "lines": "977778"}}, concept)
marks.append(("chart and facts", clock()))
kg = KnowledgeGraph.load(Path({graph!r}))
marks.append(("graph load", clock()))
results = read(kg, found)
marks.append(("retrieval", clock()))
text_report(found, results)
marks.append(("report", clock()))
for (_, a), (name, b) in zip(marks, marks[1:]):
    print(f"  {{name:<24}} {{(b - a) * 1000:7.1f}} ms")
"""


def wall(command: list[str], runs: int) -> float:
    """Median seconds of ``runs`` fresh processes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


COMMAND = "kg.reading.liuyao"
"""The module of ``kg reading liuyao``; importing it imports its package, kg.reading, first."""


def imports(top: int = 10) -> list[tuple[str, float]]:
    """The modules ``import kg.reading.liuyao`` and its package import themselves that cost most,
    cumulative ms (``python -X importtime`` lists a module's imports just before it, one level deeper)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {COMMAND}"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows: list[tuple[int, str, float]] = []
    for line in done.stderr.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if len(fields) == 3 and fields[1].strip().isdigit():
            name = fields[2][1:]
            rows.append((len(name) - len(name.lstrip()), name.strip(), int(fields[1]) / 1000))
    targets = ("kg.reading", COMMAND)
    found: list[tuple[str, float]] = []
    for i, (depth, name, _) in enumerate(rows):
        if name in targets:
            j = i - 1
            while j >= 0 and rows[j][0] > depth:
                if rows[j][0] == depth + 2 and rows[j][1] not in targets:
                    found.append(rows[j][1:])
                j -= 1
    return sorted(found, key=lambda c: -c[1])[:top]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    kg = [sys.executable, "-m", "kg.cli"]
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "kg.nq"
        shutil.copyfile(args.graph, bare)
        rows = [
            ("python", [sys.executable, "-c", "pass"]),
            ("import", [sys.executable, "-c", f"import {COMMAND}"]),
            ("reading 六爻", [*kg, *LIUYAO, "--graph", str(args.graph)]),
            ("reading 大六壬", [*kg, *LIUREN, "--graph", str(args.graph)]),
            ("no index 六爻", [*kg, *LIUYAO, "--graph", str(bare)]),
            ("no index 大六壬", [*kg, *LIUREN, "--graph", str(bare)]),
        ]
        results = {name: wall(command, args.runs) for name, command in rows}
    print(f"median wall time of {args.runs} processes")
    for name, seconds in results.items():
        print(f"  {name:<16} {seconds:6.2f} s")
    for system in ("六爻", "大六壬"):
        seconds = results[f"reading {system}"]
        ratio = results[f"no index {system}"] / seconds
        print(
            f"kg reading {system} target ≤ {TARGET} s: {'met' if seconds <= TARGET else 'NOT met'} (×{ratio:.1f} faster than without the index)"
        )
    print("stages of one 六爻 reading in a fresh process:")
    subprocess.run([sys.executable, "-c", STAGES.format(graph=str(args.graph))], check=True)
    print(f"imports of kg.reading and {COMMAND}, cumulative:")
    for name, ms in imports():
        print(f"  {name:<28} {ms:7.1f} ms")


if __name__ == "__main__":
    main()
