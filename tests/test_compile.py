"""The rule compiler: what it produces, and every refusal with its message."""

import json
import shutil
import textwrap

import pyoxigraph as ox
import pytest
import yaml
from jsonschema import Draft202012Validator

from kg.compile import SCHEMA, RuleCompiler, RuleError, rule_schema
from kg.paths import RULES
from kg.vocabulary import DK, vocabulary

GOOD = """
  - id: t.leak
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父, H.under L, H.element 水, H.relative 鬼]
    then: {polarity: 凶, zh: 棟必漏, en: the roof will leak}
"""


PILLAR = """
  - id: t.pillar
    para: 2
    quote: 陽為棟柱，陰為棟樑也。
    vars: {L: line}
    when: [L.position 6]
    cases:
      - {id: yang, when: [L.yinyang 陽], then: {polarity: 中, zh: 陽為棟柱, en: the upright pillar}}
      - {id: yin, when: [L.yinyang 陰], then: {polarity: 中, zh: 陰為棟樑, en: the cross-beam}}
"""
LABEL = "unencoded:\n  - {para: 4, quote: （出管公口訣。）, why: label}\n"


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


def test_unknown_procedure(tmp_path):
    """Procedure names are checked against those ontology/divkg.ttl declares (here 里數 is ``li``)."""
    message = refusal(tmp_path, GOOD.replace("en: the roof", "param: {distance: miles(L)}, en: the roof"))
    assert "unknown procedure 'miles'" in message and "li" in message


def test_a_count_without_bounds_is_refused(tmp_path):
    rule = GOOD.replace(
        "when: [L.relative 父,",
        "when: [{count: N, type: line, where: [N.element 土], min: 0}, L.relative 父,",
    )
    assert "count N: give 'min'" in refusal(tmp_path, rule)


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


@pytest.mark.parametrize("outer", ["N.ke L", "L.moving"])
def test_a_count_sees_no_variable_outside_it(tmp_path, outer):
    rules = GOOD.replace(
        "H.relative 鬼]", f"H.relative 鬼, {{count: N, type: line, where: [{outer}], min: 1}}]"
    )
    assert "count N: its 'where' can name only the counted variable N, not L" in refusal(tmp_path, rules)


@pytest.mark.parametrize("overrides", ["t.nothing", "[t.leak, t.nothing]"])
def test_exception_names_existing_rules(tmp_path, overrides):
    rules = GOOD + GOOD.replace("t.leak", "t.unless").replace(
        "vars:", f"kind: exception\n    overrides: {overrides}\n    vars:"
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


@pytest.mark.parametrize(
    "absent", ["{not: [F.relative 妻財]}", "{count: N, type: line, where: [N.relative 妻財], max: 0}"]
)
def test_a_branch_of_filters_alone_is_tied_to_its_reading(tmp_path, absent):
    """A branch that binds nothing (only a ``not``, or a count with a maximum) still tests the outer
    reading, so the published query is right on a store of several readings: one reading's 妻財
    does not silence the other."""
    rules = f"""
      - id: t.no-money
        para: 6
        quote: 父下伏水鬼，棟必漏也。
        vars: {{F: line, B: line}}
        when:
          - any:
              - [{absent}]
              - [B.relative 兄弟]
        then: {{polarity: 凶, zh: 棟必漏, en: no money line or a 兄弟 (test rule)}}
    """
    (rule,) = compile_text(tmp_path, rules)
    store = ox.Store()
    store.load(
        """@prefix dk: <https://w3id.org/divkg/> .
        @prefix rel: <https://w3id.org/divkg/concept/relative/> .
        <urn:r:money> a dk:Reading ; dk:system dk:LiuYao ; dk:line <urn:r:money:l1> .
        <urn:r:money:l1> dk:relative rel:qicai .
        <urn:r:none> a dk:Reading ; dk:system dk:LiuYao ; dk:line <urn:r:none:l1> .
        <urn:r:none:l1> dk:relative rel:fumu .
        """,
        format=ox.RdfFormat.TURTLE,
    )
    found = {row["reading"].value for row in store.query(rule.query)}
    assert found == {"urn:r:none"}


# ── the schema (corpus/rules/rule.schema.json) ─────────────────────────────────────────────


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_the_schema_enumerations_are_the_ontologys():
    """Variable types (dk:VariableType), polarities (吉凶) and reasons (不可編碼之由) as ontology/ defines them."""
    defs = rule_schema().schema["$defs"]
    vocab = vocabulary()
    assert set(defs["variableType"]["enum"]) == set(vocab.variable_types)
    assert set(defs["polarity"]["enum"]) == {vocab.label(c) for c in vocab.concepts(DK.PolarityScheme)}
    reasons = {str(c).rsplit("/", 1)[1] for c in vocab.concepts(DK.ReasonScheme)}
    assert set(defs["textOnlyReason"]["enum"]) | set(defs["unencodedReason"]["enum"]) == reasons
    assert not set(defs["textOnlyReason"]["enum"]) & set(defs["unencodedReason"]["enum"])


@pytest.mark.parametrize("path", sorted(RULES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_rule_file_conforms_to_the_schema(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert [e.message for e in rule_schema().iter_errors(data)] == []


def test_rules_with_cases_and_unencoded_passages_compile(tmp_path):
    yang, yin = compile_text(tmp_path, PILLAR + LABEL)
    assert (yang.id, yin.id, yin.case_of) == ("t.pillar.yang", "t.pillar.yin", "t.pillar")


def test_a_gloss_cut_at_a_comma_is_an_unknown_key(tmp_path):
    """Unquoted in a flow mapping, ``en: the roof, it will leak`` is ``en: the roof`` and a key."""
    message = refusal(tmp_path, GOOD.replace("en: the roof will leak", "en: the roof, it will leak"))
    assert (
        message == "t.yaml: rule t.leak: then: unknown key 'it will leak' — quote a value that contains ', '"
    )


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            GOOD.replace("vars:", "colour: red\n    vars:"),
            "t.yaml: rule t.leak: unknown key 'colour'; expected one of id, para, quote,",
        ),
        (
            PILLAR.replace("en: the cross-beam}}", "en: the cross-beam}, note: 棟樑}"),
            "t.yaml: rule t.pillar: case yin: unknown key 'note'; expected one of id, when, then",
        ),
        (
            GOOD + LABEL.replace("why: label", "why: label, because: 出管公"),
            "t.yaml: unencoded passage 1 (¶4 （出管公口訣。）): unknown key 'because'",
        ),
        (GOOD + "colour: red\n", "t.yaml: unknown key 'colour'; expected one of work, rules, unencoded"),
    ],
    ids=["rule", "case", "unencoded", "file"],
)
def test_unknown_key(tmp_path, rules, message):
    assert refusal(tmp_path, rules).startswith(message)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("para: 6", 'para: "6"', "rule t.leak: para: must be an integer, not a string ('6')"),
        (
            "when: [L.relative 父, H.under L, H.element 水, H.relative 鬼]",
            "when: L.relative 父",
            "when: must be a list",
        ),
        (
            "vars: {L: line, H: hidden-line}",
            "vars: [L, H]",
            "rule t.leak: vars: must be a mapping, not a list",
        ),
        ("en: the roof will leak", "en: yes", "then.en: must be a string, not true"),
        ("H.relative 鬼]", "3]", "rule t.leak: when[4]: must be a string, not an integer (3)"),
        ("H.relative 鬼]", "{any: [[L.moving]]}]", "rule t.leak: when[4].any: needs at least 2 items"),
    ],
)
def test_wrong_type(tmp_path, old, new, message):
    assert message in refusal(tmp_path, GOOD.replace(old, new))


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (GOOD.replace("    quote: 父下伏水鬼，棟必漏也。\n", ""), "rule t.leak: needs 'quote' (or 'source')"),
        (
            GOOD.replace("    then: {polarity: 凶, zh: 棟必漏, en: the roof will leak}\n", ""),
            "needs 'then' (or 'cases')",
        ),
        (
            PILLAR.replace("{id: yin, when: [L.yinyang 陰], ", "{id: yin, "),
            "rule t.pillar: case yin: needs 'when'",
        ),
        (GOOD + LABEL.replace(", why: label", ""), "unencoded passage 1 (¶4 （出管公口訣。）): needs 'why'"),
        (
            GOOD.replace("vars:", "kind: exception\n    vars:"),
            "needs 'overrides' (an exception names the rule it cancels)",
        ),
        (
            GOOD.replace("H.relative 鬼]", "{count: N, type: line, where: [N.moving]}]"),
            "rule t.leak: when[4]: a count gives 'min' and/or 'max'",
        ),
    ],
    ids=["quote", "then", "case-when", "why", "overrides", "count-bound"],
)
def test_missing_required_field(tmp_path, rules, message):
    assert message in refusal(tmp_path, rules)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "vars:",
            "kind: judgment\n    vars:",
            "kind: unknown kind 'judgment'; expected one of judgement, definition,",
        ),
        (
            "polarity: 凶",
            "polarity: 大凶",
            "then.polarity: unknown polarity '大凶'; expected one of 吉, 凶, 吉凶參半, 中",
        ),
        (
            "vars:",
            "kind: text-only\n    reason: unclear\n    vars:",
            "reason: unknown reason 'unclear'; expected one of computation, meta, undefined-term,",
        ),
        ("vars:", "kind: text-only\n    reason: narrative\n    vars:", "unknown reason 'narrative'"),
        ("H: hidden-line", "H: hidden", "vars.H: unknown type 'hidden'; expected one of line, changed-line,"),
    ],
    ids=["kind", "polarity", "reason", "unencoded-reason-in-a-rule", "variable-type"],
)
def test_bad_enumeration_value(tmp_path, old, new, message):
    assert message in refusal(tmp_path, GOOD.replace(old, new))


def test_a_reason_belongs_to_a_text_only_rule(tmp_path):
    message = refusal(tmp_path, GOOD.replace("vars:", "reason: damaged\n    vars:"))
    assert "rule t.leak: needs 'kind' (only a text-only rule has a reason)" in message


def test_the_first_problem_of_the_file_is_named(tmp_path):
    broken = GOOD.replace("para: 6", 'para: "6"')
    rules = broken.replace("t.leak", "t.first") + broken.replace("t.leak", "t.second")
    assert refusal(tmp_path, rules).endswith(
        "rule t.first: para: must be an integer, not a string ('6') (and 1 more in this file)"
    )


def test_a_cut_gloss_in_the_real_rule_files_fails_the_compile(tmp_path):
    for path in RULES.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    target = tmp_path / "huangjince.yaml"
    text = target.read_text(encoding="utf-8")
    quoted = 'en: "public or private, the money goes as wished"'
    assert text.count(quoted) == 1
    target.write_text(text.replace(quoted, quoted.replace('"', "")), encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        RuleCompiler().compile_all(tmp_path)
    assert str(exc.value) == (
        "huangjince.yaml: rule huangjince.qiucai.cai-wang-fu-xing: then: "
        "unknown key 'the money goes as wished' — quote a value that contains ', '"
    )
