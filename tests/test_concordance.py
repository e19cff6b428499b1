"""kg search: key word in context over the texts, variant forms, and the rules mentioning a concept."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.concordance import concordance, variants
from kg.corpus import works


def search(graph: Path, *args: str):
    return CliRunner().invoke(main, ["search", *args, "--graph", str(graph)])


def test_variant_forms() -> None:
    assert set(variants("玄武")) == {"玄武", "元武"}
    assert "虎" in variants("白虎", abbreviations=True)


def test_xuanwu_finds_yuanwu() -> None:
    hits = concordance("玄武")
    # 《大六壬銀河棹》〈遺失〉: 「又視元武所臨，在卯、辰、巳、午、未、申為白日盜…」
    found = {(h.urn, h.match) for h in hits}
    assert ("urn:cts:divkg:yinhezhao.qiucai-yishi.zh:82.2", "元武") in found
    # 《黃金策》〈求財〉 note: 「如白虎為風波，玄武為盜賊類」
    assert any(h.match == "玄武" and h.work == "黃金策" and h.left.endswith("如白虎為風波，") for h in hits)


def test_context_is_the_text() -> None:
    for h in concordance("棟必漏", width=5):
        paragraph = works()["yiyin"].paragraphs[h.paragraph]
        assert h.left + h.match + h.right in paragraph.text
        assert h.urn == "urn:cts:divkg:yiyin.juan4.zh:6.3"
        assert (h.left, h.right) == ("下伏水鬼，", "也。木父加")  # 「父下伏水鬼，棟必漏也。木父加虎動…」


def test_filters() -> None:
    assert {h.work for h in concordance("玄武", work="易隱")} == {"易隱"}
    # 家宅 and narrower: 《易隱》〈家宅占〉 (棟樑 … 墳墓) and 《黃金策》〈家宅〉, never 〈求財〉 (¶2–46)
    household = concordance("玄武", topic="家宅")
    assert household and all(not (h.work == "黃金策" and h.paragraph <= 46) for h in household)
    assert any(h.paragraph == 36 and h.work == "易隱" for h in household)  # 比鄰: 「玄武咸池同位，淫亂之家」


def test_korean() -> None:
    hits = concordance("백호", korean=True, work="yiyin")
    assert any(h.urn == "urn:cts:divkg:yiyin.juan4.ko:6" for h in hits)


def test_cli_kwic(built_graph: Path) -> None:
    result = search(built_graph, "元武", "--work", "yinhezhao", "--width", "4")
    assert result.exit_code == 0
    assert "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:82.2" in result.output
    assert "又視【元武】所臨，在" in result.output


def test_concept_lists_rules_with_quotes(built_graph: Path) -> None:
    result = search(built_graph, "--concept", "白虎")
    assert result.exit_code == 0
    assert "「木父加虎動，與日雀日虎，動沖木父者陰爻，棟蛀。陽爻，柱蛀也。」" in result.output
    assert "urn:cts:divkg:yiyin.juan4.zh:6.4" in result.output
    # 龍 and 青龍 are one concept
    dragon = search(built_graph, "--concept", "龍").output
    assert dragon == search(built_graph, "--concept", "青龍").output.replace("mention 青龍", "mention 龍")


def test_concept_filters(built_graph: Path) -> None:
    ji = search(built_graph, "--concept", "白虎", "--polarity", "吉").output
    assert "木父加虎動" not in ji  # 棟蛀 is 凶
    home = search(built_graph, "--concept", "白虎", "--topic", "家宅", "--work", "易隱").output
    assert "木父加虎動" in home
    assert "干乘墓虎毋占病" not in home  # 《直指》, topic 疾病


def test_polarity_filter_on_kwic(built_graph: Path) -> None:
    out = search(built_graph, "棟必漏", "--polarity", "凶").output
    assert "【棟必漏】" in out
    assert "0 hits" in search(built_graph, "棟必漏", "--polarity", "吉").output


def test_empty_term_is_an_error(built_graph: Path) -> None:
    for term in ("", "  "):
        result = search(built_graph, term)
        assert result.exit_code == 2
        assert "empty search term" in result.stderr
    assert search(built_graph, "--concept", "不存在之物").exit_code == 2
