"""Long commands show a progress bar on a terminal and nothing extra when their output is piped.

Each command runs as a real process: once on a pseudo-terminal (with a window size, as a terminal
has), once with stderr piped."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

KG = [str(Path(sys.executable).with_name("kg"))]


def on_a_terminal(args: list[str]) -> str:
    """What a terminal of 120 columns shows while ``kg args`` runs (carriage returns as new lines)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen(KG + args, stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert process.wait() in (0, 1)
    return shown.decode(errors="replace").replace("\r", "\n")


LONG_COMMANDS = {
    "validate": (["validate", "--graph", "{small}"], ["loading small.nq", "shapes:", "dk:RuleShape"]),
    "witness": (
        ["witness", "--work", "zhizhi", "--readings", "30", "--jobs", "1", "--graph", "{graph}"],
        ["rules searched:", " rule"],
    ),
    "batch": (
        [
            "batch",
            "liuren",
            "--days",
            "癸未",
            "--all-lessons",
            "--topic",
            "婚姻",
            "-o",
            "{out}",
            "--graph",
            "{graph}",
        ],
        ["24/24", "reading"],
    ),
}


@pytest.mark.parametrize("name", list(LONG_COMMANDS))
def test_progress_on_a_terminal_only(name, built_graph, tmp_path):
    args, marks = LONG_COMMANDS[name]
    small = tmp_path / "small.nq"  # a partial graph: it fails validation, as quickly as it shows the bars
    small.write_text("<urn:x:s> <urn:x:p> <urn:x:o> <urn:x:g> .\n", encoding="utf-8")
    args = [a.format(graph=built_graph, small=small, out=tmp_path / "rows.parquet") for a in args]
    shown = on_a_terminal(args)
    for mark in marks:
        assert mark in shown, shown[-2000:]
    assert "%|" in shown
    piped = subprocess.run(KG + args, capture_output=True, text=True, check=False)
    assert piped.returncode in (0, 1)
    assert "%|" not in piped.stderr
