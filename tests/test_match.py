"""Retrieval on hand-written charts: every construct, positive and negative, both engines."""

import textwrap

import pytest
from rdflib import Graph

from kg.build import build
from kg.errors import KgError
from kg.match import KnowledgeGraph, Reading, retrieve

RULES = """
work: yiyin
rules:
  - id: t.leak                      # a join on the shared variable L
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父母, H.under L, H.element 水, H.relative 官鬼]
    then: {polarity: 凶, zh: 棟必漏, en: leak}
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
  - id: t.unless-cai                # an exception to t.leak sharing no variable with it
    para: 30
    quote: 動變則非也。
    kind: exception
    topic: 家宅
    overrides: t.leak
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
