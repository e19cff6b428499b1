"""The SPARQL page in a real browser: headless Chromium (Debian's ``chromium``, /usr/bin/chromium)
driven by Playwright opens /sparql, runs the ``works`` example tab and reads the result table.

Skipped with the reason (shown as a warning too, so a plain ``pytest -q`` prints it) when the
playwright package or /usr/bin/chromium is missing; ``playwright install`` is never needed.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from live_server import serving

from kg.serve.graph import ServeLimits

CHROMIUM = Path("/usr/bin/chromium")
TITLES = {"易隱", "黃金策", "御定六壬直指", "大六壬銀河棹"}  # corpus/catalogue.yaml


def skip(reason: str) -> None:
    warnings.warn(f"test_browser skipped: {reason}", stacklevel=2)
    pytest.skip(reason)


def test_sparql_page_runs_an_example(built_graph: Path) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip("the playwright package is not installed (pip install playwright; no browser download)")
    if not CHROMIUM.exists():
        skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with serving(built_graph.parent, ServeLimits()) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            requested: list[str] = []
            page.on("request", lambda request: requested.append(request.url))
            page.goto(base + "sparql")
            page.get_by_role("tab", name="works", exact=True).click()
            panel = page.locator(".tabPanel.active")
            panel.locator(".yasqe_queryButton").click()
            table = panel.locator(".yasr table.dataTable")
            table.locator("tbody tr").first.wait_for()
            header = table.locator("thead th").all_inner_texts()
            column = header.index("title")
            rows = [row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all()]
            completers = page.evaluate("Yasgui.Yasqe.defaults.autocompleters")
        finally:
            browser.close()
    assert {cells[column].split('"')[1] for cells in rows} == TITLES  # shown as "易隱"@zh-hant
    assert base + "sparql" in requested[1:]  # the query went to this server …
    assert all(url.startswith(base) for url in requested)  # … and nothing anywhere else
    assert "property" not in completers and "class" not in completers  # the LOV autocompleters
