"""《黃金策》〈家宅〉 ¶82–116 (corpus/rules/huangjince-liuqin.yaml): 六親 and 身命 verse lines, the 用神 of
子嗣 and the commentary's worked cases.

Hand-written charts state the facts a verse line and its note name (and a near miss for the silent case),
never the compiler's output. The worked cases (乾之艮, 大過, 晉之遯, 姤之明夷, 辛丑日恆之觀) are
cast with the real generator (kg.liuyao.chart.chart_from_inputs); their lines follow the 納甲 and palace
tables of docs/liuyao-doctrine.md §4.1–4.4.

The graph is built once per module from this file's rules alone (and, for the sampled rule of ¶112 in
huangjince.yaml, once from that file and the 〈求財〉 files it needs), so other rule files being edited at the
same time cannot break these tests.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from hand_charts import PREFIXES, READING, graph_of
from rdflib import Graph

from kg.liuyao.chart import chart_from_inputs
from kg.liuyao.facts import chart_graph, reading_iri
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary

RULES = Path(__file__).resolve().parent.parent / "corpus" / "rules" / "huangjince-liuqin.yaml"
LQ, SM = "huangjince.liuqin.", "huangjince.shenming."


@pytest.fixture(scope="module")
def kg(tmp_path_factory) -> KnowledgeGraph:
    return graph_of(tmp_path_factory, RULES.name)


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> KnowledgeGraph:
    """The graph of huangjince.yaml, which holds the sampled rule of ¶112 四虎交加 (shenming.si-hu), with the
    〈求財〉 files whose rules its exceptions lift."""
    return graph_of(
        tmp_path_factory, "huangjince.yaml", "huangjince-qiucai.yaml", "huangjince-qiucai-sub.yaml"
    )


def chart(topic: str, body: str, links: str) -> str:
    """A hand chart: the reading of ``topic`` and its entities (``links``: ``dk:line r:a , r:b ; …``)."""
    return f"{READING} a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:{topic} ; {links} .\n{body}"


def run(kg: KnowledgeGraph, turtle: str) -> tuple[Reading, list[Applicable]]:
    reading = Reading(Graph().parse(data=PREFIXES + turtle, format="turtle"))
    return reading, retrieve(kg, reading)


def fired(kg: KnowledgeGraph, turtle: str, *ids: str) -> dict[str, set[str]]:
    """Rule id → statuses, for the rules whose id starts with one of ``ids``."""
    result: dict[str, set[str]] = defaultdict(set)
    for a in run(kg, turtle)[1]:
        if a.rule_id.startswith(ids):
            result[a.rule_id].add(a.status)
    return dict(result)


# ── 六親 ¶82–108 ─────────────────────────────────────────────────────────────────────────


def _zisun_gen_cai(*, void: str = "false", vital: str = "true", month: str = "dk:sheng") -> str:
    """內外子孫發動並日辰生身世之財爻: 子孫 moving on line 2 (inner, with the day's branch) and line 5 (outer);
    the 財 holds the 世; ``month``: the month's relation to the 財."""
    return chart(
        "liuqin",
        f"""r:a dk:position 2 ; dk:relative rel:zisun ; dk:moving true ; dk:half half:inner ; dk:bing r:d .
            r:o dk:position 5 ; dk:relative rel:zisun ; dk:moving true ; dk:half half:outer .
            r:f dk:position 4 ; dk:relative rel:qicai ; dk:role role:shi ; dk:moving false ; dk:void {void} ;
                dk:monthBroken false ; dk:dayBroken false ; dk:vital {vital} .
            r:d dk:pillarKind pillar:day .
            r:m dk:pillarKind pillar:month ; {month} r:f .""",
        "dk:line r:a , r:o , r:f ; dk:dayPillar r:d ; dk:monthPillar r:m ; dk:pillar r:d , r:m",
    )


def test_inner_and_outer_zisun_generate_the_shi_cai(kg):
    """內外子孫生世位，多招財物 … 有氣必有不期而會."""
    ids = LQ + "duo-zhao-cai-wu"
    assert fired(kg, _zisun_gen_cai(), ids) == {ids + ".you-qi": {"applies"}}
    assert fired(kg, _zisun_gen_cai(vital="false"), ids) == {ids + ".wu-qi": {"applies"}}
    # 無空: a void 財 draws nothing in
    assert fired(kg, _zisun_gen_cai(void="true"), ids) == {}
    # 無…沖剋 names no agent: the month clashing the 財 spoils it as the day would
    assert fired(kg, _zisun_gen_cai(month="dk:chong"), ids) == {}


def _ying_parent(half: str) -> str:
    """應臨父母動生身: the 應 a moving 父母 generating the querent's 身."""
    return chart(
        "liuqin-fumu",
        f"""r:y dk:position 2 ; dk:role role:ying ; dk:relative rel:fumu ; dk:half half:{half} ; dk:moving true ;
                dk:sheng r:b .
            r:b dk:position 5 ; dk:role role:guashen .""",
        "dk:line r:y , r:b",
    )


def test_ying_parent_generating_the_body(kg):
    """應臨父母動生身，龍生蛇腹: kept as text, since the note's 居偏下之爻 is not defined; the moving 應 on 父母
    generating the querent's 身 offers it for consideration, in either trigram."""
    ids = LQ + "long-sheng-she-fu"
    assert fired(kg, _ying_parent("inner"), ids) == {ids: {"consider"}}
    assert fired(kg, _ying_parent("outer"), ids) == {ids: {"consider"}}
    # a still 應 generating the 命, not the 身: neither 身爻臨之，得本爻生之 nor 動生子身命
    still_ming = (
        _ying_parent("inner")
        .replace("dk:moving true", "dk:moving false")
        .replace("role:guashen", "role:ming")
    )
    assert fired(kg, still_ming, ids) == {}


def _zisun(void: str, natal_void: str, stage: str = "changsheng") -> str:
    return chart(
        "zisi",
        f"""r:z dk:position 3 ; dk:relative rel:zisun ; dk:void {void} ; dk:natalVoid {natal_void} ;
                dk:stage stage:{stage} .""",
        "dk:line r:z",
    )


def test_zisun_is_the_use_spirit_of_children(kg):
    """子孫同我生之爻: the definition gives the 子孫 line the role 用神 in a 子嗣 reading."""
    reading, _ = run(kg, _zisun("false", "false"))
    rows = reading.store.query(
        "SELECT ?l WHERE { ?l <https://w3id.org/divkg/role> <https://w3id.org/divkg/concept/role/yongshen> }"
    )
    assert [str(row[0].value).rsplit("/", 1)[-1] for row in rows] == ["z"]


def test_void_zisun_children_late(kg):
    """本命就中空子，見子應遲 (在日辰命旬之空: void in both 旬, as ¶66 更在命旬之空亡); 若胎絕，主孤害刑剋, which reads
    the same 子孫 another way than children who come late: an exception over 見子遲 (second reading, round 16)."""
    late, lost = LQ + "jian-zi-chi", LQ + "gu-hai-xing-ke"
    assert fired(kg, _zisun("true", "true"), late, lost) == {late: {"applies"}}
    for stage in ("jue", "tai"):
        assert fired(kg, _zisun("true", "true", stage), late, lost) == {
            late: {"overridden"},
            lost: {"applies"},
        }
    # void in the day's 旬 only: the verse's 本命就中 is not met
    assert fired(kg, _zisun("true", "false"), late, lost) == {}
    # void in the 旬 of the 年命 only
    assert fired(kg, _zisun("false", "true", "jue"), late, lost) == {}


def _zisun_punished(stage: str) -> str:
    """子孫絕處刑傷: the 子孫 at 絕, punished by the day."""
    return chart(
        "zisi",
        f"""r:z dk:position 1 ; dk:relative rel:zisun ; dk:stage stage:{stage} .
            r:d dk:pillarKind pillar:day ; dk:xing r:z .""",
        "dk:line r:z ; dk:dayPillar r:d ; dk:pillar r:d ; dk:entity r:z , r:d",
    )


def test_zisun_at_jue_punished_children_not_raised(kg):
    """子孫絕處刑傷，兒多不育."""
    ids = LQ + "er-duo-bu-yu"
    assert fired(kg, _zisun_punished("jue"), ids) == {ids: {"applies"}}
    assert fired(kg, _zisun_punished("changsheng"), ids) == {}


def _body_and_ming(ming_role: str) -> str:
    return chart(
        "liuqin",
        f"""r:b dk:position 3 ; dk:role role:guashen , role:shi .
            r:m dk:position 6 ; dk:role role:ming , role:{ming_role} .""",
        "dk:line r:b , r:m",
    )


def test_body_on_shi_ming_on_ying_two_surnames(kg):
    """身命與世應同爻，多應兩姓 (身臨世命臨應)."""
    ids = LQ + "liang-xing"
    assert fired(kg, _body_and_ming("ying"), ids) == {ids: {"applies"}}
    assert fired(kg, _body_and_ming("jian"), ids) == {}


def _wife_overcomes_shi(combines_ying: bool, sex: str = "male") -> str:
    """妻克世身重合應: the moving 財 (with the day's branch) overcomes the 世, combining with the 應 or not."""
    he = "; dk:he r:y" if combines_ying else ""
    return chart(
        "liuqin-fuqi",
        f"""r:f dk:position 2 ; dk:relative rel:qicai ; dk:moving true ; dk:ke r:s ; dk:bing r:d {he} .
            r:s dk:position 4 ; dk:role role:shi .
            r:y dk:position 1 ; dk:role role:ying .
            r:d dk:pillarKind pillar:day .""",
        f"dk:line r:f , r:s , r:y ; dk:dayPillar r:d ; dk:pillar r:d ; dk:querentSex sex:{sex}",
    )


def test_wife_overcoming_husband_and_combining_ying_remarries(kg):
    """妻爻動剋夫命，主剋夫; 妻克世身重合應，妻必重婚 (並日辰又與應相合，主妻再嫁). 再嫁 is of topic 婚姻."""
    ke, chong = LQ + "ke-fu", LQ + "chong-hun"
    assert fired(kg, _wife_overcomes_shi(True), ke) == {ke: {"applies"}}
    # a woman asking: the 世 the 財 overcomes is hers, not her husband's
    assert fired(kg, _wife_overcomes_shi(True, "female"), ke) == {}
    marriage = _wife_overcomes_shi(True).replace("topic:liuqin-fuqi", "topic:hunyin")
    assert fired(kg, marriage, chong) == {chong: {"applies"}}
    assert fired(kg, _wife_overcomes_shi(False).replace("topic:liuqin-fuqi", "topic:hunyin"), chong) == {}


def _affair(star_or_beast: str, ying_half: str, wife: str = "dk:role role:ming") -> str:
    """妻身命爻，與應相合: a woman asking, her 命 line combining with the 應."""
    return chart(
        "liuqin-fuqi",
        f"""r:f dk:position 3 ; {wife} ; dk:he r:y {star_or_beast} .
            r:y dk:position 6 ; dk:role role:ying ; dk:half half:{ying_half} .""",
        "dk:line r:f , r:y ; dk:querentSex sex:female",
    )


def test_wife_combining_ying_with_peach_blossom_affair(kg):
    """妻與應爻相合，外有私通 (妻身命爻，與應相合咸池玄武桃花); 應自外宮來，主遠方人；應自內來，近親之人."""
    tong, lai = LQ + "si-tong", LQ + "ying-lai"
    assert fired(kg, _affair("; dk:shensha star:taohua", "outer"), tong, lai) == {
        tong: {"applies"},
        lai + ".wai": {"applies"},
    }
    assert fired(kg, _affair("; dk:beast beast:xuanwu", "inner"), tong, lai) == {
        tong: {"applies"},
        lai + ".nei": {"applies"},
    }
    # neither 咸池 nor 玄武: no 私通, so no lover whose home the 應 tells
    assert fired(kg, _affair("", "outer"), tong, lai) == {}
    # the note's 妻 is her 身命: a 妻財 line that is neither is not the wife (the same note says 妻帶財)
    assert fired(kg, _affair("; dk:beast beast:xuanwu", "inner", "dk:relative rel:qicai"), tong, lai) == {}


def test_day_overcoming_the_lovers_found_out(kg):
    """並日辰克妻與應爻，主獲妻姦夫: no element overcomes both branches of a 六合, so the clause is offered where
    the day overcomes one of the pair, given the affair it presupposes (咸池 or 玄武 on her line)."""
    ids = LQ + "huo-jian"
    day = "\nr:d dk:pillarKind pillar:day ; dk:ke r:y ."
    links = "dk:line r:f , r:y ; dk:querentSex sex:female ; dk:dayPillar r:d ; dk:pillar r:d"
    found_out = _affair("; dk:shensha star:taohua", "outer").replace(
        "dk:line r:f , r:y ; dk:querentSex sex:female", links
    )
    assert fired(kg, found_out + day, ids) == {ids: {"consider"}}
    assert [a.polarity for a in run(kg, found_out + day)[1] if a.rule_id == ids] == ["凶"]
    # no 咸池 or 玄武 on her line: no affair to find out
    plain = _affair("", "outer").replace("dk:line r:f , r:y ; dk:querentSex sex:female", links)
    assert fired(kg, plain + day, ids) == {}


def _parted(star_or_beast: str, parting: str) -> str:
    """世爻動帶鬼隔斷 / 應爻動帶鬼隔斷: a woman asking, her 命 line combining with the 應, and ``parting`` (the 世 or
    the 應) moving as a 官鬼."""
    shi = "r:s" if parting == "shi" else "r:y"
    body = f"""r:f dk:position 3 ; dk:role role:ming ; dk:he r:y {star_or_beast} .
               r:y dk:position 6 ; dk:role role:ying .
               {shi} dk:moving true ; dk:relative rel:guangui .
               r:s dk:position 1 ; dk:role role:shi ."""
    return chart("liuqin-fuqi", body, "dk:line r:f , r:y , r:s ; dk:querentSex sex:female")


@pytest.mark.parametrize("parting", ["shi", "ying"])
def test_lovers_parted_only_where_the_affair_is(kg, parting):
    """應爻動帶鬼隔斷，為外人間阻其情 (and 世爻動帶鬼隔斷，為家人間阻): 其情 is the affair of the note's head, 妻身命爻，
    與應相合咸池玄武桃花, so the moving 官鬼 parts the lovers only where her line combines with the 應 and carries 咸池
    or 玄武; 隔斷 is the obstruction the moving 官鬼 brings, no condition of place."""
    ids = LQ + "jian-zu"
    for star_or_beast in ("; dk:shensha star:taohua", "; dk:beast beast:xuanwu"):
        assert fired(kg, _parted(star_or_beast, parting), ids, LQ + "si-tong") == {
            LQ + "si-tong": {"applies"},
            f"{ids}.{parting}": {"applies"},
        }
    # her line combining with the 應 with neither 咸池 nor 玄武: no affair, so no lovers to part
    assert fired(kg, _parted("", parting), ids, LQ + "si-tong") == {}


def _dowry(element: str, sex: str = "male") -> str:
    """青龍水木臨妻位 … 夫命臨之: the husband's (the querent's) 命 on a strong 青龍 財 of Water."""
    return chart(
        "hunyin",
        f"""r:f dk:position 4 ; dk:relative rel:qicai ; dk:beast beast:qinglong ; dk:element el:{element} ;
                dk:vital true ; dk:role role:ming .""",
        f"dk:line r:f ; dk:querentSex sex:{sex}",
    )


def test_qinglong_water_cai_under_husbands_ming_dowry(kg):
    """青龍水木臨妻位，多獲奩財."""
    ids = LQ + "lian-cai"
    assert fired(kg, _dowry("water"), ids) == {ids: {"applies"}}
    assert fired(kg, _dowry("metal"), ids) == {}
    assert fired(kg, _dowry("water", "female"), ids) == {}


def _body_combines_cai(sex: str) -> str:
    return chart(
        "hunyin",
        """r:b dk:position 2 ; dk:role role:guashen ; dk:he r:f .
           r:f dk:position 5 ; dk:relative rel:qicai .""",
        f"dk:line r:b , r:f ; dk:querentSex sex:{sex}",
    )


@pytest.mark.parametrize("sex", ["male", "female"])
def test_husbands_body_combining_a_wealth_line_is_no_wife_line(kg, sex):
    """夫身起合妻爻，將身就婦: the 妻爻 is the wife's 命爻, as every note of ¶94 restates the verse's 妻 (臨妻命爻,
    合妻之命爻, 妻命帶子孫), not the 妻財, so the querent's 卦身 combining with a 妻財 line is silent, the querent a
    man or a woman (second reading, round 15; the 身 on her 命 is test_husbands_body_on_wifes_ming)."""
    ids = LQ + "jiang-shen-jiu-fu"
    assert fired(kg, _body_combines_cai(sex), ids) == {}


def test_brothers_lines_stay_text_only(kg):
    """弟紾乃兄之臂，身命相傷: a brother's 身 is not defined; with his 命 on the chart both cases of the note are
    offered to consider, 相刑相剋 主不友不恭 (凶) and 相生相合 主兄弟怡怡如也 (吉)."""
    hurt, harmony = LQ + "shen-ming-xiang-shang", LQ + "xiongdi-yiyi"
    elder = chart("liuqin-xiongdi", "r:m dk:position 1 ; dk:mingOf member:elder-brother .", "dk:line r:m")
    assert fired(kg, elder, hurt, harmony) == {hurt: {"consider"}, harmony: {"consider"}}
    assert {a.rule_id: a.polarity for a in run(kg, elder)[1] if a.rule_id in (hurt, harmony)} == {
        hurt: "凶",
        harmony: "吉",
    }
    shi = chart("liuqin-xiongdi", "r:s dk:position 1 ; dk:role role:shi .", "dk:line r:s")
    assert fired(kg, shi, hurt, harmony) == {}


def _on_line_five(member: str, relation: str) -> str:
    """A member's 命 line (line 2) and line 5, the parents' or the husband's 身 (¶82 夫身五爻)."""
    return chart(
        "liuqin",
        f"""r:m dk:position 2 ; dk:mingOf member:{member} {relation} .
            r:x dk:position 5 .""",
        "dk:line r:m , r:x",
    )


def test_sons_ming_meets_line_five(kg):
    """子命爻臨五爻之位，臨父母之身，相生相合，主有跨灶之風；相剋相刑，主有悖逆不孝."""
    ids = LQ + "kua-zao"
    son = _on_line_five("son", "; dk:sheng r:x").replace("topic:liuqin", "topic:zisi")
    assert fired(kg, son, ids) == {ids + ".sheng-he": {"applies"}}
    assert fired(kg, son.replace("dk:sheng r:x", "dk:xing r:x"), ids) == {ids + ".ke-xing": {"applies"}}
    # the wife's 命 is not the son's
    assert fired(kg, son.replace("member:son", "member:wife"), ids) == {}


def test_parents_ming_on_childs_body_both_cases(kg):
    """父母之命爻臨子孫爻之身，主子承父蒑。生合刑剋依此斷之: the child's 身 is not defined; with the father's 命 on
    the chart both cases are offered, 生合 承父蔭 (吉) and 刑剋 judged as 悖逆不孝 in the sentence before (凶)."""
    good, bad = LQ + "cheng-fu-ye", LQ + "cheng-fu-ye-xing-ke"
    father = chart("zisi", "r:m dk:position 4 ; dk:mingOf member:father .", "dk:line r:m")
    assert {a.rule_id: (a.status, a.polarity) for a in run(kg, father)[1] if a.rule_id in (good, bad)} == {
        good: ("consider", "吉"),
        bad: ("consider", "凶"),
    }
    # the son's 命 is not the parents'
    assert fired(kg, father.replace("member:father", "member:son"), good) == {}


def test_wifes_ming_meets_husbands_body_on_line_five(kg):
    """妻命臨夫身五爻之上，與夫相生相合，得內助能家之兆；若妻剋夫爻，主妻凌夫或破夫家也."""
    ids = LQ + "neng-jia"
    wife = _on_line_five("wife", "; dk:he r:x").replace("topic:liuqin", "topic:liuqin-fuqi")
    assert fired(kg, wife, ids) == {ids + ".sheng-he": {"applies"}}
    assert fired(kg, wife.replace("dk:he r:x", "dk:ke r:x"), ids) == {ids + ".ke": {"applies"}}
    # 妻剋夫爻: the husband's line overcoming her 命 is not the case the text names
    reverse = wife.replace("dk:he r:x .", ".").replace(
        "r:x dk:position 5 .", "r:x dk:position 5 ; dk:ke r:m ."
    )
    assert fired(kg, reverse, ids) == {}
    # the wife asking: her 命 is the querent's 命爻; a man's 命爻 is not his wife's 命
    own = wife.replace("dk:mingOf member:wife", "dk:role role:ming").replace(
        "topic:liuqin-fuqi ;", "topic:liuqin-fuqi ; dk:querentSex sex:female ;"
    )
    assert fired(kg, own, ids) == {ids + ".sheng-he": {"applies"}}
    assert fired(kg, own.replace("sex:female", "sex:male"), ids) == {}


def _body_and_spouse(sex: str, member: str, relation: str) -> str:
    """The querent's 身 (卦身, line 3) and a line carrying the other spouse's birth branch (line 6)."""
    return chart(
        "hunyin",
        f"""r:b dk:position 3 ; dk:role role:guashen ; dk:moving true {relation} .
            r:m dk:position 6 ; dk:mingOf member:{member} .""",
        f"dk:line r:b , r:m ; dk:querentSex sex:{sex}",
    )


def test_body_combining_spouses_ming_marries_early(kg):
    """夫身爻起處合妻之命爻，見妻必早；妻身爻起合夫之命爻，婦嫁必早."""
    ids = LQ + "qu-hun-bi-zao"
    assert fired(kg, _body_and_spouse("male", "wife", "; dk:he r:m"), ids) == {ids + ".nan": {"applies"}}
    assert fired(kg, _body_and_spouse("female", "husband", "; dk:he r:m"), ids) == {ids + ".nv": {"applies"}}
    # a woman's 身 combining with the wife's 命 is neither case
    assert fired(kg, _body_and_spouse("female", "wife", "; dk:he r:m"), ids) == {}
    # 娶婚必早: the marriage comes, and early, a hope fulfilled
    early = [
        a.polarity
        for a in run(kg, _body_and_spouse("male", "wife", "; dk:he r:m"))[1]
        if a.rule_id == ids + ".nan"
    ]
    assert early == ["吉"]


def _brother_and_wife(sex: str, brother: str, wife: str) -> str:
    """交重兄弟克妻身: a 兄弟 line (``brother``: its further facts) overcoming the wife's line (``wife``)."""
    return chart(
        "liuqin-fuqi",
        f"""r:x dk:position 2 ; dk:relative rel:xiongdi ; {brother} ; dk:ke r:w .
            r:w dk:position 5 ; dk:relative rel:guangui ; {wife} .""",
        f"dk:line r:x , r:w ; dk:querentSex sex:{sex}",
    )


def test_brother_overcoming_the_wife_remarriage(kg):
    """交重兄弟克妻身，再理絲絃 (妻身爻起臨兄弟之爻，發動傷身命，或夫臨兄弟爻克妻之身命)."""
    ids = LQ + "zai-li-si-xian"
    # a woman asking: a moving 兄弟 overcomes her 身
    assert fired(kg, _brother_and_wife("female", "dk:moving true", "dk:role role:guashen"), ids) == {
        ids: {"applies"}
    }
    assert fired(kg, _brother_and_wife("female", "dk:moving false", "dk:role role:guashen"), ids) == {}
    # 夫臨兄弟爻克妻之身命, the husband asking: his 身, a still 兄弟, overcomes his wife's 命
    husband = _brother_and_wife("male", "dk:moving false ; dk:role role:guashen", "dk:mingOf member:wife")
    assert fired(kg, husband, ids) == {ids: {"applies"}}
    # her 身 on a moving 兄弟 with her 命 elsewhere, nothing overcoming it: 發動傷身命 names a hurt
    own = _brother_and_wife("female", "dk:moving true ; dk:role role:guashen", "dk:role role:ming")
    assert fired(kg, own.replace(" ; dk:ke r:w", ""), ids) == {}


def test_husband_and_wife_fall_out(kg):
    """夫身爻並日辰動刑妻命，主夫不和妻 … 或妻命沖夫身 … 主夫妻反目: the husband's 身 has the day's branch and
    moves (並日辰 said of one line, 動 after it)."""
    ids = LQ + "fuqi-fan-mu"
    punish = chart(
        "liuqin-fuqi",
        """r:b dk:position 3 ; dk:role role:guashen ; dk:moving true ; dk:bing r:d ; dk:xing r:m .
           r:m dk:position 6 ; dk:mingOf member:wife .
           r:d dk:pillarKind pillar:day .""",
        "dk:line r:b , r:m ; dk:dayPillar r:d ; dk:querentSex sex:male",
    )
    assert fired(kg, punish, ids) == {ids + ".fu": {"applies"}}
    still = punish.replace("dk:moving true", "dk:moving false")
    assert fired(kg, still, ids) == {}
    # moving, but without the day's branch
    assert fired(kg, punish.replace(" ; dk:bing r:d", ""), ids) == {}
    clash = _body_and_spouse("female", "husband", "").replace("topic:hunyin", "topic:liuqin-fuqi")
    clash = clash.replace("dk:mingOf member:husband", "dk:mingOf member:husband ; dk:chong r:b")
    assert fired(kg, clash, ids) == {ids + ".fan-mu": {"applies"}}


def _brothers(younger: str) -> str:
    """The elder brother's 命 (line 2) with the day's branch, and the younger's 命 (line 5, ``younger``: its
    facts)."""
    return chart(
        "liuqin-xiongdi",
        f"""r:a dk:position 2 ; dk:mingOf member:elder-brother ; dk:ke r:b ; dk:bing r:d .
            r:b dk:position 5 ; {younger} .
            r:d dk:pillarKind pillar:day .""",
        "dk:line r:a , r:b ; dk:dayPillar r:d",
    )


def test_brothers_with_the_day_overcome_each_other(kg):
    """兄帶日辰克弟身命爻，弟帶日辰克兄身命爻，主兄弟不和，互相凌虐: either brother's 命, with the day's branch,
    overcoming the other's."""
    ids = LQ + "xiongdi-wu-qing"
    assert fired(kg, _brothers("dk:mingOf member:younger-brother"), ids) == {ids: {"applies"}}
    # the line overcome is the son's 命, not the younger brother's
    assert fired(kg, _brothers("dk:mingOf member:son"), ids) == {}
    # the elder's 命 without the day's branch
    assert fired(kg, _brothers("dk:mingOf member:younger-brother").replace(" ; dk:bing r:d", ""), ids) == {}


def _ruin(sex: str, wife: str, husband: str) -> str:
    """妻身命爻…剋夫身命爻: the wife's line (line 2, ``wife``) overcoming the husband's (line 4, ``husband``)."""
    return chart(
        "liuqin-fuqi",
        f"""r:w dk:position 2 ; {wife} ; dk:ke r:h .
            r:h dk:position 4 ; {husband} .""",
        f"dk:line r:w , r:h ; dk:querentSex sex:{sex}",
    )


def test_wife_on_the_husbands_house_stars(kg):
    """妻犯夫家之殺，妻破夫家 (夫家破耗二殺所臨之位，妻身命爻犯之剋夫身命爻): the stars are not defined, so the wife's
    身命 overcoming the husband's is offered to consider."""
    ids = LQ + "po-fu-jia"
    assert fired(kg, _ruin("female", "dk:role role:guashen", "dk:mingOf member:husband"), ids) == {
        ids: {"consider"}
    }
    assert fired(kg, _ruin("male", "dk:mingOf member:wife", "dk:role role:ming"), ids) == {ids: {"consider"}}
    # the husband overcoming the wife is not the case
    reverse = _ruin("male", "dk:role role:ming", "dk:mingOf member:wife")
    assert fired(kg, reverse, ids) == {}


def test_xuanwu_or_peach_blossom_on_the_ming_lust(kg):
    """玄武桃花犯命中，荒淫酒色 (身命帶玄武桃花，主貪酒色，男則粘紅綴綠，女則葉人牽惹): one verdict, whatever the sex."""
    ids = LQ + "huang-yin"
    lust = chart("liuqin", "r:m dk:position 4 ; dk:role role:ming ; dk:beast beast:xuanwu .", "dk:line r:m")
    assert fired(kg, lust, ids) == {ids: {"applies"}}
    assert fired(kg, lust.replace("dk:line r:m", "dk:line r:m ; dk:querentSex sex:female"), ids) == {
        ids: {"applies"}
    }
    # 玄武 on a line that is neither the 身 nor the 命
    assert fired(kg, lust.replace("dk:role role:ming ; ", ""), ids) == {}


def test_husbands_body_on_wifes_ming(kg):
    """夫身起合妻爻，將身就婦 (夫身爻起，臨妻命爻): the husband's 身 carries the wife's birth branch; 男臨女子互爻 is
    offered to consider (only one half of 互 can be tested)."""
    ids, lewd = LQ + "jiang-shen-jiu-fu", LQ + "yin-yu"
    on_ming = chart(
        "hunyin",
        "r:b dk:position 2 ; dk:role role:guashen ; dk:mingOf member:wife .",
        "dk:line r:b ; dk:querentSex sex:male",
    )
    assert fired(kg, on_ming, ids) == {ids: {"applies"}}
    assert fired(kg, on_ming.replace("member:wife", "member:son"), ids) == {}
    couple = on_ming.replace("topic:hunyin", "topic:liuqin-fuqi")
    assert fired(kg, couple, lewd) == {lewd: {"consider"}}
    assert fired(kg, couple.replace("sex:male", "sex:female"), lewd) == {}


@pytest.mark.parametrize(("relative", "fires"), [("qicai", True), ("xiongdi", False)])
def test_day_branch_combining_a_side_wealth_remarries(kg, relative, fires):
    """並日辰合傍爻之財，主再娶 (¶100): no subject and no saying beside which line, so a line with the day's branch
    combining with a 財 is offered to consider; combining with a 兄弟 is not 合…之財."""
    ids = LQ + "zai-qu-pang-yao"
    body = f"""r:x dk:position 3 ; dk:bing r:d ; dk:he r:f .
               r:f dk:position 4 ; dk:relative rel:{relative} .
               r:d dk:pillarKind pillar:day ."""
    reading = chart("hunyin", body, "dk:line r:x , r:f ; dk:dayPillar r:d ; dk:pillar r:d")
    assert fired(kg, reading, ids) == ({ids: {"consider"}} if fires else {})


@pytest.mark.parametrize(("member", "fires"), [("wife", True), ("son", False)])
def test_husband_and_wife_combining_before_marriage(kg, member, fires):
    """若夫妻互相合，主先奸後娶 (¶102): the 若 clause names its own condition, his line and hers combining, with no
    身 on a 命: a man's 命爻 combining with his wife's 命; the same 合 with his son's 命 is no 夫妻互相合."""
    ids = LQ + "xian-jian-hou-qu"
    couple = chart(
        "liuqin-fuqi",
        f"""r:h dk:position 3 ; dk:role role:ming ; dk:he r:w .
            r:w dk:position 6 ; dk:mingOf member:{member} .""",
        "dk:line r:h , r:w ; dk:querentSex sex:male",
    )
    assert fired(kg, couple, ids) == ({ids: {"applies"}} if fires else {})


def test_husbands_moving_ming_with_the_day(kg):
    """或夫命爻動並日辰為之，將身就婦也: 為之 does not say what the 命 does, so the husband's 命 moving with the day's
    branch is offered to consider (the querent's 命爻 when he asks, else his 命 given as a member's)."""
    ids = LQ + "jiang-shen-jiu-fu-ming"
    own = chart(
        "hunyin",
        """r:h dk:position 4 ; dk:role role:ming ; dk:moving true ; dk:bing r:d .
           r:d dk:pillarKind pillar:day .""",
        "dk:line r:h ; dk:dayPillar r:d ; dk:querentSex sex:male",
    )
    assert fired(kg, own, ids) == {ids: {"consider"}}
    wife_asks = own.replace("dk:role role:ming", "dk:mingOf member:husband").replace("sex:male", "sex:female")
    assert fired(kg, wife_asks, ids) == {ids: {"consider"}}
    # a woman's own 命爻 is not her husband's
    assert fired(kg, own.replace("sex:male", "sex:female"), ids) == {}
    # the 命 without the day's branch
    assert fired(kg, own.replace(" ; dk:bing r:d", ""), ids) == {}


def test_ying_flies_into_the_house_outsider_husband(kg):
    """應爻飛入宅，與妻身命相生相合，主招外人入舍為夫 (¶92): the 變卦's 應 with the branch of the 宅 (line 2), moving
    or not, combining with the wife's 命."""
    ids = LQ + "ru-she-wei-fu"
    body = """r:z dk:position 2 .
              r:v dk:role role:changed-ying ; dk:bing r:z ; dk:he r:w .
              r:w dk:position 4 ; dk:mingOf member:wife ."""
    links = "dk:line r:z , r:w ; dk:entity r:z , r:v , r:w"
    assert fired(kg, chart("hunyin", body, links), ids) == {ids: {"applies"}}
    # the 變卦's 應 on another branch has not flown into the 宅
    assert fired(kg, chart("hunyin", body.replace("dk:bing r:z", "dk:chong r:z"), links), ids) == {}


@pytest.mark.parametrize(("place", "fires"), [
    ("dk:position 5", True),  # 夫位: line 5, 夫身五爻 (¶82)
    ("dk:position 4 ; dk:bing r:d", True),  # 日辰: the day's branch
    ("dk:position 4", False),
])  # fmt: skip
def test_wife_takes_the_child_and_remarries(kg, place, fires):
    """妻命帶子孫動臨夫位日辰，主妻引子嫁人是也 (¶94): the wife's 命 a moving 子孫 on the husband's place or with the
    day's branch."""
    ids = LQ + "yin-zi-jia-ren"
    body = f"""r:m {place} ; dk:relative rel:zisun ; dk:moving true ; dk:mingOf member:wife .
               r:d dk:pillarKind pillar:day ."""
    reading = chart("hunyin", body, "dk:line r:m ; dk:dayPillar r:d ; dk:pillar r:d")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


def test_wifes_ming_from_the_household_combining_ying(kg):
    """妻身命爻，與應相合咸池玄武桃花，主妻有外情夫: the wife's 命 given as a member's, whoever asks."""
    ids = LQ + "si-tong"
    affair = chart(
        "liuqin-fuqi",
        """r:w dk:position 3 ; dk:relative rel:fumu ; dk:mingOf member:wife ; dk:he r:y ; dk:beast beast:xuanwu .
           r:y dk:position 6 ; dk:role role:ying .""",
        "dk:line r:w , r:y",
    )
    assert fired(kg, affair, ids) == {ids: {"applies"}}
    assert fired(kg, affair.replace("member:wife", "member:mother"), ids) == {}
    # 咸池玄武桃花 follows the wife's line: 玄武 on the 應 alone is not hers
    on_ying = affair.replace(" ; dk:beast beast:xuanwu .", " .").replace(
        "dk:role role:ying .", "dk:role role:ying ; dk:beast beast:xuanwu ."
    )
    assert fired(kg, on_ying, ids) == {}


def test_husband_on_wifes_lu_in_guai(kg):
    """如甲子生妻祿在寅，夫身命爻臨之 … 若逢梟神羊刃空鬼耗破殺，雖食妻祿亦無用矣: in 澤天夬 (坤宮, 土) with the
    wife born 甲子 (祿 of 甲 at 寅) and the husband born 丙寅, line 2 甲寅 carries both, and Wood is the 官鬼 of an
    Earth palace (鬼): the 祿 is of no use."""
    members = {"members": ["妻=甲子", "夫=丙寅"]}
    _, results = cast(kg, "庚寅 戊寅 癸亥", "777778", "夫妻", members)
    assert bound(results, LQ + "shi-qi-lu-wu-yong") == [{"L": "line/2"}]
    # 不逢空鬼破耗等殺: the 鬼 on the line takes it out of the 吉 trigger
    assert bound(results, LQ + "shi-qi-lu", "consider") == []


def test_husband_on_wifes_lu_month_broken(kg):
    """若逢梟神羊刃空鬼耗破殺，雖食妻祿亦無用矣: 耗破殺 are the paragraph's 夫家破耗二殺, stars with no table, not 月破:
    a month-broken line of the wife's 祿 carrying the husband's 命 is not judged of no use, and stays offered as
    夫食妻祿 (不逢空鬼破耗等殺); void, it is of no use."""
    lu = chart(
        "liuqin-fuqi",
        """r:l dk:position 2 ; dk:relative rel:fumu ; dk:luOf member:wife ; dk:mingOf member:husband ;
              dk:void false ; dk:monthBroken true ; dk:vital true .""",
        "dk:line r:l",
    )
    assert fired(kg, lu, LQ + "shi-qi-lu") == {LQ + "shi-qi-lu": {"consider"}}
    void = lu.replace("dk:void false", "dk:void true")
    assert fired(kg, void, LQ + "shi-qi-lu") == {LQ + "shi-qi-lu-wu-yong": {"applies"}}
    # 不逢…等殺: with 羊刃 on the line it is of no use, and no longer offered as 夫食妻祿
    blade = lu.replace("dk:vital true", "dk:vital true ; dk:shensha star:yangren")
    assert fired(kg, blade, LQ + "shi-qi-lu") == {LQ + "shi-qi-lu-wu-yong": {"applies"}}
    # 劫煞 is one of those 殺 too, though the failing case does not name it
    robbery = lu.replace("dk:vital true", "dk:vital true ; dk:shensha star:jiesha")
    assert fired(kg, robbery, LQ + "shi-qi-lu") == {}


def _ghost_combines(target: str, sex: str = "") -> str:
    """夫婦合爻見鬼: a 官鬼 line combining with line 5 (``target``: its facts)."""
    return chart(
        "hunyin",
        f"""r:g dk:position 2 ; dk:relative rel:guangui ; dk:he r:t .
            r:t dk:position 5 ; {target} .""",
        "dk:line r:g , r:t" + (f" ; dk:querentSex sex:{sex}" if sex else ""),
    )


def test_ghost_combines_a_spouses_line(kg):
    """夫合之爻，妻合之爻見鬼，主婚姻不明: the line combining with the husband's or the wife's line (their 身命) is
    a 官鬼; a 官鬼 combining with a 妻財 line is not a spouse's line."""
    ids = LQ + "hun-pei-bu-ming"
    assert fired(kg, _ghost_combines("dk:role role:guashen", "male"), ids) == {ids: {"applies"}}
    assert fired(kg, _ghost_combines("dk:role role:ming", "female"), ids) == {ids: {"applies"}}
    assert fired(kg, _ghost_combines("dk:mingOf member:husband"), ids) == {ids: {"applies"}}
    # the querent's 身 with no sex given is no spouse's 身
    assert fired(kg, _ghost_combines("dk:role role:guashen"), ids) == {}
    assert fired(kg, _ghost_combines("dk:relative rel:qicai", "male"), ids) == {}


def _plot(wife: str, sex: str = "male") -> str:
    """若帶咸池與應爻相合，並日辰動爻帶亡，劫刑刃等殺，剋夫身命爻: the moving 妻財 with 咸池 combines with the 應,
    carries 羊刃 (``wife``: further facts) and overcomes the 命爻."""
    return chart(
        "liuqin-fuqi",
        f"""r:f dk:position 3 ; dk:relative rel:qicai ; dk:shensha star:taohua {wife} ; dk:he r:y ; dk:ke r:m .
            r:y dk:position 6 ; dk:role role:ying .
            r:m dk:position 1 ; dk:role role:ming .""",
        f"dk:line r:f , r:y , r:m ; dk:querentSex sex:{sex}",
    )


def test_wife_plots_against_husband(kg):
    """主妻與外人謀殺夫主: the wife's line itself moves (或並日辰), carries the 殺 and overcomes the husband's 命,
    the querent being the husband."""
    ids = LQ + "mou-sha"
    assert fired(kg, _plot(", star:yangren ; dk:moving true"), ids) == {ids: {"applies"}}
    # the husband's 身命 are the querent's only when he asks
    assert fired(kg, _plot(", star:yangren ; dk:moving true", "female"), ids) == {}
    # the wife's line neither moves nor has the day's branch
    assert fired(kg, _plot(", star:yangren ; dk:moving false"), ids) == {}


def test_plot_on_a_moving_yin_line_is_still_to_come(kg):
    """臨交爻主未來之事: the plotting wife's line a moving yin line; the clause keeps the plot's conditions, so a
    moving yin 咸池 妻財 combining with the 應 that carries no 殺 and does not punish the 命 is no plot to come."""
    ids = LQ + "wei-lai"
    assert fired(kg, _plot(", star:yangren ; dk:moving true ; dk:yinYang yy:yin"), ids) == {ids: {"applies"}}
    assert fired(kg, _plot("; dk:moving true ; dk:yinYang yy:yin"), ids) == {}
    assert fired(kg, _plot(", star:yangren ; dk:moving true ; dk:yinYang yy:yang"), ids) == {}


def _husband_hurts(ghost: str) -> str:
    """夫並日辰動爻，帶劫刃刑等殺傷妻命爻: a moving 官鬼 (``ghost``: its further facts) and a woman's 命爻."""
    return chart(
        "liuqin-fuqi",
        f"""r:g dk:position 2 ; dk:relative rel:guangui ; dk:moving true {ghost} .
            r:m dk:position 5 ; dk:role role:ming .""",
        "dk:line r:g , r:m ; dk:querentSex sex:female",
    )


def test_husband_with_sha_overcomes_wifes_ming(kg):
    """主遭夫毒手: 等殺 adds 亡神 to 劫刃; 傷 is 克, so a 官鬼 that only punishes her 命 does not 傷 it."""
    ids = LQ + "fu-du-shou"
    assert fired(kg, _husband_hurts("; dk:shensha star:wangshen ; dk:ke r:m"), ids) == {ids: {"applies"}}
    assert fired(kg, _husband_hurts("; dk:xing r:m ; dk:ke r:m"), ids) == {ids: {"applies"}}
    assert fired(kg, _husband_hurts("; dk:shensha star:yangren ; dk:xing r:m"), ids) == {}


def _xuanwu(*relations: str) -> str:
    """玄武傷財 under 若刑刃兩全帶殺: the 玄武 line carries 羊刃 and acts on the 財 (``relations``)."""
    acts = " ; ".join(f"{relation} r:f" for relation in relations)
    return chart(
        "shenming",
        f"""r:x dk:position 1 ; dk:beast beast:xuanwu ; dk:shensha star:yangren ; {acts} .
            r:f dk:position 4 ; dk:relative rel:qicai .""",
        "dk:line r:x , r:f",
    )


def test_xuanwu_blade_and_punishment_hurt_wealth(kg):
    """玄武傷財，劫賊圖財致命之事: 刑 and 刃 both (刑刃兩全), on the 財 the line hurts (傷 = 克, as 克身)."""
    ids = SM + "jie-zei"
    assert fired(kg, _xuanwu("dk:xing", "dk:ke"), ids) == {ids: {"applies"}}
    # 刃 without 刑: 刃無刑禍亦不大
    assert fired(kg, _xuanwu("dk:ke"), ids) == {}
    # 刑 without 傷 (丑刑戌, both 土)
    assert fired(kg, _xuanwu("dk:xing"), ids) == {}


# ── 身命 ¶110–116 ────────────────────────────────────────────────────────────────────────


def test_day_overcoming_the_body_offers_death_qi(kg):
    """命逢死氣，最嫌煞忌當頭 (若日辰動爻並殺，倘克身命): the chart puts no 殺 on the day, so the day overcoming the
    身 is offered alone; a still line with 劫煞 overcoming it is no 動爻並殺."""
    ids = SM + "si-qi"
    body = "r:b dk:position 3 ; dk:role role:guashen .\n"
    day = chart(
        "shenming",
        body + "r:d dk:pillarKind pillar:day ; dk:ke r:b .",
        "dk:line r:b ; dk:dayPillar r:d ; dk:pillar r:d",
    )
    assert fired(kg, day, ids) == {ids: {"consider"}}
    still = chart(
        "shenming",
        body + "r:x dk:position 6 ; dk:moving false ; dk:shensha star:jiesha ; dk:ke r:b .",
        "dk:line r:b , r:x",
    )
    assert fired(kg, still, ids) == {}
    assert fired(kg, still.replace("dk:moving false", "dk:moving true"), ids) == {ids: {"consider"}}


def _ghost_ming_in_tomb(body: str) -> str:
    """命爻帶鬼入墓: the querent's 命 line a 官鬼 entombed by the day."""
    return chart(
        "shenming",
        f"""r:m dk:position 4 ; dk:role role:ming ; dk:relative rel:guangui ; dk:entombedBy r:d .
            r:b dk:position 1 ; dk:role role:guashen {body} .
            r:d dk:pillarKind pillar:day .""",
        "dk:line r:m , r:b ; dk:dayPillar r:d ; dk:pillar r:d ; dk:entity r:m , r:b , r:d",
    )


def test_ghost_ming_entombed_body_with_sha(kg):
    """鬼入墓鄉，尤忌身爻濺血 (怕身爻帶殺或受刑)."""
    ids = SM + "gui-ru-mu"
    assert fired(kg, _ghost_ming_in_tomb("; dk:shensha star:jiesha"), ids) == {ids: {"applies"}}
    # the 身 neither carries a 殺 nor is punished
    assert fired(kg, _ghost_ming_in_tomb(""), ids) == {}


def _xing_ren(extra: str = "", reading: str = "") -> str:
    """刑刃兩全，克身臨官: a 官鬼 line carrying 羊刃 that punishes and overcomes the 身."""
    return chart(
        "shenming",
        f"""r:x dk:position 3 ; dk:relative rel:guangui ; dk:shensha star:yangren ; dk:xing r:b ; dk:ke r:b .
            r:b dk:position 6 ; dk:role role:guashen .
            {extra}""",
        "dk:line r:x , r:b" + (" , r:l" if extra else "") + reading,
    )


def test_three_punishments_and_blade(kg):
    """惡莫惡於三刑迭刃 … 若刑刃兩全帶殺，克身臨官，主犯官符刑憲事: the 若 heads its clauses up to the full stop
    after 劫賊圖財致命之事, so the callings and 龍德 of the next sentence neither lift nor add to it."""
    base, official, fisher, dragon = (SM + n for n in ("san-xing-die-ren", "wei-guan", "yu-lie", "long-de"))
    ids = (base, official, fisher, dragon)
    assert fired(kg, _xing_ren(), *ids) == {base: {"applies"}}
    as_official = _xing_ren(reading=" ; dk:querentOccupation occupation:official")
    assert fired(kg, as_official, *ids) == {base: {"applies"}}
    moving_dragon = _xing_ren(
        "r:l dk:position 1 ; dk:beast beast:qinglong ; dk:moving true .",
        " ; dk:querentOccupation occupation:fishing-hunting",
    )
    assert fired(kg, moving_dragon, *ids) == {base: {"applies"}}
    no_blade = _xing_ren().replace("dk:shensha star:yangren ;", "")
    assert fired(kg, no_blade, *ids) == {}


def test_four_tigers_whole_house_and_dragon(kg):
    """若帶鬼殺重重並喪吊凶神，舉家遭禍。死亡十幾八九，若卦中龍德動，主喜事至則稍輕，是悲喜相半之兆: two text-only
    outcomes, the second under a moving 青龍 or 德; the 若 clause keeps 重重臨宅克身, the 宅 overcoming the 卦身."""
    house, softer = SM + "ju-jia-zao-huo", SM + "ju-jia-zao-huo-long-de"
    body = """r:x dk:position 2 ; dk:role role:zhai ; dk:relative rel:guangui ; dk:ke r:b .
              r:y dk:position 3 ; dk:shensha star:sangmen .
              r:b dk:position 5 ; dk:role role:guashen ."""
    links = "dk:line r:x , r:y , r:b"
    assert fired(kg, chart("shenming", body, links), house) == {house: {"consider"}}
    dragon = body + "\nr:l dk:position 4 ; dk:beast beast:qinglong ; dk:moving true ."
    assert fired(kg, chart("shenming", dragon, links + " , r:l"), house) == {
        house: {"consider"},
        softer: {"consider"},
    }
    # a 官鬼 overcoming the 身 from another line than the 宅 (臨宅)
    assert fired(kg, chart("shenming", body.replace("role:zhai", "role:shi"), links), house) == {}
    # the 宅 官鬼 that does not overcome the 身
    assert fired(kg, chart("shenming", body.replace(" ; dk:ke r:b", ""), links), house) == {}


def test_four_tigers_on_the_house_overcoming_the_body(samples):
    """凶莫凶於四虎交加 (…重重臨宅克身，主刑剋伏制之事): the tigers are undefined stars, so the 宅 overcoming the 卦身,
    what they do, is offered to consider; the 宅 overcoming the 世 is not 克身."""
    ids = SM + "si-hu"
    body = """r:z dk:position 2 ; dk:role role:zhai ; dk:ke r:b .
              r:b dk:position 5 ; dk:role role:guashen ."""
    assert fired(samples, chart("shenming", body, "dk:line r:z , r:b"), ids) == {ids: {"consider"}}
    on_shi = body.replace("role:guashen", "role:shi")
    assert fired(samples, chart("shenming", on_shi, "dk:line r:z , r:b"), ids) == {}


def _shi_ying(actor: str, target: str) -> str:
    return chart(
        "shenming",
        f"""r:s dk:position 2 ; dk:role role:shi .
            r:y dk:position 5 ; dk:role role:ying .
            r:{actor} dk:moving true ; dk:shensha star:jiesha ; dk:ke r:{target} .""",
        "dk:line r:s , r:y",
    )


def test_shi_or_ying_with_sha_overcoming_the_other(kg):
    """世並日辰動爻，克應帶殺，主我傷他人；應並日辰動爻帶殺克世，主他人殺我."""
    ids = SM + "shi-ying-sha"
    assert fired(kg, _shi_ying("s", "y"), ids) == {ids + ".wo": {"applies"}}
    assert fired(kg, _shi_ying("y", "s"), ids) == {ids + ".ta": {"applies"}}
    still = _shi_ying("s", "y").replace("dk:moving true", "dk:moving false")
    assert fired(kg, still, ids) == {}


def test_callings_of_the_one_who_wounds(kg):
    """世並日辰動爻，克應帶殺，主我傷他人 … 為官掌生死之權，名揚夷夏，若漁獵技藝之人。禍當滅沒，否則疲癃殘疾之人，
    若龍德發動，則凶中有吉之象: the callings qualify the 世 that wounds the 應, and 龍德 the fisher's ruin."""
    wo, official, fisher, dragon = (SM + n for n in ("shi-ying-sha.wo", "wei-guan", "yu-lie", "long-de"))
    ids = (SM + "shi-ying-sha", official, fisher, dragon)

    def calling(occupation: str, extra: str = "") -> str:
        turtle = _shi_ying("s", "y").replace("dk:line r:s , r:y", f"dk:line r:s , r:y ; {occupation}")
        return turtle + extra

    assert fired(kg, calling("dk:querentOccupation occupation:official"), *ids) == {
        wo: {"overridden"},
        official: {"applies"},
    }
    fishing = calling("dk:querentOccupation occupation:fishing-hunting")
    assert fired(kg, fishing, *ids) == {wo: {"applies"}, fisher: {"applies"}}
    with_dragon = calling(
        "dk:line r:l ; dk:querentOccupation occupation:fishing-hunting",
        "\nr:l dk:position 1 ; dk:beast beast:qinglong ; dk:moving true .",
    )
    assert fired(kg, with_dragon, *ids) == {wo: {"applies"}, fisher: {"overridden"}, dragon: {"applies"}}
    # 他人殺我: the 應 wounding the 世 gives the official no power over life and death
    official_hurt = _shi_ying("y", "s").replace(
        "dk:line r:s , r:y", "dk:line r:s , r:y ; dk:querentOccupation occupation:official"
    )
    assert fired(kg, official_hurt, *ids) == {SM + "shi-ying-sha.ta": {"applies"}}


def _pillar_ghost(kind: str, relative: str = "guangui") -> str:
    """三傳克世: a pillar, a 官鬼, overcoming the 世."""
    return chart(
        "shenming",
        f"""r:s dk:position 4 ; dk:role role:shi .
            r:t dk:pillarKind pillar:{kind} ; dk:relative rel:{relative} ; dk:ke r:s .""",
        "dk:line r:s ; dk:pillar r:t",
    )


def test_year_month_day_ghost_overcoming_shi(kg):
    """三傳克世，易惹災危 … 太歲，連年之禍，月建主累月之災殃."""
    ids = SM + "san-chuan-ke-shi"
    assert fired(kg, _pillar_ghost("year"), ids) == {ids + ".sui": {"applies"}}
    assert fired(kg, _pillar_ghost("month"), ids) == {ids + ".yue": {"applies"}}
    assert fired(kg, _pillar_ghost("day"), ids) == {ids + ".ri": {"applies"}}
    # the hour is not one of the 三傳, and a pillar that is no 官鬼 does not count
    assert fired(kg, _pillar_ghost("hour"), ids) == {}
    assert fired(kg, _pillar_ghost("year", "fumu"), ids) == {}


def _ghost_on_body(relative: str) -> str:
    """貼身鬼 in the outer trigram 坎 of the 本卦."""
    return chart(
        "shenming",
        f"""r:b dk:position 5 ; dk:role role:guashen ; dk:relative rel:{relative} ; dk:half half:outer .
            r:p dk:innerTrigram tri:li ; dk:outerTrigram tri:kan .""",
        "dk:line r:b ; dk:primaryHexagram r:p",
    )


def test_ghost_on_body_illness_by_trigram(kg):
    """坎主兩耳腎間之疾 (the trigram of the 貼身鬼); 四鬼貼身，防生災咎 is offered to consider."""
    ids, four = SM + "tie-shen-gui-ji", SM + "si-gui-tie-shen"
    assert fired(kg, _ghost_on_body("guangui"), ids, four) == {ids + ".kan": {"applies"}, four: {"consider"}}
    assert fired(kg, _ghost_on_body("fumu"), ids, four) == {}


def _robbery_and_loss(wang_hurts: str, relative: str = "guangui", target: str = "guashen") -> str:
    """劫亡兩賊傷身: a 劫煞 line, and a 亡神 line of ``relative`` with ``wang_hurts`` (its relations) on the ``target``."""
    return chart(
        "shenming",
        f"""r:b dk:position 3 ; dk:role role:{target} .
            r:x dk:position 1 ; dk:shensha star:jiesha .
            r:w dk:position 6 ; dk:relative rel:{relative} ; dk:shensha star:wangshen {wang_hurts} .""",
        "dk:line r:b , r:x , r:w",
    )


def test_jiesha_or_wangshen_hurting_the_body(kg):
    """劫亡兩賊傷身，青草墳頭之鬼, restated 亡神劫殺帶鬼，傷身克命: the two stars are always 巳亥 or 寅申, and nothing is
    overcome by both Fire and Water, or both Wood and Metal, so one of them, carrying the 官鬼, overcomes the 身 or
    the 命."""
    ids = SM + "jie-wang-liang-zei"
    assert fired(kg, _robbery_and_loss("; dk:ke r:b"), ids) == {ids: {"applies"}}
    assert fired(kg, _robbery_and_loss("; dk:ke r:b", target="ming"), ids) == {ids: {"applies"}}
    # 帶鬼: a 亡神 line that is no 官鬼
    assert fired(kg, _robbery_and_loss("; dk:ke r:b", relative="xiongdi"), ids) == {}
    # 傷身 is 克 (本命受鬼克為傷身, ¶76): a 害 is not
    assert fired(kg, _robbery_and_loss("; dk:hai r:b"), ids) == {}
    # neither thief hurts the 身
    assert fired(kg, _robbery_and_loss(""), ids) == {}


def _both_void(ghost: str) -> str:
    """身命兩空: the 卦身 and the 命 line both void and at 絕; a 官鬼 with 亡神 (``ghost``: its relations)."""
    return chart(
        "shenming",
        f"""r:b dk:position 3 ; dk:role role:guashen ; dk:void true ; dk:stage stage:jue .
            r:m dk:position 5 ; dk:role role:ming ; dk:void true ; dk:stage stage:jue .
            r:g dk:position 1 ; dk:relative rel:guangui ; dk:shensha star:wangshen {ghost} .""",
        "dk:line r:b , r:m , r:g",
    )


def test_body_and_ming_both_void_meet_sha(kg):
    """身命兩空遇殺，黃泉路上之人 (身命逢絕，在旬中空亡，亡神劫殺帶鬼，傷身克命): 傷身克命 lists two objects, either
    overcome."""
    ids = SM + "liang-kong"
    assert fired(kg, _both_void("; dk:ke r:m"), ids) == {ids: {"applies"}}
    assert fired(kg, _both_void("; dk:ke r:b"), ids) == {ids: {"applies"}}
    # 傷 is 克: a 沖 of the 身 is not
    assert fired(kg, _both_void("; dk:chong r:b"), ids) == {}
    # the 命 not void: one void only
    one_void = _both_void("; dk:ke r:m").replace("role:ming ; dk:void true", "role:ming ; dk:void false")
    assert fired(kg, one_void, ids) == {}


def _wife_shi_ying_frame(kind: str, wife: str) -> str:
    """A woman's 卦身 (``wife``: its facts), the 世 and the 應 as members of one frame of ``kind``."""
    return chart(
        "liuqin-fuqi",
        f"""r:w dk:position 2 ; {wife} .
            r:s dk:position 4 ; dk:role role:shi .
            r:y dk:position 1 ; dk:role role:ying .
            r:j dk:frameKind frame:{kind} ; dk:member r:w , r:s , r:y .""",
        "dk:line r:w , r:s , r:y ; dk:frame r:j ; dk:querentSex sex:female",
    )


def test_wife_shi_and_ying_in_one_three_harmony(kg):
    """並世應在三合之爻，主從良為娼: her line beside the 世 and the 應, three lines of one complete 三合."""
    ids = LQ + "cong-liang-wei-chang"
    assert fired(kg, _wife_shi_ying_frame("complete", "dk:role role:guashen"), ids) == {ids: {"applies"}}
    # a frame waiting for its third branch (虛一待用) is no 三合
    assert fired(kg, _wife_shi_ying_frame("xuyi", "dk:role role:guashen"), ids) == {}
    # her 身 on the 世 itself: the 世 and the 應 alone, not her line beside them
    on_shi = _wife_shi_ying_frame("complete", "dk:role role:guashen").replace(
        "r:s dk:position 4 ; dk:role role:shi", "r:s dk:position 4 ; dk:role role:shi , role:guashen"
    )
    assert (
        fired(kg, on_shi.replace("r:w dk:position 2 ; dk:role role:guashen", "r:w dk:position 2"), ids) == {}
    )


@pytest.mark.parametrize(("frame", "yinyang", "fires"), [
    ("complete", "yin", True),
    ("complete", "yang", False),  # a moving yang line is no 交爻
    ("xuyi", "yin", False),  # the clause narrows 從良為娼: without the complete 三合 it is silent
])  # fmt: skip
def test_heart_not_cut_off_narrows_the_three_harmony(kg, frame, yinyang, fires):
    """並世應在三合之爻，主從良為娼，日辰臨交爻，主心意未絕 (¶102): the day on a moving yin line, under the 三合."""
    ids = LQ + "xin-yi-wei-jue"
    three = _wife_shi_ying_frame(frame, "dk:role role:guashen")
    reading = three.replace(
        "dk:frame r:j ;", "dk:frame r:j ; dk:dayPillar r:d ; dk:pillar r:d ; dk:line r:x ;"
    )
    reading += f"""r:x dk:position 6 ; dk:moving true ; dk:yinYang yy:{yinyang} .
                   r:d dk:pillarKind pillar:day ; dk:bing r:x ."""
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


def test_wife_on_a_ghost_parted(kg):
    """妻身命爻值鬼爻 … 主是生離之婦 (¶106): text-only, offered on her 身 or 命 on a 官鬼."""
    ids = LQ + "sheng-li-gui"
    body = "r:w dk:position 3 ; dk:role role:ming ; dk:relative rel:{rel} ."
    links = "dk:line r:w ; dk:querentSex sex:female"
    assert fired(kg, chart("hunyin", body.format(rel="guangui"), links), ids) == {ids: {"consider"}}
    assert fired(kg, chart("hunyin", body.format(rel="qicai"), links), ids) == {}


@pytest.mark.parametrize(("line", "moving", "fires"), [
    ("r:f dk:relative rel:qicai ; dk:chong r:s", "false", True),  # 財交世應六沖: the verse, no 動
    ("r:f dk:role role:guashen ; dk:chong r:x", "true", True),  # 與世應動爻相沖: her 身 and a moving line
    ("r:f dk:role role:guashen ; dk:chong r:x", "false", False),
    ("r:f dk:relative rel:qicai ; dk:chong r:x", "true", False),  # the 財 against another moving line
])  # fmt: skip
def test_wife_parted_while_both_live(kg, line, moving, fires):
    """財交世應六沖，必是生離之婦 (或妻身命爻與世應動爻相沖，或日辰相沖)."""
    ids = LQ + "sheng-li"
    body = f"""{line} ; dk:position 2 .
               r:s dk:position 5 ; dk:role role:shi ; dk:moving false .
               r:x dk:position 3 ; dk:relative rel:fumu ; dk:moving {moving} ."""
    reading = chart("hunyin", body, "dk:line r:f , r:s , r:x ; dk:querentSex sex:female")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(("clash", "fires"), [
    ("r:y dk:pillarKind pillar:year ; dk:chong r:f .", True),  # 逢沖: the year is a pillar as much as the day
    ("r:y dk:pillarKind pillar:year . r:x dk:chong r:f .", False),  # a still line is no agent
])  # fmt: skip
def test_spouse_from_another_prefecture(kg, clash, fires):
    """世應在日辰旬中隔斷妻爻 … 在日辰旬外逢沖，主是外郡之人: the 世 and the 應 in the day's 旬, the 妻財 between them
    outside it, clashed."""
    ids = LQ + "wai-jun"
    body = f"""r:s dk:position 2 ; dk:role role:shi ; dk:inDayXun true .
               r:f dk:position 3 ; dk:relative rel:qicai ; dk:role role:jian ; dk:inDayXun false .
               r:t dk:position 5 ; dk:role role:ying ; dk:inDayXun true .
               r:x dk:position 6 ; dk:moving false .
               {clash}"""
    links = "dk:line r:s , r:f , r:t , r:x ; dk:yearPillar r:y ; dk:pillar r:y ; dk:entity r:s , r:f , r:t , r:x , r:y"
    assert fired(kg, chart("hunyin", body, links), ids) == ({ids: {"applies"}} if fires else {})


def test_man_and_wealth_next_to_each_other(kg):
    """男與財爻相近，俱在本宮或卦中，主婚姻近處就中: the 官鬼 and the 妻財 on neighbouring lines, in one trigram or
    across the two; or both hidden (本宮) under neighbouring lines; not one of each."""
    ids = LQ + "jin-qin"
    across = """r:g dk:position 4 ; dk:relative rel:guangui ; dk:above r:f .
                r:f dk:position 3 ; dk:relative rel:qicai ."""
    assert fired(kg, chart("hunyin", across, "dk:line r:g , r:f"), ids) == {ids: {"applies"}}
    hidden = """r:a dk:position 4 ; dk:relative rel:xiongdi ; dk:above r:b .
                r:b dk:position 3 ; dk:relative rel:xiongdi .
                r:hg dk:position 4 ; dk:relative rel:guangui ; dk:under r:a .
                r:hf dk:position 3 ; dk:relative rel:qicai ; dk:under r:b ."""
    links = "dk:line r:a , r:b ; dk:hiddenLine r:hg , r:hf ; dk:entity r:a , r:b , r:hg , r:hf"
    assert fired(kg, chart("hunyin", hidden, links), ids) == {ids: {"applies"}}
    mixed = hidden.replace(
        "r:a dk:position 4 ; dk:relative rel:xiongdi", "r:a dk:position 4 ; dk:relative rel:guangui"
    )
    mixed = mixed.replace(
        "r:hg dk:position 4 ; dk:relative rel:guangui", "r:hg dk:position 4 ; dk:relative rel:fumu"
    )
    assert fired(kg, chart("hunyin", mixed, links), ids) == {}


def test_kin_match_keeps_the_hidden_pair(kg):
    """合見子孫，主因親致親，或故親為媒 narrows the case just judged, 男與財爻相近，俱在本宮或卦中, and keeps its
    conditions: the 官鬼 and the 妻財 both hidden under neighbouring lines, a 子孫 line combining one of them
    (second reading, round 22); with no 子孫 combining, the marriage is only near (近處就中)."""
    ids = (LQ + "jin-qin", LQ + "yin-qin-zhi-qin")
    hidden = """r:a dk:position 4 ; dk:relative rel:xiongdi ; dk:above r:b .
                r:b dk:position 3 ; dk:relative rel:xiongdi .
                r:z dk:position 6 ; dk:relative rel:zisun .
                r:hg dk:position 4 ; dk:relative rel:guangui ; dk:under r:a .
                r:hf dk:position 3 ; dk:relative rel:qicai ; dk:under r:b ."""
    links = "dk:line r:a , r:b , r:z ; dk:hiddenLine r:hg , r:hf ; dk:entity r:a , r:b , r:z , r:hg , r:hf"
    combined = hidden + "\nr:z dk:he r:hf . r:hf dk:he r:z ."
    assert fired(kg, chart("hunyin", combined, links), *ids) == {
        LQ + "jin-qin": {"applies"},
        LQ + "yin-qin-zhi-qin": {"applies"},
    }
    assert fired(kg, chart("hunyin", hidden, links), *ids) == {LQ + "jin-qin": {"applies"}}


def test_pian_zheng_zhi_fu_offered_on_the_three_harmony(kg):
    """世應妻爻三合 … 妻爻更逢兩鬼。合身命: the 世, the 應 and a 財 are never on the three branches of one 三合, and
    where two of them share one in a complete frame no 官鬼 combines with her 身 or 命, so the sentence is offered
    where the three are members of one complete frame: 水天需 (坤宮) with lines 3 and 4 moving makes the 申子辰
    frame of the 世 戊申, the 應 甲子 and the 財 戊子 (line 6). 風地觀 with lines 1–4 moving leaves its 亥卯未 frame of
    the 應 乙未, the 財 乙卯 and the 世 辛未 waiting for 亥 (虛一待用), no 三合; on a 亥 day the day completes it, beside
    the two 官鬼 乙巳 and 辛巳, and with no 申 line to combine with them."""
    _, results = cast(kg, "庚寅 戊寅 甲子", "779678", "婚姻", {"sex": "女"})
    offered = bound(results, LQ + "pian-zheng-zhi-fu", "consider")
    assert [(b["S"], b["Y"], b["F"]) for b in offered] == [("line/4", "line/1", "line/6")]
    _, latent = cast(kg, "庚寅 戊寅 甲子", "666677", "婚姻", {"sex": "女", "birth": "申"})
    assert bound(latent, LQ + "pian-zheng-zhi-fu", "consider") == []
    _, day = cast(kg, "庚寅 戊寅 乙亥", "666677", "婚姻", {"sex": "女"})
    assert [(b["S"], b["Y"], b["F"]) for b in bound(day, LQ + "pian-zheng-zhi-fu", "consider")] == [
        ("line/4", "line/1", "line/3")
    ]


def _beasts(attacker: str, victim: str, victim_relative: str) -> str:
    return chart(
        "shenming",
        f"""r:x dk:position 2 ; dk:beast beast:{attacker} ; dk:ke r:y .
            r:y dk:position 4 ; dk:beast beast:{victim} ; dk:relative rel:{victim_relative} .""",
        "dk:line r:x , r:y",
    )


def test_gouchen_and_baihu(kg):
    """勾陳傷玄武之身財，女多凶禍，白虎損青龍之官鬼，男忌死亡."""
    ids = SM + "gou-chen-bai-hu"
    assert fired(kg, _beasts("gouchen", "xuanwu", "qicai"), ids) == {ids + ".nv": {"applies"}}
    assert fired(kg, _beasts("baihu", "qinglong", "guangui"), ids) == {ids + ".nan": {"applies"}}
    assert fired(kg, _beasts("baihu", "qinglong", "qicai"), ids) == {}


# ── worked cases, cast with the generator ────────────────────────────────────────────────


def cast(
    kg: KnowledgeGraph, pillars: str, lines: str, topic: str, querent: dict[str, str] | None = None
) -> tuple[str, list[Applicable]]:
    """The reading IRI and the rules that apply (``kg reading liuyao --pillars … --lines … --topic …``)."""
    ch = chart_from_inputs(None, pillars, lines, None, None, None)
    iri = reading_iri(ch)
    facts = chart_graph(ch, iri, vocabulary().topic(topic), querent)
    return str(iri), retrieve(kg, Reading(facts))


def bound(results: list[Applicable], rule_id: str, status: str = "applies") -> list[dict[str, str]]:
    """The bindings (variable → entity path under the reading) of each application of ``rule_id``."""
    return [
        {v: e.split("/reading/", 1)[1].split("/", 1)[1] for v, e in a.bindings.items()}
        for a in results
        if a.rule_id == rule_id and a.status == status
    ]


def test_daguo_shi_flies_into_the_house(kg):
    """假如大過卦內巽辛亥為宅，外兌丁亥持世發動是也: 澤風大過 (震宮 游魂, 世 line 4 丁亥) with the 世 moving;
    the 宅 is line 2 辛亥 (巽 辛丑 辛亥 辛酉)."""
    _, results = cast(kg, "庚寅 戊寅 癸亥", "877978", "家宅")
    found = bound(results, LQ + "que-ju-jiu-chao")
    assert {"S": "line/4", "Z": "line/2"} in [{k: b[k] for k in ("S", "Z")} for b in found]


@pytest.mark.parametrize(("lines", "fires"), [
    ("777876", True),  # 水天需 (坤宮 游魂), line 6 戊子 財 moving: 戊戌 兄弟 below it, the 官鬼 甲寅 on line 2
    ("877776", False),  # 澤風大過 (震宮 游魂), line 6 丁未 財 moving: the 官鬼 丁酉 below it, 辛酉 on line 3
])  # fmt: skip
def test_husband_parted_from_the_moving_wife(kg, lines, fires):
    """夫隔妻爻，妻動在游魂世應之外，主他州人也: the moving 財 outside the 世 (line 4) and the 應 (line 1) of a 游魂
    hexagram, and no 官鬼 next to it, a 官鬼 beside it being the paragraph's 相近 (男與財爻相近 … 近處就中); a 官鬼
    parted from it elsewhere does not part the husband from the wife (second reading, round 23)."""
    _, results = cast(kg, "庚寅 戊寅 癸亥", lines, "婚姻")
    found = [(b["F"], b["G"]) for b in bound(results, LQ + "ta-zhou")]
    assert found == ([("line/6", "line/2")] if fires else [])


def test_qian_zhi_gen_shi_flies_into_the_house(kg):
    """如乾之艮卦，內卦甲寅木爻為宅，外卦丙寅爻持世: 乾 lines 1, 2, 4, 5 move; 艮's 世 (line 6) is 丙寅."""
    _, results = cast(kg, "庚寅 戊寅 癸亥", "997997", "家宅")
    assert bound(results, LQ + "que-ju-jiu-chao")


def test_day_and_ghost_flying_into_the_house_stay_text_only(kg):
    """或並日辰與鬼飛入宅爻: no subject, so only offered for consideration where the day has the 宅's branch,
    even with a moving 官鬼 on that branch."""
    ids = LQ + "que-ju-jiu-chao"
    body = """r:z dk:position 2 ; dk:branch br:yin .
              r:g dk:position 5 ; dk:relative rel:guangui ; dk:moving true ; dk:bing r:z .
              r:d dk:pillarKind pillar:day ; dk:bing r:z ."""
    links = "dk:line r:z , r:g ; dk:dayPillar r:d ; dk:pillar r:d"
    assert fired(kg, chart("jiazhai", body, links), ids) == {ids + "-ri-gui": {"consider"}}
    other_day = body.replace("dk:pillarKind pillar:day ; dk:bing r:z", "dk:pillarKind pillar:day")
    assert fired(kg, chart("jiazhai", other_day, links), ids) == {}


def test_false_palace_zisun_hidden_under_the_ming_stays_text_only(kg):
    """或日辰是假宮，飛來伏在身命爻下，主為人異姓過房之子: offered where a 子孫 伏神 lies under the 身 or 命."""
    ids = LQ + "yi-xing-guo-fang"
    body = """r:m dk:position 3 ; dk:role role:ming .
              r:o dk:position 4 .
              r:h dk:position 3 ; dk:relative rel:zisun ; dk:under r:m ."""
    links = "dk:line r:m , r:o ; dk:hiddenLine r:h"
    assert fired(kg, chart("zisi", body, links), ids) == {ids + "-ri": {"consider"}}
    # under a line that is neither the 身 nor the 命
    assert fired(kg, chart("zisi", body.replace("dk:under r:m", "dk:under r:o"), links), ids) == {}


def test_jin_zhi_dun_true_and_false_brothers(kg):
    """晉卦己酉金是世 … 離己酉金假弟，遁卦外有乾卦，壬申金 … 是真兄弟: 火地晉 (乾宮 游魂, 世 line 4 己酉 in the
    outer 離) with lines 3 and 5 moving into 天山遯, whose line 5 is 壬申 in the outer 乾."""
    _, results = cast(kg, "庚寅 戊寅 癸亥", "886767", "兄弟")
    assert {"L": "line/4"} in [{"L": b["L"]} for b in bound(results, LQ + "zhen-jia-xiongdi.jia")]
    assert {"L": "changed/5"} in [{"L": b["L"]} for b in bound(results, LQ + "zhen-jia-xiongdi-bian.zhen")]
    assert bound(results, LQ + "liang-xing-xiongdi", "consider")


def test_gou_zhi_mingyi_renshen_true_brother(kg):
    """姤之明夷卦，壬申金是真兄弟: 天風姤 (乾宮) line 5 壬申 in the outer 乾."""
    _, results = cast(kg, "庚寅 戊寅 癸亥", "697999", "兄弟")
    assert {"L": "line/5"} in [{"L": b["L"]} for b in bound(results, LQ + "zhen-jia-xiongdi.zhen")]


def test_heng_zhi_guan_on_xinchou_secret_wealth(kg):
    """命帶玄武財爻有暗來妻財，如辛丑日下得恆觀卦是: on a 辛 day 玄武 is on line 2 (白虎 starts line 1), 雷風恆's
    辛亥 父母, no 財, so the example does not say how the 財 goes with the 命: the 命 with 玄武 is offered to
    consider. For a querent born in a 亥 year line 2 is the 命爻. Lines 2–6 move into 風地觀."""
    _, results = cast(kg, "甲子 丙寅 辛丑", "899966", "婚姻", {"birth": "亥"})
    assert bound(results, LQ + "an-lai-qi-cai", "consider") == [{"M": "line/2"}]
    # a querent born in a 子 year has no 命 line in 恆 (丑 亥 酉 午 申 戌)
    _, other = cast(kg, "甲子 丙寅 辛丑", "899966", "婚姻", {"birth": "子"})
    assert bound(other, LQ + "an-lai-qi-cai", "consider") == []
