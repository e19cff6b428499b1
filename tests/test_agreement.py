"""``kg agreement``: two encodings of sampled sentences compared by their verdicts on generated readings."""

import json
import textwrap

import pytest
from click.testing import CliRunner

from kg.agreement import chart_agreement, summary
from kg.cli import main

MAIN = """
work: yiyin
rules:
  - id: yiyin.t.shi-moves
    para: 58
    quote: 世動逢沖者，欲移又止也。
    vars: {S: line, T: line}
    when: [S.role 世, S.moving, T.role 應]
    then: {polarity: 中, zh: 欲移又止, en: the 世 moves (test rule)}
  - id: yiyin.t.clash
    para: 56
    quote: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。
    vars: {P: primary}
    when: [P.class 六沖]
    then: {polarity: 吉, zh: 宜遷, en: move (test rule)}
  - id: yiyin.t.flux                # two sentences, a case for each
    source:
      - {para: 58, quote: 卦沖化合，遷後吉也。}
      - {para: 58, quote: 卦合化沖，遷居不穩也。}
    vars: {P: primary}
    cases:
      - id: settles
        when: [P.class 六沖]
        then: {polarity: 吉, zh: 遷後吉, en: settles (test rule)}
      - id: unsettled
        when: [P.class 六合]
        then: {polarity: 凶, zh: 遷居不穩, en: unsettled (test rule)}
"""

BLIND = """
work: yiyin
rules:
  - id: blind9.yiyin.58.1           # the same conditions but one that holds on every chart
    para: 58
    quote: 世動逢沖者，欲移又止也。
    vars: {A: line}
    when: [A.moving, A.role 世]
    then: {polarity: 中, zh: 欲移又止, en: the 世 moves (blind)}
  - id: blind9.yiyin.56.2           # the same conditions, another polarity
    para: 56
    quote: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。
    vars: {P: primary}
    when: [P.class 六沖]
    then: {polarity: 中, zh: 宜遷, en: move (blind)}
  - id: blind9.yiyin.58.3
    para: 58
    quote: 卦沖化合，遷後吉也。
    vars: {P: primary}
    when: [P.class 六沖]
    then: {polarity: 吉, zh: 遷後吉, en: settles (blind)}
  - id: blind9.yiyin.58.4
    para: 58
    quote: 卦合化沖，遷居不穩也。
    vars: {P: primary}
    when: [P.class 六合]
    then: {polarity: 凶, zh: 遷居不穩, en: unsettled (blind)}
"""

SAMPLE = """
work: yiyin
seed: 1
round: 1
sample:
  - {urn: "urn:cts:divkg:yiyin.juan4.zh:56.6", para: 56, kind: sentence, text: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。}
  - {urn: "urn:cts:divkg:yiyin.juan4.zh:58.9", para: 58, kind: sentence, text: 世動逢合者，欲移被阻也。}
  - {urn: "urn:cts:divkg:yiyin.juan4.zh:58.10", para: 58, kind: sentence, text: 世動逢沖者，欲移又止也。}
  - {urn: "urn:cts:divkg:yiyin.juan4.zh:58.3", para: 58, kind: sentence, text: 卦沖化合，遷後吉也。}
  - {urn: "urn:cts:divkg:yiyin.juan4.zh:58.4", para: 58, kind: sentence, text: 卦合化沖，遷居不穩也。}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("agreement")
    (root / "rules").mkdir()
    (root / "rules" / "t.yaml").write_text(textwrap.dedent(MAIN), encoding="utf-8")
    (root / "blind.yaml").write_text(textwrap.dedent(BLIND), encoding="utf-8")
    (root / "sample.yaml").write_text(textwrap.dedent(SAMPLE), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def results(files):
    return chart_agreement(files / "sample.yaml", files / "blind.yaml", files / "rules", readings=120)


def test_conditions_equal_on_charts_agree_on_every_reading(results):
    """Other names, another order, and a condition every chart meets (a 應 line) left out."""
    moves = results[2]
    assert (moves.main, moves.blind) == (["yiyin.t.shi-moves"], ["blind9.yiyin.58.1"])
    assert moves.status == "agree" and moves.spoken == moves.same > 10


def test_another_polarity_differs_where_the_rules_fire(results):
    clash = results[0]
    assert clash.status == "differ" and clash.same == 0 and clash.spoken > 0
    assert clash.verdicts == (["吉"], ["中"])
    assert clash.example and "--lines" in clash.example


def test_a_case_answers_for_the_sentence_its_words_are_in(results):
    """The two cases of one rule share its two sentences; each is compared on its own."""
    settles, unsettled = results[3], results[4]
    assert (settles.main, unsettled.main) == (["yiyin.t.flux.settles"], ["yiyin.t.flux.unsettled"])
    assert settles.status == unsettled.status == "agree"


def test_a_sentence_neither_side_encodes_is_silent(results):
    assert (results[1].main, results[1].blind, results[1].status) == ([], [], "silent")
    figures = summary(results)
    assert (figures["agree"], figures["differ"], figures["silent"], figures["agree_pct"]) == (3, 1, 1, 75.0)


def test_json_names_the_differing_reading(results):
    clash = json.loads(json.dumps(results[0].as_dict(), ensure_ascii=False))
    assert clash["status"] == "differ" and clash["verdicts"] == {"main": ["吉"], "blind": ["中"]}


def test_command_refuses_a_sample_of_no_work(files):
    (files / "bad.yaml").write_text("work: nowhere\nsample: []\n", encoding="utf-8")
    args = ["agreement", "--sample", str(files / "bad.yaml"), "--blind", str(files / "blind.yaml")]
    bad = CliRunner().invoke(main, args)
    assert bad.exit_code == 2 and "unknown work 'nowhere'" in bad.output
