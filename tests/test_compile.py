"""The rule compiler: what it produces, and every refusal with its message."""

import textwrap

import pytest

from kg.compile import RuleCompiler, RuleError

GOOD = """
  - id: t.leak
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父, H.under L, H.element 水, H.relative 鬼]
    then: {polarity: 凶, zh: 棟必漏, en: the roof will leak}
"""


def compile_text(tmp_path, rules: str, work: str = "yiyin", name: str = "t.yaml"):
    (tmp_path / name).write_text(f"work: {work}\nrules:\n" + textwrap.dedent(rules), encoding="utf-8")
    return RuleCompiler().compile_all(tmp_path)


def refusal(tmp_path, rules: str) -> str:
    with pytest.raises(RuleError) as exc:
        compile_text(tmp_path, rules)
    return str(exc.value)


def test_a_rule_compiles_to_a_query_with_provenance(tmp_path):
    (rule,) = compile_text(tmp_path, GOOD)
    quote = rule.quotes[0]
    assert (quote.paragraph, quote.text) == (6, "父下伏水鬼，棟必漏也。")
    assert [s.urn for s in quote.segments] == ["urn:cts:divkg:yiyin.juan4.zh:6.3"]
    assert str(rule.topic).endswith("/topic/dongliang")  # the section topic of ¶6
    assert "?H dk:under ?L ." in rule.query
    assert "?H dk:relative rel:guangui ." in rule.query  # 鬼 is an altLabel of 官鬼
    assert {str(m).rsplit("/", 1)[1] for m in rule.mentions} >= {"fumu", "guangui", "water"}
    assert rule.variables == ("H", "L")


def test_quote_not_in_paragraph(tmp_path):
    message = refusal(tmp_path, GOOD.replace("父下伏水鬼", "父下伏火鬼"))
    assert "t.yaml: rule t.leak" in message and "not found in yiyin ¶6" in message


def test_quote_not_at_its_offset(tmp_path):
    message = refusal(tmp_path, GOOD.replace("para: 6", "para: 6\n    at: 3"))
    assert "not found at ¶6 offset 3" in message and "it occurs at 42" in message


def test_quote_occurring_twice_needs_an_offset(tmp_path):
    message = refusal(tmp_path, GOOD.replace("父下伏水鬼，棟必漏也。", "棟"))
    assert "occurs" in message and "add 'at'" in message


def test_unknown_concept_label(tmp_path):
    assert "unknown six relatives '父親'" in refusal(
        tmp_path, GOOD.replace("L.relative 父,", "L.relative 父親,")
    )


def test_unknown_fact(tmp_path):
    message = refusal(tmp_path, GOOD.replace("H.element 水", "H.colour 水"))
    assert "the chart vocabulary defines no fact 'colour'" in message


def test_fact_not_defined_for_the_variable_type(tmp_path):
    assert "a hidden-line has no fact 'beast'" in refusal(
        tmp_path, GOOD.replace("H.element 水", "H.beast 白虎")
    )


def test_undeclared_variable(tmp_path):
    assert "variable X is not declared" in refusal(tmp_path, GOOD.replace("H.under L", "H.under X"))


def test_unknown_variable_type(tmp_path):
    assert "unknown type 'hidden'" in refusal(tmp_path, GOOD.replace("H: hidden-line", "H: hidden"))


def test_duplicate_rule_id(tmp_path):
    assert "duplicate rule id" in refusal(tmp_path, GOOD + GOOD)


def test_malformed_yaml(tmp_path):
    (tmp_path / "bad.yaml").write_text("work: yiyin\nrules: [\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"bad\.yaml: malformed YAML"):
        RuleCompiler().compile_all(tmp_path)


def test_unknown_topic(tmp_path):
    assert "unknown topic '風水'" in refusal(tmp_path, GOOD.replace("para: 6", "para: 6\n    topic: 風水"))


def test_text_only_needs_a_reason(tmp_path):
    rules = GOOD.replace("vars:", "kind: text-only\n    vars:")
    assert "needs 'reason'" in refusal(tmp_path, rules)


def test_exception_names_an_existing_rule(tmp_path):
    rules = GOOD + GOOD.replace("t.leak", "t.unless").replace(
        "vars:", "kind: exception\n    overrides: t.nothing\n    vars:"
    ).replace("父下伏水鬼，棟必漏也。", "父下伏水鬼")
    assert "overrides unknown rule 't.nothing'" in refusal(tmp_path, rules)


def test_constants_are_lifted_into_a_shared_template(tmp_path):
    water = GOOD
    fire = GOOD.replace("t.leak", "t.other").replace("H.element 水", "H.element 火")
    a, b = compile_text(tmp_path, water + fire.replace("父下伏水鬼，棟必漏也。", "父下伏水鬼"))
    assert a.template == b.template
    assert a.arguments != b.arguments
    assert "<https://w3id.org/divkg/concept/element/fire>" in b.arguments


def test_a_class_of_generals_stands_for_its_members(tmp_path):
    """吉將 = 貴人 六合 青龍 太常 太陰 天后, 凶將 = 螣蛇 朱雀 勾陳 天空 白虎 玄武 (CONVENTIONS)."""
    rules = """
      - id: t.ji
        para: 34
        quote: 類神與日辰相生，三傳旺相，又乘吉將，或見成神，其物或買或賣，俱易成而有利。
        vars: {S: spirit}
        when: [S.general 吉將]
        then: {polarity: 吉, zh: 俱易成而有利, en: good}
      - id: t.xiong
        para: 46
        quote: 臨囚死墓絕之方，或乘凶將，則凶。
        vars: {S: spirit}
        when: [S.general 凶將]
        then: {polarity: 凶, zh: 則凶, en: bad}
    """
    ji, xiong = compile_text(tmp_path, rules, work="yinhezhao")
    members = {
        "ji": {"guiren", "liuhe", "qinglong", "taichang", "taiyin", "tianhou"},
        "xiong": {"tengshe", "zhuque", "gouchen", "tiankong", "baihu", "xuanwu"},
    }
    for rule, name in ((ji, "ji"), (xiong, "xiong")):
        named = {g for g in members["ji"] | members["xiong"] if f"general:{g}" in rule.query}
        assert named == members[name]
        assert f"{name}jiang" in {str(m).rsplit("/", 1)[1] for m in rule.mentions}
