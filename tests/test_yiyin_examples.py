"""《易隱》〈遷移占〉 worked examples (¶60 夬之大過, ¶62 豫之小過) as regression readings.

Each example is cast through kg.liuyao (the charts are checked line by line in test_liuyao_examples.py and
docs/liuyao-doctrine.md §3.1) and run through kg.match.retrieve on a graph built from the real rule files.
Every verdict the text gives the example (the 'e' units of docs/encoding-inventory.md Appendix A) must be among
the applicable rules, with the bindings the text points to; the verdicts of the other example, which
contradict or do not concern this chart, must not be.

The graph: the session's build of the repository's rules (tests/conftest.py).
"""

from __future__ import annotations

import pytest

from kg.liuyao.chart import chart_from_inputs
from kg.liuyao.facts import chart_graph, reading_iri
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary


@pytest.fixture(scope="module")
def kg(built_graph) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


def reading(kg: KnowledgeGraph, pillars: str, lines: str, status: str | None = None) -> list[Applicable]:
    """The rules that apply to the cast (``kg reading liuyao --pillars … --lines … --topic 遷移``)."""
    chart = chart_from_inputs(None, pillars, lines, None, None, None)
    topic = vocabulary().topic("遷移")
    facts = chart_graph(chart, reading_iri(chart), topic, {"status": status} if status else None)
    return retrieve(kg, Reading(facts), str(topic))


def applying(results: list[Applicable]) -> dict[str, list[Applicable]]:
    found: dict[str, list[Applicable]] = {}
    for a in results:
        if a.status == "applies":
            found.setdefault(a.rule_id, []).append(a)
    return found


# ── Example A (¶60): 庚寅年戊寅月甲寅旬癸亥日, 占遷移, 夬之大過 (初九 moves) ───────────────────────────
A = ("庚寅 戊寅 癸亥", "977778")

# rule id → (the text's verdict, the bindings the text points to, as chart labels)
A_VERDICTS = {
    "yiyin.qianyi.west": ("正西吉", {"S": "五爻 子孫丁酉金"}),
    "yiyin.qianyi.south-fire": ("南方大忌", {"S": "五爻 子孫丁酉金"}),
    "yiyin.qianyi.ghost-yin": ("東北莫居", {"G": "二爻 官鬼甲寅木"}),
    "yiyin.qianyi.earth-brothers": ("土雖生金，終嫌兄弟", {"S": "五爻 子孫丁酉金"}),
    "yiyin.qianyi.tomb-northeast": ("丑為世墓…東北，尤不宜居", {"S": "五爻 子孫丁酉金"}),
    "yiyin.qianyi.harm-northwest": ("戌為世害，西北…尤不宜居", {"S": "五爻 子孫丁酉金"}),
    "yiyin.qianyi.north-wealth": ("北雖財方，化兄受克，總不吉", {"W": "初爻 妻財甲子水"}),
}

# ── Example B (¶62): 庚寅年庚辰月甲寅旬丁巳日, 占遷移, 豫之小過 (六三 moves; no querent status given) ────────
B = ("庚寅 庚辰 丁巳", "886788")

B_VERDICTS = {
    "yiyin.qianyi.wood-east": ("不利東遷", {"S": "初爻 妻財乙未土", "W": "三爻 兄弟乙卯木"}),
    "yiyin.qianyi.earth-southeast": ("豈知土絕在巳，東南不宜", {"S": "初爻 妻財乙未土"}),
    "yiyin.qianyi.xu-northwest": ("西北難居", {"S": "初爻 妻財乙未土", "F": "上爻 妻財庚戌土"}),
    "yiyin.qianyi.ghost-shen": ("西南尤忌", {"G": "五爻 官鬼庚申金"}),
    "yiyin.qianyi.south-zisun": ("宜徙正南", {"Z": "四爻 子孫庚午火"}),
}


def _check_verdicts(found: dict[str, list[Applicable]], verdicts: dict) -> None:
    for rule_id, (wording, bound) in verdicts.items():
        assert rule_id in found, f"{rule_id} ({wording}) does not apply"
        hits = found[rule_id]
        assert all(a.wording == wording for a in hits)
        assert any(all(a.binding_labels.get(var) == label for var, label in bound.items()) for a in hits), (
            f"{rule_id}: bindings {[a.binding_labels for a in hits]}, expected {bound}"
        )
        assert all(a.kind == "judgement" for a in hits)


def test_example_a_verdicts(kg):
    """¶60: every verdict of 夬之大過 applies, bound to the lines the text names."""
    _check_verdicts(applying(reading(kg, *A)), A_VERDICTS)


def test_example_a_polarities(kg):
    found = applying(reading(kg, *A))
    assert found["yiyin.qianyi.west"][0].polarity == "吉"
    for rule_id in set(A_VERDICTS) - {"yiyin.qianyi.west"}:
        assert found[rule_id][0].polarity == "凶", rule_id


def test_example_a_contrary_verdicts_absent(kg):
    """Nothing of example B's verdicts fires on A: A's 世 is Metal 酉, not Earth 未; no 子孫 on 午, no 官鬼 on 申;
    the moving line (初九 妻財甲子水) is Water and does not overcome the 世."""
    found = applying(reading(kg, *A))
    assert not set(B_VERDICTS) & set(found)
    # and no verdict of a direction the text rejects turns favourable: the only 吉 direction rule is 正西
    favourable = {
        r for r, hits in found.items() if r.startswith("yiyin.qianyi.") and hits[0].polarity == "吉"
    }
    assert "yiyin.qianyi.south-zisun" not in favourable
    assert "yiyin.qianyi.west" in favourable


def test_example_b_verdicts(kg):
    """¶62: every verdict of 豫之小過 applies, bound to the lines the text names."""
    _check_verdicts(applying(reading(kg, *B)), B_VERDICTS)


def test_example_b_polarities(kg):
    found = applying(reading(kg, *B))
    assert found["yiyin.qianyi.south-zisun"][0].polarity == "吉"
    for rule_id in set(B_VERDICTS) - {"yiyin.qianyi.south-zisun"}:
        assert found[rule_id][0].polarity == "凶", rule_id


def test_example_b_refuted_inference_is_not_a_verdict(kg):
    """土賴火生，宜居巳上 is refuted by the next sentence (豈知土絕在巳，東南不宜): no rule recommends 巳 or the
    south-east; the rule citing both sentences judges the south-east unfit."""
    results = reading(kg, *B)
    for a in results:
        assert "宜居巳上" not in (a.wording or ""), a.rule_id
    (southeast,) = applying(results)["yiyin.qianyi.earth-southeast"]
    assert southeast.polarity == "凶"
    assert southeast.quote is not None and "東南不宜" in southeast.quote


def test_example_b_contrary_verdicts_absent(kg):
    """Nothing of example A's verdicts fires on B: B's 世 is Earth 未, not the Metal 子孫 on 酉; its 官鬼 is on 申,
    not 寅; its moving line is 兄弟乙卯木, not a 妻財 on 子."""
    found = applying(reading(kg, *B))
    assert not set(A_VERDICTS) & set(found)


def test_examples_with_a_querent_status(kg):
    """The text gives no status; a status adds the 未住 definitions (人, 宅) but changes no example verdict."""
    for cast, verdicts in ((A, A_VERDICTS), (B, B_VERDICTS)):
        for status in ("未遷", "已遷"):
            _check_verdicts(applying(reading(kg, *cast, status=status)), verdicts)


def test_house_rules_need_the_querent_not_yet_moved_in(kg):
    """¶54 defines 宅 (line 5) and 人 (line 2) only 未住者; ¶56 龍值財福臨宅旺動者，宜遷 then fires on a 戊 day
    (青龍 on line 5) whose line 5 is a strong moving 子孫 — a chart the random witness readings rarely hit."""
    cast = ("庚寅 戊寅 戊子", "777897")  # 庚 year: the 寅 month is 戊寅 (五虎遁)
    found = applying(reading(kg, *cast, status="未遷"))
    (hit,) = found["yiyin.qianyi.dragon-house"]
    assert hit.binding_labels == {"H": "五爻 子孫辛巳火"}
    assert hit.polarity == "吉"
    for status in (None, "已遷"):
        assert "yiyin.qianyi.dragon-house" not in applying(reading(kg, *cast, status=status))
