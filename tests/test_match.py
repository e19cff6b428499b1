"""Retrieval on hand-written charts: every construct, positive and negative, both engines."""

import copy
import marshal
import random
import shutil
import textwrap
from dataclasses import replace

import pytest
from rdflib import Graph

import kg.liuren.facts as liuren_facts
import kg.liuyao.facts as liuyao_facts
import kg.match as match
from kg.build import build
from kg.calendar import Pillars
from kg.corpus import works
from kg.errors import KgError
from kg.ganzhi import Branch, GanZhi
from kg.liuren import chart_from_inputs
from kg.liuyao.chart import cast_chart
from kg.match import (
    Applicable,
    KnowledgeGraph,
    Reading,
    _mark_overridden,
    is_candidate,
    retrieve,
    retrieve_topics,
)

RULES = """
work: yiyin
rules:
  - id: t.leak                      # a join on the shared variable L
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父母, H.under L, H.element 水, H.relative 官鬼]
    then: {polarity: 凶, zh: 棟必漏, en: leak}
  - id: t.under                     # a relation alone
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [H.under L]
    then: {polarity: 中, zh: 伏, en: hidden under a line (test rule)}
  - id: t.apart                     # filters in a branch on a variable bound outside it
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {Z: line, S: line}
    when:
      - Z.position 2
      - any: [[S.role 世, S != Z], [S.role 應, {not: [S.bing Z]}]]
    then: {polarity: 中, zh: 伏, en: the 世 apart from line 2 (test rule)}
  - id: t.yongshen                  # a definition assigning a role for 棟梁
    para: 2
    quote: 以六爻木父為用也。
    kind: definition
    vars: {L: line}
    when: [L.position 6, L.element 木, L.relative 父母]
    then: {assert: [L.role 用神], en: use-spirit}
  - id: t.pillar                    # a judgement on the role
    para: 2
    quote: 陽為棟柱，陰為棟樑也。
    vars: {L: line}
    when: [L.role 用神, L.yinyang 陽]
    then: {polarity: 中, zh: 陽為棟柱, en: pillar}
  - id: t.move                      # any
    para: 56
    quote: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。
    vars: {P: primary, S: line}
    when:
      - any: [[P.class 六沖], [S.role 世, S.position 5]]
    then: {polarity: 吉, zh: 宜遷, en: move}
  - id: t.house                     # any whose branch has a condition of several values
    para: 56
    quote: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。
    vars: {P: primary}
    when:
      - any: [[P.inner 震|巽, P.outer 離], [P.inner 坎]]
    then: {polarity: 中, zh: 宅, en: house (test rule)}
  - id: t.still                     # not
    para: 58
    quote: 世動逢合者，欲移被阻也。
    topic: 家宅
    vars: {S: line}
    when: [S.role 世, {not: [S.moving]}]
    then: {polarity: 中, zh: 世不動, en: not moving (test rule)}
  - id: t.earth                     # count
    para: 2
    quote: 三土並見，創造將興而子亡也。
    vars: {}
    when: [{count: E, type: line, where: [E.element 土], min: 3}]
    then: {polarity: 吉凶參半, zh: 創造將興而子亡, en: three earths}
  - id: t.unless                    # an exception to t.leak
    para: 30
    quote: 動變則非也。
    kind: exception
    topic: 家宅
    overrides: t.leak
    vars: {L: line}
    when: [L.relative 父母, L.moving]
    then: {polarity: 中, zh: 非也, en: not so}
  - id: t.but                       # an exception to the exception t.unless
    para: 30
    quote: 動變則非也。
    kind: exception
    topic: 家宅
    overrides: t.unless
    vars: {L: line}
    when: [L.relative 父母, L.moving, L.void]
    then: {polarity: 凶, zh: 非也, en: not so after all (test rule)}
  - id: t.unless-cai                # an exception to two rules, sharing no variable with them
    para: 30
    quote: 動變則非也。
    kind: exception
    topic: 家宅
    overrides: [t.leak, t.under]
    vars: {M: line}
    when: [M.relative 妻財, M.moving]
    then: {polarity: 中, zh: 非也, en: not so (test rule)}
"""

PREFIXES = """
@prefix dk: <https://w3id.org/divkg/> .
@prefix rel: <https://w3id.org/divkg/concept/relative/> .
@prefix el: <https://w3id.org/divkg/concept/element/> .
@prefix yy: <https://w3id.org/divkg/concept/yinyang/> .
@prefix role: <https://w3id.org/divkg/concept/role/> .
@prefix hexclass: <https://w3id.org/divkg/concept/hexclass/> .
@prefix tri: <https://w3id.org/divkg/concept/trigram/> .
@prefix topic: <https://w3id.org/divkg/concept/topic/> .
@prefix : <https://w3id.org/divkg/reading/t/> .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    root = tmp_path_factory.mktemp("kg")
    (root / "rules").mkdir()
    (root / "rules" / "t.yaml").write_text(textwrap.dedent(RULES), encoding="utf-8")
    build(root / "out", root / "rules")
    return KnowledgeGraph.load(root / "out" / "kg.nq")


def chart(facts: str, topic: str = "dongliang") -> Reading:
    text = (
        PREFIXES
        + f"<https://w3id.org/divkg/reading/t> a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:{topic} .\n"
        + facts
    )
    return Reading(Graph().parse(data=text, format="turtle"))


def fired(kg, reading, engine="oxigraph", topic=None):
    return {(a.rule_id, a.status) for a in retrieve(kg, reading, topic, engine)}


LEAK = """
<https://w3id.org/divkg/reading/t> dk:line :l2 ; dk:hiddenLine :h2 .
:l2 dk:relative rel:fumu ; dk:moving false .
:h2 dk:under :l2 ; dk:element el:water ; dk:relative rel:guangui .
"""


def test_join_on_shared_variable(kg):
    assert ("t.leak", "applies") in fired(kg, chart(LEAK))
    # the water ghost hidden under another line does not make the 父母 line leak
    moved = LEAK.replace(":h2 dk:under :l2", ":h2 dk:under :l3") + ":l3 dk:relative rel:xiongdi .\n"
    assert not any(
        r == "t.leak" for r, _ in fired(kg, chart(moved + "<https://w3id.org/divkg/reading/t> dk:line :l3 ."))
    )


def test_exception_overrides(kg):
    moving = LEAK.replace("dk:moving false", "dk:moving true")
    assert {("t.leak", "overridden"), ("t.unless", "applies")} <= fired(kg, chart(moving))


TWO_LEAKS = """
<https://w3id.org/divkg/reading/t> dk:line :l2, :l4 ; dk:hiddenLine :h2, :h4 .
:l2 dk:relative rel:fumu ; dk:moving true .
:l4 dk:relative rel:fumu ; dk:moving false .
:h2 dk:under :l2 ; dk:element el:water ; dk:relative rel:guangui .
:h4 dk:under :l4 ; dk:element el:water ; dk:relative rel:guangui .
"""


def leak_status(kg, facts: str) -> dict[str, str]:
    """Status of t.leak per 父母 line it binds (the line's local name)."""
    return {
        a.bindings["L"].rsplit("/", 1)[1]: a.status
        for a in retrieve(kg, chart(facts))
        if a.rule_id == "t.leak"
    }


def test_exception_cancels_only_the_application_it_qualifies(kg):
    # 動變則非也 binds L as t.leak does: the moving 父母 line 2 is rescued, line 4 still leaks
    assert leak_status(kg, TWO_LEAKS) == {"l2": "overridden", "l4": "applies"}
    (rescued,) = [a for a in retrieve(kg, chart(TWO_LEAKS)) if a.status == "overridden"]
    assert rescued.overridden_by == ["https://w3id.org/divkg/rule/t.unless"]


def test_exception_sharing_no_variable_cancels_every_application(kg):
    cai = "<https://w3id.org/divkg/reading/t> dk:line :l5 .\n:l5 dk:relative rel:qicai ; dk:moving true .\n"
    assert leak_status(kg, TWO_LEAKS + cai) == {"l2": "overridden", "l4": "overridden"}


def test_an_exception_naming_two_rules_cancels_both(kg):
    cai = "<https://w3id.org/divkg/reading/t> dk:line :l5 .\n:l5 dk:relative rel:qicai ; dk:moving true .\n"
    under = {a.status for a in retrieve(kg, chart(TWO_LEAKS + cai)) if a.rule_id == "t.under"}
    assert under == {"overridden"}
    assert {a.status for a in retrieve(kg, chart(TWO_LEAKS)) if a.rule_id == "t.under"} == {"applies"}


def test_definition_assigns_a_role_the_judgement_uses(kg):
    beam = "<https://w3id.org/divkg/reading/t> dk:line :l6 .\n:l6 dk:position 6 ; dk:element el:wood ; dk:relative rel:fumu ; dk:yinYang yy:yang .\n"
    assert ("t.pillar", "applies") in fired(kg, chart(beam))
    assert ("t.pillar", "applies") not in fired(kg, chart(beam.replace("el:wood", "el:fire")))


def test_any(kg):
    shi5 = "<https://w3id.org/divkg/reading/t> dk:line :l5 .\n:l5 dk:role role:shi ; dk:position 5 .\n"
    clash = "<https://w3id.org/divkg/reading/t> dk:primaryHexagram :p .\n:p dk:hexClass hexclass:liuchong .\n"
    assert ("t.move", "applies") in fired(kg, chart(shi5, "qianyi"))
    assert ("t.move", "applies") in fired(kg, chart(clash, "qianyi"))
    assert ("t.move", "applies") not in fired(kg, chart(shi5.replace("position 5", "position 4"), "qianyi"))


def test_not(kg):
    still = "<https://w3id.org/divkg/reading/t> dk:line :l1 .\n:l1 dk:role role:shi ; dk:moving false .\n"
    assert ("t.still", "applies") in fired(kg, chart(still, "jiazhai"))
    assert ("t.still", "applies") not in fired(kg, chart(still.replace("false", "true"), "jiazhai"))


def test_count(kg):
    lines = "".join(
        f"<https://w3id.org/divkg/reading/t> dk:line :e{i} .\n:e{i} dk:element el:earth .\n" for i in range(3)
    )
    assert ("t.earth", "applies") in fired(kg, chart(lines))
    assert ("t.earth", "applies") not in fired(
        kg, chart(lines.replace(":e2 dk:element el:earth", ":e2 dk:element el:fire"))
    )


def test_topic_narrowing(kg):
    still = "<https://w3id.org/divkg/reading/t> dk:line :l1 .\n:l1 dk:role role:shi ; dk:moving false .\n"
    # t.still is a 家宅 rule: it applies to the narrower 棟梁 …
    assert ("t.still", "applies") in fired(kg, chart(still, "dongliang"))
    # … but a 棟梁 rule does not apply to a 家宅 reading, nor to an unrelated topic
    assert ("t.leak", "applies") not in fired(kg, chart(LEAK, "jiazhai"))
    assert ("t.still", "applies") not in fired(kg, chart(still, "qiucai"))


def test_engines_agree(kg):
    for facts, topic in ((LEAK, "dongliang"), (LEAK.replace("false", "true"), "dongliang")):
        assert fired(kg, chart(facts, topic), "oxigraph") == fired(kg, chart(facts, topic), "rdflib")


def test_result_carries_bindings_and_provenance(kg):
    (leak,) = [a for a in retrieve(kg, chart(LEAK)) if a.rule_id == "t.leak"]
    assert leak.bindings == {
        "H": "https://w3id.org/divkg/reading/t/h2",
        "L": "https://w3id.org/divkg/reading/t/l2",
    }
    assert leak.urn == "urn:cts:divkg:yiyin.juan4.zh:6.3"
    assert leak.quote == "父下伏水鬼，棟必漏也。" and leak.work_title == "易隱"
    assert leak.citation.startswith("曹九錫輯、曹璿演《易隱》卷四")


def test_unknown_topic_is_an_error(kg):
    with pytest.raises(KgError, match="unknown topic"):
        retrieve(kg, chart(LEAK), "https://w3id.org/divkg/concept/topic/nothing")


RULE = "https://w3id.org/divkg/rule/"
LINE, PRIMARY = "https://w3id.org/divkg/line", "https://w3id.org/divkg/primaryHexagram"


def test_alternatives_any_branches_and_counts_are_required(kg):
    """An ``any`` needs one branch's constant facts (dk:requiresOneOf), a count with a minimum its
    counted facts of one entity (under a name of its own): a reading holding none is no candidate."""
    move = kg.rules[RULE + "t.move"]
    ((liuchong, shi5),) = move.requires_one_of
    assert liuchong == {
        "P": (
            PRIMARY,
            frozenset(
                {("https://w3id.org/divkg/hexClass", "<https://w3id.org/divkg/concept/hexclass/liuchong>")}
            ),
        )
    }
    assert shi5["S"][1] == {
        ("https://w3id.org/divkg/role", "<https://w3id.org/divkg/concept/role/shi>"),
        ("https://w3id.org/divkg/position", "5"),
    }
    assert kg.rules[RULE + "t.earth"].requires["E#1"] == (
        LINE,
        frozenset({("https://w3id.org/divkg/element", "<https://w3id.org/divkg/concept/element/earth>")}),
    )
    shi4 = chart(
        "<https://w3id.org/divkg/reading/t> dk:line :l5 .\n:l5 dk:role role:shi ; dk:position 4 .\n", "qianyi"
    )
    shi5_chart = chart(
        "<https://w3id.org/divkg/reading/t> dk:line :l5 .\n:l5 dk:role role:shi ; dk:position 5 .\n", "qianyi"
    )
    assert not is_candidate(move, *shi4.index(kg.relations))
    assert is_candidate(move, *shi5_chart.index(kg.relations))
    assert not is_candidate(kg.rules[RULE + "t.earth"], *shi5_chart.index(kg.relations))


def test_facts_under_not_are_not_required(kg):
    still = kg.rules[RULE + "t.still"]
    assert still.requires_one_of == ()
    assert still.requires["S"][1] == {
        ("https://w3id.org/divkg/role", "<https://w3id.org/divkg/concept/role/shi>")
    }


def test_a_relation_requires_an_entity_of_the_other_end(kg):
    """H.under L needs a hidden line under some line: the reading gives the hidden line the fact
    (dk:under, "@" + dk:line)."""
    leak = kg.rules[RULE + "t.leak"]
    assert ("https://w3id.org/divkg/under", "@" + LINE) in leak.requires["H"][1]
    assert is_candidate(leak, *chart(LEAK).index(kg.relations))
    unattached = LEAK.replace(":h2 dk:under :l2 ;", ":h2")
    assert not is_candidate(leak, *chart(unattached).index(kg.relations))


def test_a_relation_to_an_entity_with_no_facts_of_its_own(kg):
    """The line the hidden line lies under is bound by the reading alone (a hand-written chart):
    the relation still counts."""
    bare = "<https://w3id.org/divkg/reading/t> dk:line :l2 ; dk:hiddenLine :h2 .\n:h2 dk:under :l2 .\n"
    assert ("t.under", "applies") in fired(kg, chart(bare))


def _generated_charts(count: int) -> list:
    """Chart facts of ``count`` seeded random casts and as many random lessons."""
    rng = random.Random(20261201)
    charts = []
    for _ in range(count):
        pillars = Pillars(*(GanZhi.from_index(rng.randrange(60)) for _ in range(4)))
        cast = cast_chart(pillars, tuple(rng.choice((6, 7, 8, 9)) for _ in range(6)))
        charts.append(liuyao_facts.chart_facts(cast, liuyao_facts.reading_iri(cast)))
        lesson = chart_from_inputs(
            day=GanZhi.from_index(rng.randrange(60)),
            hour=Branch(rng.randrange(12)),
            general=Branch(rng.randrange(12)),
        )
        charts.append(liuren_facts.chart_facts(lesson, liuren_facts.reading_iri(lesson)))
    return charts


def _system_topics(kg: KnowledgeGraph) -> dict[str, list[str]]:
    system = {w.id: w.system for w in works().values()}
    topics: dict[str, set[str]] = {"liuyao": set(), "liuren": set()}
    for rule in kg.rules.values():
        topics[system[rule.iri.removeprefix(RULE).split(".")[0]]].add(rule.topic)
    return {s: sorted(t) for s, t in topics.items()}


def _asked(topics: dict[str, list[str]], reading: Reading) -> list[str]:
    return topics["liuren" if "/liuren-" in reading.iri.value else "liuyao"]


def test_candidate_alternatives_change_no_result(built_graph):
    """Alternatives, relations and counted facts only skip queries that would find nothing: on
    generated charts of both systems, every topic of the built graph gives the same results with
    the constant facts of top-level atoms alone."""
    full = KnowledgeGraph.load(built_graph)
    plain = copy.copy(full)
    plain.rules = {
        iri: replace(
            rule,
            requires={
                var: (binding, frozenset((p, v) for p, v in facts if not v.startswith("@")))
                for var, (binding, facts) in rule.requires.items()
                if "#" not in var
            },
            requires_one_of=(),
        )
        for iri, rule in full.rules.items()
    }
    plain._index_rules()
    topics = _system_topics(full)
    skipped = 0
    for facts in _generated_charts(15):
        reading = Reading(facts)
        stats: dict[str, float] = {}
        found = retrieve_topics(full, reading, _asked(topics, reading), stats=stats)
        before = {}
        expected = retrieve_topics(plain, Reading(facts), _asked(topics, reading), stats=before)
        assert {t: [a.as_dict() for a in v] for t, v in found.items()} == {
            t: [a.as_dict() for a in v] for t, v in expected.items()
        }
        skipped += before["candidates"] - stats["candidates"]
    assert skipped > 0


def test_queries_run_without_the_reading_and_system_patterns(built_graph, monkeypatch):
    """Retrieval drops the patterns ``?reading a dk:Reading`` and ``?reading dk:system …`` from the
    queries it runs (every rule requires its system, and a store holds one reading): on generated
    charts of both systems, every topic gives what the compiled queries give in full."""
    kg = KnowledgeGraph.load(built_graph)
    for text in kg.templates.values():
        anchors = ("  ?reading a dk:Reading .", "  ?reading dk:system ")
        kept = [line for line in text.splitlines() if not line.startswith(anchors)]
        assert match.unanchored(text).splitlines() == kept
        assert len(kept) == len(text.splitlines()) - 2
    topics = _system_topics(kg)
    charts = _generated_charts(6)
    found = [retrieve_topics(kg, Reading(f), _asked(topics, Reading(f))) for f in charts]
    monkeypatch.setattr(match, "unanchored", lambda query: query)
    expected = [retrieve_topics(kg, Reading(f), _asked(topics, Reading(f))) for f in charts]
    assert [{t: [a.as_dict() for a in v] for t, v in by.items()} for by in found] == [
        {t: [a.as_dict() for a in v] for t, v in by.items()} for by in expected
    ]
    assert any(any(by.values()) for by in found)


def test_rules_of_one_template_find_what_their_own_queries_find(built_graph):
    """Rules of one template run as one query, their constants in a VALUES block, only where that
    finds what each rule's own query finds. 世在外卦 of 《黃金策》 宅 tests its last constant (a line
    position) in a NOT EXISTS of a UNION branch, where a VALUES binding is not yet seen: run as one
    query, six rules differing in that constant alone would all lose that branch's solutions."""
    kg = KnowledgeGraph.load(built_graph)
    rule = kg.rules[RULE + "huangjince.jiazhai.shi-outer-house.still"]
    *head, _ = rule.arguments.split()
    variants = [
        replace(rule, iri=f"{rule.iri}/at/{p}", arguments=" ".join([*head, str(p)])) for p in range(1, 7)
    ]
    kg.rules.update({v.iri: v for v in variants})
    assert not match.batchable(match.unanchored(kg.templates[rule.template]))
    rng = random.Random(20261203)
    second_branch = 0
    for _ in range(300):
        pillars = Pillars(*(GanZhi.from_index(rng.randrange(60)) for _ in range(4)))
        cast = cast_chart(pillars, tuple(rng.choice((6, 7, 8, 9)) for _ in range(6)))
        reading = Reading(liuyao_facts.chart_facts(cast, liuyao_facts.reading_iri(cast)))
        retrieve(kg, reading, rule.topic)  # the topic's definitions give the 宅 its role

        def found(rules: list, reading: Reading = reading) -> list:
            runs = match._run_template(kg, reading, rule.template, rules, "oxigraph")
            return sorted((r.iri, sorted(row.items())) for r, row in runs)

        alone = sorted(x for v in variants for x in found([v]))
        assert found(variants) == alone
        second_branch += sum("W" in dict(row) for _, row in alone)
    assert second_branch > 0


def test_a_rule_without_its_system_is_refused(built_graph):
    kg = KnowledgeGraph.load(built_graph)
    iri, rule = next((i, r) for i, r in kg.rules.items() if r.template)
    kg.rules[iri] = replace(rule, requires={v: f for v, f in rule.requires.items() if v != "reading"})
    with pytest.raises(KgError, match="does not require its chart system"):
        kg._index_rules()


def test_alternatives_of_a_branch_with_several_values_are_combined(kg):
    """[P.inner 震|巽, P.outer 離] needs 震 and 離, or 巽 and 離, on the one hexagram."""
    house = kg.rules[RULE + "t.house"]
    trigram = "<https://w3id.org/divkg/concept/trigram/{}>".format
    inner, outer = "https://w3id.org/divkg/innerTrigram", "https://w3id.org/divkg/outerTrigram"
    ((*pairs, kan),) = house.requires_one_of
    assert [alternative["P"][1] for alternative in pairs] == [
        {(inner, trigram("zhen")), (outer, trigram("li"))},
        {(inner, trigram("xun")), (outer, trigram("li"))},
    ]
    assert kan["P"][1] == {(inner, trigram("kan"))}
    hexagram = "<https://w3id.org/divkg/reading/t> dk:primaryHexagram :p .\n:p dk:innerTrigram tri:{} ; dk:outerTrigram tri:{} .\n"
    assert is_candidate(house, *chart(hexagram.format("xun", "li")).index(kg.relations))
    assert not is_candidate(house, *chart(hexagram.format("zhen", "kan")).index(kg.relations))
    assert ("t.house", "applies") in fired(kg, chart(hexagram.format("kan", "kan"), "qianyi"))


def test_a_filter_in_a_branch_sees_a_variable_bound_outside_it(kg):
    """S != Z and not [S.bing Z] inside an ``any`` branch, Z bound before it: the branch binds Z
    again, since a filter there sees the branch's own variables only."""
    r = "<https://w3id.org/divkg/reading/t> dk:line :l2 , :l4 .\n:l2 dk:position 2 .\n"
    assert ("t.apart", "applies") in fired(kg, chart(r + ":l4 dk:role role:shi .\n"))
    assert ("t.apart", "applies") not in fired(kg, chart(r + ":l2 dk:role role:shi .\n"))
    assert ("t.apart", "applies") in fired(kg, chart(r + ":l4 dk:role role:ying .\n"))
    assert ("t.apart", "applies") not in fired(kg, chart(r + ":l4 dk:role role:ying ; dk:bing :l2 .\n"))


def test_a_chain_of_exceptions_settles_in_any_order(kg):
    """t.but qualifies t.unless, which qualifies t.leak: t.unless is withdrawn, so t.leak stands,
    whichever application comes first."""
    line = {"L": "https://w3id.org/divkg/reading/t/l2"}
    for order in ((0, 1, 2), (2, 1, 0), (1, 0, 2)):
        made = [
            Applicable(
                RULE + "t.leak",
                "t.leak",
                "judgement",
                "applies",
                line | {"H": "https://w3id.org/divkg/reading/t/h2"},
            ),
            Applicable(RULE + "t.unless", "t.unless", "exception", "applies", dict(line)),
            Applicable(RULE + "t.but", "t.but", "exception", "applies", dict(line)),
        ]
        results = [made[i] for i in order]
        _mark_overridden(kg, results)
        assert [(a.rule_id, a.status) for a in made] == [
            ("t.leak", "applies"),
            ("t.unless", "overridden"),
            ("t.but", "applies"),
        ], order


def _state(kg: KnowledgeGraph) -> dict:
    """What retrieval reads from a knowledge graph."""
    return {
        "rules": kg.rules,
        "templates": kg.templates,
        "joinable": kg.joinable,
        "broader": kg.broader,
        "topics": kg.topics,
        "provenance": kg.provenance,
        "quotes": kg.quotes,
        "parameters": dict(kg.parameters),
        "labels": kg.concept_labels(),
        "relations": kg.relations,
        "index": kg.index,
        "unindexed": kg.unindexed,
        "definitions": kg.definitions,
    }


def test_the_build_index_holds_what_the_graph_gives(built_graph, tmp_path):
    """Loaded from the build's kg.index.marshal, the knowledge graph holds what the same kg.nq gives
    without it (loaded into Oxigraph, its rules, provenance and labels queried and indexed)."""
    cached = KnowledgeGraph.load(built_graph)
    assert cached._store is None  # the index alone: the graph is not loaded
    alone = tmp_path / "kg.nq"
    shutil.copyfile(built_graph, alone)
    queried = KnowledgeGraph.load(alone)
    assert queried._store is not None
    cached.load_provenance()
    queried.load_provenance()
    assert _state(cached) == _state(queried)
    assert cached.rules


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data | {"python": "cpython-27 marshal 2"},
        lambda data: data | {"format": "divkg-index/3"},
        lambda data: data | {"graphBytes": data["graphBytes"] + 1},
        lambda data: data | {"rule_fields": data["rule_fields"][::-1]},
        lambda data: b"not marshal data",
        lambda data: marshal.dumps(data)[:1000],
        lambda data: ["a list"],
    ],
    ids=["other-python", "other-format", "other-graph", "other-fields", "garbage", "truncated", "not-a-dict"],
)
def test_an_index_not_written_for_this_graph_is_not_used(built_graph, tmp_path, spoil):
    """An index of another interpreter, layout or graph, or a damaged one, is passed over: the graph
    is loaded and queried instead, and gives the same rules."""
    shutil.copyfile(built_graph, tmp_path / "kg.nq")
    data = marshal.loads((built_graph.resolve().parent / match.INDEX_FILE).read_bytes())
    spoilt = spoil(data)
    (tmp_path / match.INDEX_FILE).write_bytes(spoilt if isinstance(spoilt, bytes) else marshal.dumps(spoilt))
    kg = KnowledgeGraph.load(tmp_path / "kg.nq")
    assert kg._store is not None
    assert kg.rules == KnowledgeGraph.load(built_graph).rules
