"""The reading pages in a real browser: headless Chromium (Debian's /usr/bin/chromium) through Playwright
fills the forms as a person would and reads the result.

- 六爻: example A of 《易隱》〈遷移占〉 (庚寅 戊寅 癸亥, 977778, topic 遷移: 夬之大過) shows the seven verdicts
  of ¶60 with the lines they bind (tests/test_yiyin_examples.py lists them, from the text);
- 大六壬: 癸未日 第四局 by day, topic 婚姻, shows 終難得就 with its 《直指》 citation (¶8);
- an impossible line value (977775) shows its error beside the line values, with status 400;
- the permalink (the page's URL) reloads the same reading.

``DIVKG_SCREENSHOTS=docs/screenshots pytest tests/test_browser_readings.py`` also saves both reading pages
at desktop width (1280 × 1000) and on a 390 × 844 phone viewport there, for the README.

Skipped, with the reason, when Playwright or Chromium is missing (``apt-get install chromium``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_browser_pages import CHROMIUM, server
from test_yiyin_examples import A_VERDICTS, A

ROOT = Path(__file__).resolve().parent.parent
ZHIZHI = (ROOT / "corpus" / "sources" / "zhizhi.txt").read_text(encoding="utf-8").split("\n\n")
VIEWPORTS = {"desktop": {"width": 1280, "height": 1000}, "phone": {"width": 390, "height": 844}}

__all__ = ["server"]  # the uvicorn fixture of test_browser_pages


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def cast_liuyao(page, server: str, lines: str):
    """Fill the 六爻 form with example A's pillars, ``lines`` and topic 遷移, and send it."""
    page.goto(server + "reading/liuyao")
    page.fill("#f-pillars", A[0])
    page.fill("#f-lines", lines)
    page.select_option("#f-topic", "qianyi")
    with page.expect_navigation() as navigation:
        page.click("button[type=submit]")
    return navigation.value


def verdicts(page) -> dict[str, list[str]]:
    """Rule id → the texts of its articles in the lists by polarity."""
    found: dict[str, list[str]] = {}
    for node in page.locator("section.polarity-group article.rule").all():
        found.setdefault(node.get_attribute("data-rule"), []).append(node.inner_text())
    return found


def screenshot(page, name: str) -> None:
    folder = os.environ.get("DIVKG_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def test_example_a_in_the_browser(browser, server: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS["desktop"])
    response = cast_liuyao(page, server, A[1])
    assert response.status == 200
    assert "pillars=" in page.url and "lines=977778" in page.url and "topic=qianyi" in page.url
    assert "moment=" not in page.url  # empty fields stay out of the permalink
    found = verdicts(page)
    for rule_id, (wording, bound) in A_VERDICTS.items():
        assert rule_id in found, rule_id
        assert any(
            wording in text and all(label in text for label in bound.values()) for text in found[rule_id]
        )
    assert page.locator("#line-5").inner_text().split() == ["五", "子孫", "丁酉金"]
    screenshot(page, "reading-liuyao-desktop")
    before = sorted((r, t) for r, texts in found.items() for t in texts)
    page.goto(page.url)  # the permalink
    assert sorted((r, t) for r, texts in verdicts(page).items() for t in texts) == before
    page.close()


def test_guiwei_4_marriage_in_the_browser(browser, server: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS["desktop"])
    page.goto(server + "reading/liuren")
    page.fill("#f-day", "癸未")
    page.fill("#f-ju", "4")
    page.select_option("#f-day_night", "晝")
    page.select_option("#f-topic", "hunyin")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert "婚姻：支干相沖，終難得就。" in ZHIZHI[7]
    (hunyin,) = verdicts(page)["zhizhi.ju4.hunyin"]
    assert "終難得就" in hunyin and "婚姻：支干相沖，終難得就。" in hunyin
    assert "《御定六壬直指》癸未日第四局（干上戌）" in hunyin and "¶8" in hunyin
    assert page.locator("#spirit-xu .generals").inner_text() == "白虎"  # 干乘墓虎 (¶10)
    screenshot(page, "reading-liuren-desktop")
    page.close()


def test_an_impossible_line_value_beside_its_field(browser, server: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    response = cast_liuyao(page, server, "977775")
    assert response.status == 400
    error = page.locator("#e-lines")
    assert error.is_visible()
    assert error.inner_text().startswith("line value '5' at line 6 is not 6, 7, 8 or 9")
    assert page.locator("#f-lines").get_attribute("aria-invalid") == "true"
    assert page.locator("#f-lines").input_value() == "977775"
    assert page.locator("section.reading").count() == 0
    page.close()


@pytest.mark.skipif(not os.environ.get("DIVKG_SCREENSHOTS"), reason="DIVKG_SCREENSHOTS names no folder")
def test_phone_screenshots(browser, server: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    cast_liuyao(page, server, A[1])
    screenshot(page, "reading-liuyao-phone")
    page.goto(server + "reading/liuren?day=癸未&ju=4&day_night=晝&topic=hunyin")
    screenshot(page, "reading-liuren-phone")
    page.close()
