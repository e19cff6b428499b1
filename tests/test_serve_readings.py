"""Readings in the browser (``/reading/liuyao``, ``/reading/liuren``) through httpx: the forms made from
the command line's options, the chart drawn and linked, the rules with bindings, quotes and citations,
the downloads (record, RDF, text, SVG, PNG), bad input beside its field; and the reading record of
:mod:`kg.record` as ``kg reading … --format record`` writes it and ``--from`` casts it again.

Expected values come from the texts: 《易隱》〈遷移占〉 ¶60 (block 60 of corpus/sources/yiyin.txt) lays out
example A line by line and gives its verdicts (the seven of tests/test_yiyin_examples.py); 《直指》
癸未日第四局 (corpus/sources/zhizhi.txt, its heading 干上戌 in corpus/catalogue.yaml) names its 課體 in ¶2
and its 婚姻 verdict in ¶8. Defaults come from :class:`kg.liuyao.chart.Options` and the click options.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import xml.etree.ElementTree as ET
from dataclasses import fields
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlencode

import click
import pytest
from click.testing import CliRunner
from rdflib import Dataset, Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, SKOS
from test_serve_pages import SERVER, fetch, text_of
from test_yiyin_examples import A_VERDICTS, A

from kg.cli import main
from kg.liuren.commands import input_options as liuren_options
from kg.liuyao.chart import Options
from kg.liuyao.commands import input_options as liuyao_options
from kg.serve.app import create_app
from kg.serve.graph import ServedGraph
from kg.vocabulary import DK, vocabulary

ROOT = Path(__file__).resolve().parent.parent
YIYIN = (ROOT / "corpus" / "sources" / "yiyin.txt").read_text(encoding="utf-8").split("\n\n")
ZHIZHI = (ROOT / "corpus" / "sources" / "zhizhi.txt").read_text(encoding="utf-8").split("\n\n")
PARAGRAPH_60 = YIYIN[59]  # ¶n is block n of the file
PROV = Namespace("http://www.w3.org/ns/prov#")
EXAMPLE_A = {"pillars": A[0], "lines": A[1], "topic": "qianyi"}
GUIWEI_4 = {"day": "癸未", "ju": "4", "day_night": "晝", "topic": "hunyin"}


def url(path: str, params: dict[str, str]) -> str:
    return f"{path}?{urlencode(params, quote_via=quote)}"


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def cli_error(*args: str) -> str:
    """The message ``kg`` prints for bad input (exit 2): its last line, without ``error: `` (ours) or
    ``Error: `` (click's, after the usage)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    return re.sub(r"^(error|Error): ", "", result.output.strip().splitlines()[-1])


def options_of(decorate) -> list[click.Option]:
    return [p for p in click.command()(decorate(lambda **_: None)).params if isinstance(p, click.Option)]


class Cells(HTMLParser):
    """The text of every cell of a table, row by row, with the cell's class; small print (the line's
    position, marks such as 空) left out."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str]]] = []
        self.cell: str | None = None
        self.small = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            self.rows[-1].append((dict(attrs).get("class") or "", ""))
            self.cell = tag
        elif tag == "small":
            self.small += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.cell = None
        elif tag == "small":
            self.small -= 1

    def handle_data(self, data: str) -> None:
        if self.cell and self.rows and not self.small:
            cls, text = self.rows[-1][-1]
            self.rows[-1][-1] = (cls, text + data)


def chart_rows(page: str) -> list[dict[str, str]]:
    """The lines of the 六爻 drawing, top-down: cell class → text without spaces."""
    table = page[page.index('<table class="yao">') : page.index("</table>")]
    parser = Cells()
    parser.feed(table)
    rows = []
    for row in parser.rows[1:]:
        cells: dict[str, str] = {}
        for cls, text in row:
            key = cls if cls not in cells else "changed-" + cls
            cells[key] = re.sub(r"\s+", "", text)
        rows.append(cells)
    return rows


def article(page: str, rule_id: str) -> list[str]:
    """The page's articles about one rule (one per application, and again among the conflicts)."""
    return re.findall(
        rf'<article class="rule[^"]*" data-rule="{re.escape(rule_id)}".*?</article>', page, re.S
    )


def listed(page: str, rule_id: str) -> list[str]:
    """The articles about one rule in the lists by polarity (after the conflicts)."""
    return article(page[page.index('<section class="polarity-group') :], rule_id)


@pytest.fixture(scope="module")
def served(built_graph: Path) -> ServedGraph:
    return ServedGraph.load(built_graph.parent, SERVER)


@pytest.fixture(scope="module")
def app(served: ServedGraph):
    return create_app(served)


@pytest.fixture(scope="module")
def example_a(app) -> str:
    response = fetch(app, url("/reading/liuyao", EXAMPLE_A))
    assert response.status_code == 200
    return text_of(response)


@pytest.fixture(scope="module")
def guiwei_4(app) -> str:
    response = fetch(app, url("/reading/liuren", GUIWEI_4))
    assert response.status_code == 200
    return text_of(response)


# ── the forms ────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(("system", "decorate"), [("liuyao", liuyao_options), ("liuren", liuren_options)])
def test_the_form_has_every_option_of_the_command_line(app, system: str, decorate) -> None:
    page = text_of(fetch(app, f"/reading/{system}"))
    assert "<form" in page and 'class="reading"' not in page
    for option in options_of(decorate):
        assert f'name="{option.name}"' in page, option.name
        assert option.opts[0] in page  # the flag, beside the option's help
        if isinstance(option.type, click.Choice):
            for choice in option.type.choices:
                assert f'<option value="{choice}"' in page, (option.name, choice)


def test_liuyao_doctrine_defaults_are_the_options_dataclass(app) -> None:
    page = text_of(fetch(app, "/reading/liuyao"))
    default = Options()
    for f in fields(Options):
        value = str(getattr(default, f.name))
        select = re.search(rf'<select id="f-{f.name}" name="{f.name}".*?</select>', page, re.S)
        assert select is not None, f.name
        assert f'<option value="{value}" selected>{value} (default)</option>' in select.group(0), f.name


def test_liuren_defaults_are_the_click_defaults(app) -> None:
    page = text_of(fetch(app, "/reading/liuren"))
    for option in options_of(liuren_options):
        if isinstance(option.type, click.Choice) and isinstance(option.default, str):
            assert f'<option value="{option.default}" selected>{option.default} (default)</option>' in page


def test_the_topic_tree_in_optgroups(app) -> None:
    page = text_of(fetch(app, "/reading/liuyao"))
    vocab = vocabulary()
    house = vocab.topic("家宅")
    (english,) = [str(x) for x in vocab.graph.objects(house, SKOS.prefLabel) if x.language == "en"]
    group = re.search(rf'<optgroup label="家宅 · {english}"[^>]*>(.*?)</optgroup>', page, re.S)
    assert group is not None
    for narrower in (
        "棟梁",
        "墳墓",
        "祖墓",
    ):  # 家宅 > 棟梁, 家宅 > 墳墓 > 房分 > 祖墓 (ontology/concepts/topics.ttl)
        slug = str(vocab.topic(narrower)).rsplit("/", 1)[1]
        assert f'<option value="{slug}">' in group.group(1)
    assert '<option value="qianyi">遷移 · moving house</option>' in page


# ── the 六爻 reading: example A of 《易隱》〈遷移占〉 ¶60 ───────────────────────────────────────────


def test_example_a_is_the_texts_chart(example_a: str) -> None:
    """¶60 lays the chart out top-down: [伏神、]本卦——變卦, 世/應 and ○ marked."""
    layout = PARAGRAPH_60.split("伏神、本卦、變卦：", 1)[1].split("。", 1)[0]
    rows = chart_rows(example_a)
    assert len(rows) == 6
    for row, written in zip(rows, layout.split("；"), strict=True):
        primary, _, changed = written.partition("——")
        if "→" in primary:  # 妻財甲子水○→兄弟辛丑土（應）: the moving line and what it becomes
            primary, changed = primary.split("→")
        hidden, _, primary = primary.rpartition("、")
        assert row["line"] == re.sub(r"（.）|○", "", primary)
        assert row.get("hidden", "") == hidden
        assert ("世" in row["role"], "應" in row["role"], "○" in row["role"]) == (
            "（世）" in primary,
            "（應）" in primary,
            "○" in primary,
        )
        assert row["changed"] == re.sub(r"（.）", "", changed)
        assert ("世" in row["changed-role"], "應" in row["changed-role"]) == (
            "（世）" in changed,
            "（應）" in changed,
        )
    assert "澤天夬" in example_a and "澤風大過" in example_a and "坤宮" in example_a and "震宮" in example_a


def test_example_a_facts_link_to_their_concepts(example_a: str, served: ServedGraph) -> None:
    figure = example_a[example_a.index('<figure class="chart liuyao"') : example_a.index("</figure>")]
    links = set(re.findall(r'href="([^"]+)"', figure))
    assert f"{SERVER}concept/relative/guangui.html" in links  # 官鬼 of 二爻
    assert f"{SERVER}concept/beast/qinglong.html" in links  # 青龍 of 二爻 (癸 day: 玄武 at 初爻)
    assert f"{SERVER}concept/hexagram/111110.html" in links  # 澤天夬, bottom → top
    for href in links:
        iri = served.public(href.removesuffix(".html"))
        assert served.kg.query(f"SELECT * WHERE {{ <{iri}> ?p ?o }} LIMIT 1"), href


def test_example_a_shows_the_seven_verdicts_with_their_bindings(example_a: str) -> None:
    for rule_id, (wording, bound) in A_VERDICTS.items():
        found = article(example_a, rule_id)
        assert found, rule_id
        assert any(f'class="wording" lang="zh-Hant">{wording}</b>' in a for a in found), rule_id
        for var, label in bound.items():
            position = "初二三四五上".index(label[0]) + 1  # 五爻 子孫丁酉金: the fifth line of the drawing
            assert any(
                f'<b>{var}</b> = <a href="#line-{position}" lang="zh-Hant">{label}</a>' in a for a in found
            )
    (west,) = listed(example_a, "yiyin.qianyi.west")
    assert "世居酉福，正西吉也。" in PARAGRAPH_60 and '<q lang="zh-Hant">世居酉福，正西吉也。</q>' in west
    assert "¶60" in west and f'href="{SERVER}urn:cts:divkg:yiyin.juan4.zh:60.' in west
    assert "曹九錫輯、曹璿演《易隱》卷四〈遷移占〉附斷例" in west
    assert f'href="{SERVER}rule/yiyin.qianyi.west.html"' in west


def test_example_a_groups_by_polarity_with_the_conflict_side_by_side(example_a: str) -> None:
    """正西吉 (吉) and 南方大忌 (凶) both bind the 世 (五爻 子孫丁酉金): the conflict lists both."""
    good = example_a.index('<section class="polarity-group pol-ji">')
    bad = example_a.index('<section class="polarity-group pol-xiong">')
    assert good < bad
    assert article(example_a[good:bad], "yiyin.qianyi.west")
    assert article(example_a[bad:], "yiyin.qianyi.south-fire")
    conflicts = example_a[example_a.index('<section class="conflicts">') : good]
    shi = re.search(
        r'<h4 lang="zh-Hant"><a href="#line-5">五爻 子孫丁酉金</a></h4>(.*?)</div>\s*</div>', conflicts, re.S
    )
    assert shi is not None
    sides = shi.group(1).split('<div class="side pol-xiong">')
    assert article(sides[0], "yiyin.qianyi.west") and article(sides[1], "yiyin.qianyi.south-fire")


def test_the_permalink_and_downloads_carry_the_inputs(example_a: str) -> None:
    query = urlencode(EXAMPLE_A, quote_via=quote)
    assert f'href="{SERVER}reading/liuyao?{query}" rel="bookmark"' in example_a
    for fmt in ("json", "ttl", "trig", "txt", "svg", "png"):
        assert f'href="{SERVER}reading/liuyao.{fmt}?{query}"' in example_a


def test_no_outside_scripts_styles_or_fonts(example_a: str) -> None:
    for tag, attr in (("script", "src"), ("link", "href"), ("img", "src")):
        for found in re.findall(rf"<{tag}[^>]*\b{attr}=\"([^\"]+)\"", example_a):
            assert found.startswith("/static/"), found
    assert "@import" not in example_a and "fonts.g" not in example_a


# ── the 大六壬 reading: 《直指》 癸未日第四局 ───────────────────────────────────────────────────────


def test_guiwei_4_plate_lessons_and_keti(guiwei_4: str) -> None:
    """The 課式 of 癸未日第四局 (干上戌, its heading): 1課 戌 over 癸, the 課體 of ¶2."""
    assert ZHIZHI[1].startswith("課體：元首，斬關，稼穡，遊子。")
    lessons = guiwei_4[guiwei_4.index('<table class="lessons">') :]
    upper = re.search(r'<tr class="upper">(.*?)</tr>', lessons, re.S).group(1)
    lower = re.search(r'<tr class="lower">(.*?)</tr>', lessons, re.S).group(1)
    assert (
        re.findall(r">(.)</a>", upper)[-1] == "戌" and re.findall(r">(.)</a>", lower)[-1] == "癸"
    )  # 1課, rightmost
    keti = re.search(r'<p class="keti">(.*?)</p>', guiwei_4, re.S).group(1)
    for name in ("元首", "斬關", "稼穡", "遊子"):
        assert f">{name}</a>" in keti
    palaces = re.findall(
        r'<div class="palace[^"]*" id="spirit-[a-z]+" style="grid-row:(\d);grid-column:(\d)">', guiwei_4
    )
    assert len(set(palaces)) == 12 and ("2", "2") not in palaces  # a ring: the centre is the day's


def test_guiwei_4_marriage_verdict_with_its_citation(guiwei_4: str) -> None:
    assert "婚姻：支干相沖，終難得就。" in ZHIZHI[7]
    (hunyin,) = listed(guiwei_4, "zhizhi.ju4.hunyin")
    assert 'class="wording" lang="zh-Hant">終難得就</b>' in hunyin
    assert '<q lang="zh-Hant">婚姻：支干相沖，終難得就。</q>' in hunyin
    assert "《御定六壬直指》癸未日第四局（干上戌）" in hunyin and "¶8" in hunyin
    assert 'data-status="applies"' in hunyin and "pol-xiong" in hunyin


# ── bad input ────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("system", "inputs", "field"),
    [
        ("liuyao", {"pillars": A[0], "lines": "977775"}, "lines"),
        ("liuyao", {"pillars": "甲丑 戊寅 癸亥", "lines": A[1]}, "pillars"),
        ("liuyao", {"pillars": A[0]}, "lines"),  # give the cast: line values, …
        ("liuyao", {"pillars": A[0], "lines": A[1], "birth": "甲丑"}, "birth"),
        ("liuyao", {"pillars": A[0], "hexagram": "夬", "moving": "7"}, "moving"),
        ("liuyao", {"moment": "2024-13-01", "lines": A[1]}, "moment"),
        ("liuren", {"day": "癸未", "ju": "13"}, "ju"),
        ("liuren", {"day": "癸丑x", "ju": "4"}, "day"),
        ("liuren", {"day": "癸未", "ju": "四"}, "ju"),  # click's: not a valid integer
        ("liuren", {"day": "癸未", "hour": "午", "general": "戌", "ju": "4"}, "general"),  # 戌 on 午 is 第9局
    ],
)
def test_bad_input_is_the_cli_error_beside_its_field(app, system: str, inputs: dict, field: str) -> None:
    topic = {"liuyao": "qianyi", "liuren": "hunyin"}[system]
    response = fetch(app, url(f"/reading/{system}", inputs | {"topic": topic}))
    assert response.status_code == 400
    page = text_of(response)
    args = [x for name, value in inputs.items() for x in (f"--{name}", value)]
    message = cli_error("reading", system, *args, "--topic", topic)
    error = re.search(rf'<p class="error" id="e-{field}" lang="zh-Hant">(.*?)</p>', page, re.S)
    assert error is not None, page[page.find('class="errors"') :][:400]
    assert error.group(1) == message
    assert f'aria-invalid="true" aria-describedby="e-{field}"' in page
    assert 'class="reading"' not in page and "Traceback" not in page


def test_an_unknown_topic_beside_the_topic(app) -> None:
    response = fetch(app, url("/reading/liuren", GUIWEI_4 | {"topic": "風水"}))
    assert response.status_code == 400
    page = text_of(response)
    error = re.search(r'<p class="error" id="e-topic">(.*?)</p>', page, re.S).group(1)
    assert error.startswith("unknown topic '風水'")
    assert 'value="癸未"' in page  # the other inputs are kept


def test_a_choice_the_cli_refuses(app) -> None:
    response = fetch(app, url("/reading/liuren", GUIWEI_4 | {"shehai": "other"}))
    assert response.status_code == 400
    error = re.search(r'<p class="error" id="e-shehai" lang="zh-Hant">(.*?)</p>', text_of(response), re.S)
    assert error is not None and "'other' is not one of 'zhinan', 'kejing'" in error.group(1)


def test_a_download_with_bad_input_is_a_400_without_a_body(app) -> None:
    response = fetch(app, url("/reading/liuyao.json", EXAMPLE_A | {"lines": "977775"}))
    assert response.status_code == 400
    assert response.json()["errors"]["lines"].startswith("line value '5' at line 6")
    assert fetch(app, url("/reading/liuyao.pdf", EXAMPLE_A)).status_code == 404


# ── the record and the downloads ─────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def record(app) -> dict:
    response = fetch(app, url("/reading/liuyao.json", EXAMPLE_A))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def test_the_record(record: dict, built_graph: Path) -> None:
    assert record["record"] == "divkg-reading/1"
    assert record["system"] == "liuyao"
    assert record["inputs"] == {"pillars": A[0], "lines": A[1]}
    assert record["topic"] == {"iri": str(DK) + "concept/topic/qianyi", "label": "遷移"}
    assert record["options"] == {f.name: str(getattr(Options(), f.name)) for f in fields(Options)}
    assert record["calendar"]["pillars_given"] is True
    assert record["graph"]["sha256"] == hashlib.sha256(built_graph.read_bytes()).hexdigest()
    facts = Graph().parse(data=record["facts"], format="nt")
    reading = URIRef(record["reading"])
    assert (reading, RDF.type, DK.Reading) in facts and (reading, DK.cast, Literal("977778")) in facts
    west = next(r for r in record["rules"] if r["rule_id"] == "yiyin.qianyi.west")
    assert west["rule"] == str(DK) + "rule/yiyin.qianyi.west" and west["quote"] == "世居酉福，正西吉也。"
    assert west["binding_labels"] == {"S": "五爻 子孫丁酉金"}
    assert west["bindings"] == {"S": record["reading"] + "/line/5"}


def test_the_cli_writes_the_same_record(record: dict, built_graph: Path) -> None:
    out = cli(
        "reading",
        "liuyao",
        "--pillars",
        A[0],
        "--lines",
        A[1],
        "--topic",
        "遷移",
        "--graph",
        str(built_graph),
        "--format",
        "record",
    )
    assert json.loads(out) == record


def test_the_record_as_a_named_graph(app, record: dict) -> None:
    trig = fetch(app, url("/reading/liuyao.trig", EXAMPLE_A))
    assert trig.status_code == 200 and trig.headers["content-type"].startswith("application/trig")
    dataset = Dataset()
    dataset.parse(data=trig.text, format="trig")
    names = [g.identifier for g in dataset.graphs() if g.identifier != URIRef("urn:x-rdflib:default")]
    (name,) = [n for n in names if len(dataset.graph(n))]
    graph = dataset.graph(name)
    reading = URIRef(record["reading"])
    assert (reading, DK.cast, Literal("977778")) in graph
    west = URIRef(str(DK) + "rule/yiyin.qianyi.west")
    (application,) = graph.subjects(PROV.wasDerivedFrom, west)
    (binding,) = graph.objects(application, PROV.qualifiedInfluence)
    assert (binding, PROV.influencer, URIRef(record["reading"] + "/line/5")) in graph
    assert (name, RDF.type, PROV.Bundle) in dataset.default_graph
    (activity,) = dataset.default_graph.objects(name, PROV.wasGeneratedBy)
    (build,) = dataset.default_graph.objects(activity, PROV.used)
    assert (build, DK.sha256, Literal(record["graph"]["sha256"])) in dataset.default_graph
    turtle = Graph().parse(data=fetch(app, url("/reading/liuyao.ttl", EXAMPLE_A)).text, format="turtle")
    assert len(turtle) == len(graph) + len(dataset.default_graph)


def test_the_text_download_is_the_cli_report(app, built_graph: Path) -> None:
    text = fetch(app, url("/reading/liuyao.txt", EXAMPLE_A))
    assert text.headers["content-type"].startswith("text/plain")
    out = cli(
        "reading",
        "liuyao",
        "--pillars",
        A[0],
        "--lines",
        A[1],
        "--topic",
        "遷移",
        "--graph",
        str(built_graph),
    )
    assert text.text == out


def test_the_chart_as_svg_and_png(app) -> None:
    svg = fetch(app, url("/reading/liuren.svg", GUIWEI_4))
    assert svg.headers["content-type"] == "image/svg+xml"
    root = ET.fromstring(svg.content)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "戌" in texts and "癸" in texts and "元首" in texts
    links = {a.get("href") for a in root.iter("{http://www.w3.org/2000/svg}a")}
    assert "干乘墓虎" in ZHIZHI[9]  # ¶10: the 干上神 戌 rides 白虎
    assert f"{SERVER}concept/general/baihu.html" in links
    png = fetch(app, url("/reading/liuren.png", GUIWEI_4))
    assert png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png.content[16:24])
    assert (width, height) == (2 * int(root.get("width")), 2 * int(root.get("height")))


# ── kg reading --from ────────────────────────────────────────────────────────────────────────


def test_from_a_record_on_the_same_graph(record: dict, built_graph: Path, tmp_path: Path) -> None:
    saved = tmp_path / "reading.json"
    saved.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["reading", "liuyao", "--from", str(saved), "--graph", str(built_graph), "--format", "record"]
    )
    assert result.exit_code == 0, result.output
    assert (
        result.stderr.startswith("the same graph as the record") and "the same rules apply" in result.stderr
    )
    assert json.loads(result.stdout) == record


def test_from_a_record_of_another_graph_lists_what_changed(
    record: dict, built_graph: Path, tmp_path: Path
) -> None:
    old = dict(record)
    old["graph"] = record["graph"] | {"sha256": "0" * 64}
    west = next(r for r in record["rules"] if r["rule_id"] == "yiyin.qianyi.west")
    gone = west | {
        "rule": str(DK) + "rule/yiyin.qianyi.gone",
        "rule_id": "yiyin.qianyi.gone",
        "wording": "舊斷",
    }
    old["rules"] = [r for r in record["rules"] if r is not west] + [gone]
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["reading", "liuyao", "--from", str(saved), "--graph", str(built_graph)]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("the graph has changed since the record (sha256 000000000000 → ")
    assert "1 rules added, 1 removed" in result.stderr
    assert "+ yiyin.qianyi.west [applies] 正西吉 (because S = 五爻 子孫丁酉金)" in result.stderr
    assert "− yiyin.qianyi.gone [applies] 舊斷" in result.stderr
    assert "正西吉" in result.stdout


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ('{"record": "other/9"}', [], "not a divkg-reading/1 record"),
        ("not json", [], "not a reading record"),
        (None, ["--topic", "遷移"], "do not also give --topic"),
        (None, ["--lines", "977778"], "do not also give --lines"),
    ],
)
def test_from_refuses_what_it_cannot_cast(record: dict, tmp_path: Path, content, args, message) -> None:
    saved = tmp_path / "r.json"
    saved.write_text(content if content is not None else json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["reading", "liuyao", "--from", str(saved), *args])
    assert result.exit_code == 2 and message in result.output
    other = CliRunner().invoke(main, ["reading", "liuren", "--from", str(saved)])
    assert other.exit_code == 2
    if content is None:
        assert "is a record of liuyao: run kg reading liuyao --from" in other.output


def test_reading_needs_a_topic_or_a_record() -> None:
    message = cli_error("reading", "liuyao", "--pillars", A[0], "--lines", A[1])
    assert message == "give the topic (--topic 遷移), or a saved record (--from FILE)"
