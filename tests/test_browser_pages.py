"""A rule's Linked Data page in a real browser: headless Chromium (Debian's /usr/bin/chromium) through
Playwright opens the rule's IRI, follows the 303 to its HTML and finds the highlighted quote.

Skipped, with the reason, when Playwright or Chromium is missing (``apt-get install chromium``;
``playwright install`` is not needed).
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from kg.serve.app import create_app
from kg.serve.graph import ServedGraph

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SOURCE = (Path(__file__).resolve().parent.parent / "corpus" / "sources" / "yiyin.txt").read_text("utf-8")
QUOTE = "父下伏水鬼，棟必漏也。"  # 《易隱》 ¶6, sentence 3


@pytest.fixture(scope="module")
def server(built_graph: Path):
    """The application on uvicorn in a thread, on a free local port (no lifespan: no query workers)."""
    uvicorn = pytest.importorskip("uvicorn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}/"
    app = create_app(ServedGraph.load(built_graph.parent, base))
    running = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    )
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        if time.monotonic() > deadline:
            pytest.fail("uvicorn did not start within 30 s")
        time.sleep(0.05)
    yield base
    running.should_exit = True
    thread.join(timeout=10)


def test_rule_page_shows_its_quote(server: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    assert QUOTE in SOURCE
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            response = page.goto(server + "rule/yiyin.dongliang.leak")
            assert response is not None and response.ok
            assert page.url == server + "rule/yiyin.dongliang.leak.html"
            assert page.locator("mark.quote").inner_text() == QUOTE
            assert page.locator("h1").inner_text() == "yiyin.dongliang.leak"
        finally:
            browser.close()
