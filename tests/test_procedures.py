"""Procedures of the texts as outcome parameters: the figures the passages themselves work out."""

import textwrap

import pyoxigraph as ox
import pytest
from rdflib import Graph

from kg.build import build
from kg.ganzhi import Branch
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.procedures import PROCEDURES, XIANTIAN

SPIRIT = """
@prefix dk: <https://w3id.org/divkg/> .
@prefix br: <https://w3id.org/divkg/concept/branch/> .
@prefix state: <https://w3id.org/divkg/concept/state/> .
@prefix topic: <https://w3id.org/divkg/concept/topic/> .
<https://w3id.org/divkg/reading/p> a dk:Reading ; dk:topic topic:taowang ; dk:spirit <https://w3id.org/divkg/reading/p/s> .
<https://w3id.org/divkg/reading/p/s> dk:branch br:{branch} ; dk:seat br:{seat} ; dk:seasonalState state:{state} .
"""


def store(branch: str, seat: str, state: str) -> ox.Store:
    s = ox.Store()
    s.load(SPIRIT.format(branch=branch, seat=seat, state=state).encode(), format=ox.RdfFormat.TURTLE)
    return s


def test_xiantian_numbers_fit_the_worked_figures():
    # ¶12 如子午則二九十八 ; ¶76 假令戌加丑位上，五八十三
    assert XIANTIAN[Branch.ZI] == XIANTIAN[Branch.WU] == 9
    assert XIANTIAN[Branch.XU] + XIANTIAN[Branch.CHOU] == 13


@pytest.mark.parametrize(("state", "expected"), [("xiu", "13里"), ("wang", "26里"), ("si", "6.5里")])
def test_li_distance_of_xu_on_chou(state, expected):
    """¶76: 戌加丑 = 五八十三 里; 旺相倍因囚死半，休當本數."""
    spirit = ox.NamedNode("https://w3id.org/divkg/reading/p/s")
    assert PROCEDURES["li"].run(store("xu", "chou", state), spirit).startswith(expected)


def test_amount_of_zi_on_wu():
    spirit = ox.NamedNode("https://w3id.org/divkg/reading/p/s")
    assert PROCEDURES["amount"].run(store("zi", "wu", "xiu"), spirit) == "18"


def test_a_rule_reports_a_procedure_parameter(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "t.yaml").write_text(
        textwrap.dedent("""
        work: yinhezhao
        rules:
          - id: t.li
            para: 76
            quote: 假令戌加丑位上，五八十三不謬妄。
            vars: {S: spirit}
            when: [S.branch 戌]
            then: {polarity: 中, zh: 五八十三, en: distance, param: {distance: li(S)}}
        """),
        encoding="utf-8",
    )
    build(tmp_path / "out", rules)
    kg = KnowledgeGraph.load(tmp_path / "out" / "kg.nq")
    chart = Graph().parse(data=SPIRIT.format(branch="xu", seat="chou", state="xiu"), format="turtle")
    (found,) = retrieve(kg, Reading(chart))
    assert found.parameters["distance"].startswith("13里")
    assert "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:76" in found.parameters["distance"]
