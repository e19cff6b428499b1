"""A 大六壬 chart as RDF: every fact rules may ask about, in the vocabulary of ontology/divkg.ttl.

:func:`chart_graph` asserts the reading (day 干支, 局, 月將, 占時, 晝/夜, 貴人 順/逆, 課體, 年命,
calendar record, options), its entities — the twelve 天盤 spirits (神) with their 地盤 seat, 天將 (of
the reading's plate, with its 五行 and 入廟, and those of the 晝 and the 夜 plate), 旬空/落空, 遁干, 六親,
旺相休囚死, 十二長生 and 神煞 (丁神, 魁罡, the day stem's 祿神, 日德 and 墓神, 生氣 and 死氣 of the month,
喪門 and 弔客 of the year, and the stars of the day branch's 三合 group: 驛馬 桃花 將星 華蓋 劫煞 災煞 亡神
謀星, kg/shensha.py); the day
stem (干) in its 寄宮; the day branch (支); the pillars (四直) that are known — the 四課 and the 三傳 as links
to the spirits, and the relations (生 克 比和 of elements; 沖 合 刑 害 破 並 of branches) between every ordered pair of
distinct entities. The 干 takes part in the branch relations by its 寄宮 (支干相沖: 癸 寄丑 沖 未;
docs/liuren-doctrine.md §5.4). Rules are compiled to SPARQL over exactly these facts (docs/architecture.md §5);
booleans are asserted both true and false so a rule can test either.

Entity IRIs live under the reading IRI: ``<reading>/spirit/<branch slug>`` (the spirit named by its
天盤 branch, e.g. ``/spirit/xu`` for 河魁 戌), ``/gan``, ``/zhi``, ``/lesson/1`` … ``/lesson/4``,
``/pillar/year|month|day|hour``, ``/option/<Options field>``. There are no blank nodes, and the
same chart always gives the same graph.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache

import pyoxigraph as ox
from rdflib import Graph, URIRef

from kg.calendar import zhongqi_within_a_minute
from kg.facts import (
    BOOLEAN,
    BRANCHES,
    DK,
    ELEMENTS,
    GANZHI,
    PILLAR_KINDS,
    PILLAR_LINKS,
    RDF,
    RELATIVES,
    STEMS,
    YIN_YANG,
    FactBuilder,
    Facts,
    concept,
)
from kg.facts import reading_iri as _reading_iri
from kg.ganzhi import Branch, Element, GanZhi, SeasonalState, dun_stem, stage
from kg.liuren.chart import Chart
from kg.liuren.four_lessons import Relation
from kg.liuren.generals import TEMPLE_TABLES, DayNight, General
from kg.liuren.plates import LODGING, RANK, month_general
from kg.shensha import GROUP_STARS, LU, MU_SHEN, QI_STARS, RI_DE, YEAR_STARS

KETI_SLUGS: dict[str, str] = {
    "元首": "yuanshou",
    "重審": "chongshen",
    "知一": "zhiyi",
    "涉害": "shehai",
    "見機": "jianji",
    "察微": "chawei",
    "綴瑕": "zhuixia",
    "涉害深": "shehai-shen",
    "遙克": "yaoke",
    "蒿矢": "haoshi",
    "彈射": "danshe",
    "蓦越": "moyue",
    "昴星": "maoxing",
    "虎視": "hushi",
    "冬蛇掩目": "yanmu",
    "別責": "biezhe",
    "八專": "bazhuan",
    "獨足": "duzu",
    "伏吟": "fuyin",
    "自任": "ziren",
    "自信": "zixin",
    "杜傳": "duchuan",
    "返吟": "fanyin",
    "無依": "wuyi",
    "井欄": "jinglan",
    "稼穡": "jiase",
    "從革": "congge",
    "曲直": "quzhi",
    "炎上": "yanshang",
    "潤下": "runxia",
    "進茹": "jinru",
    "退茹": "tuiru",
    "間傳": "jianchuan",
    "元胎": "yuantai",
    "鑄印": "zhuyin",
    "三交": "sanjiao",
    "斬關": "zhanguan",
    "閉口": "bikou",
    "羅網": "luowang",
    "勵德": "lide",
    "斫輪": "zhuolun",
    "度厄": "due",
    "亂首": "luanshou",
    "贅婿": "zhuixu",
    "遊子": "youzi",
    "天網": "tianwang",
}
"""Each 課體 of :data:`kg.liuren.keti.KETI` → its dk:KetiScheme slug (ontology/concepts/keti.ttl)."""

ZEIKE = frozenset(("元首", "重審", "知一", "涉害"))
"""The sub-types of the 賊克 門 (keti:zeike): a chart with one of them also carries 賊克."""

_LESSON_RELATION: dict[Relation, ox.NamedNode] = {
    Relation.SHANG_KE_XIA: concept("relation", "shangkexia"),
    Relation.XIA_ZEI_SHANG: concept("relation", "xiazeishang"),
    Relation.SHANG_SHENG_XIA: concept("relation", "shangshengxia"),
    Relation.XIA_SHENG_SHANG: concept("relation", "xiashengshang"),
    Relation.BI_HE: concept("relation", "lesson-bihe"),
}
"""上克下, 下賊上, 上生下, 下生上, 上下比和 → dk:RelationScheme concepts."""

_GENERAL_RELATION = tuple(concept("relation", r) for r in ("bihe", "sheng", "ke", "kejiang", "shengjiang"))
"""dk:generalRelation by (spirit element − general element) mod 5 in the order 木火土金水: 比和,
將生神, 將克神, 神克將, 神生將."""

_SEAT_RELATION = tuple(
    concept("relation", r)
    for r in ("lesson-bihe", "shangshengxia", "shangkexia", "xiazeishang", "xiashengshang")
)
"""dk:seatRelation by (seat element − spirit element) mod 5: 比和, 上生下, 上克下, 下賊上 (the seat
overcomes the spirit), 下生上."""

PILLAR_NAMES = {"year": "太歲", "month": "月建", "day": "日辰", "hour": "時"}
"""The 四直 as the texts name them."""

_GENERALS = tuple(concept("general", g.slug) for g in General)
_STATES = tuple(concept("state", s.slug) for s in SeasonalState)
_SEAT_CLASSES = tuple(concept("seat", RANK[b].slug) for b in Branch)
"""天將, 六親, 旺相休囚死 and the 孟仲季 of each 地盤 branch, as concepts by index."""

_STAGES = tuple(tuple(concept("stage", stage(e, b).slug) for b in Branch) for e in Element)
"""十二長生 of element e at 地盤 branch b, ``[e][b]``."""


@cache
def _spirit_label(branch: Branch, earth: Branch, general: General | None) -> str:
    """The label of a 天盤 spirit: its 月將 name and branch 加 the 地盤 branch, 乘 its 天將 (勝光 午 加 子 乘 白虎)."""
    label = f"{month_general(branch).name} {branch.char} 加 {earth.char}"
    return label if general is None else f"{label} 乘 {general.char}"


@cache
def _dun_stems(day: GanZhi) -> tuple[ox.NamedNode | None, ...]:
    """遁干 of each branch on ``day`` (None for its 旬空)."""
    return tuple(None if (s := dun_stem(day, b)) is None else STEMS[s] for b in Branch)


_KUIGANG = (Branch.CHEN, Branch.XU)
"""魁罡: 天罡 辰 and 河魁 戌."""

QUERENT = ("sex", "occupation")
"""The querent facts (:data:`kg.facts.QUERENT_FACTS`) the 大六壬 texts condition on: 《直指》 ¶42 妻占 (女),
¶32 仕宦占者 and ¶36 在朝官員 (為官)."""


def reading_iri(chart: Chart, name: str | None = None) -> URIRef:
    """The IRI of a reading: ``reading:<name>``, or by default ``reading:liuren-<hash>`` with a hash
    of the chart's inputs (moment, or day, 局, 月將, 占時, 月建; options; 年命, 行年)."""
    if chart.calendar is not None and chart.calendar.moment is not None:
        when = chart.calendar.moment.isoformat()
    else:
        general = None if chart.month_general is None else chart.month_general.branch
        when = (
            " ".join("-" if x is None else x.char for x in (general, chart.hour, chart.month))
            + f" {chart.day.name} {chart.ju}"
        )
    options = [(f.name, str(getattr(chart.options, f.name))) for f in fields(chart.options)]
    querent = [None if u is None else u.branch.char for u in (chart.birth, chart.walking_year)]
    return _reading_iri(name, "liuren", f"{when}|{options}|{querent}")


class _Builder(FactBuilder):
    """The triples of one 大六壬 chart."""

    def __init__(self, chart: Chart, reading: URIRef) -> None:
        super().__init__(reading)
        self.chart = chart
        self.spirit_iris = tuple(self.iri(f"spirit/{b.slug}") for b in Branch)
        """``<reading>/spirit/<slug>`` of each 天盤 branch."""
        self.gan, self.zhi = self.iri("gan"), self.iri("zhi")
        """The day stem and the day branch."""

    # ── the reading ──────────────────────────────────────────────────────────────────────────

    def reading_facts(self, topic: URIRef | None, querent: dict[str, str] | None = None) -> None:
        """Inputs, 晝/夜 and 貴人 順/逆, 課體, 年命, the querent's sex and calling, calendar record and options."""
        chart, r, spirit = self.chart, self.reading, self.spirit_iris
        self.add(r, RDF.type, DK.Reading)
        self.add(r, DK.label, ox.Literal(f"大六壬 {chart.day.name}日 第{chart.ju}局"))
        self.add(r, DK.system, DK.LiuRen)
        if topic is not None:
            self.add(r, DK.topic, ox.NamedNode(str(topic)))
        self.add(r, DK.dayGanzhi, GANZHI[chart.day.index])
        self.add(r, DK.ju, ox.Literal(chart.ju))
        if chart.month_general is not None:
            self.add(r, DK.monthGeneral, BRANCHES[chart.month_general.branch])
        if chart.hour is not None:
            self.add(r, DK.hourBranch, BRANCHES[chart.hour])
        if chart.day_night is not None:
            self.add(r, DK.dayNight, concept("dn", "day" if chart.day_night is DayNight.DAY else "night"))
        if (procession := chart.procession) is not None:
            self.add(r, DK.nobleDirection, concept("dir", "forward" if procession.forward else "backward"))
        names = set(chart.keti_names)
        for keti in chart.keti:
            self.add(r, DK.keti, concept("keti", KETI_SLUGS[keti.name]))
        if names & ZEIKE:
            self.add(r, DK.keti, concept("keti", "zeike"))
        if chart.birth is not None:
            self.add(r, DK.birthBranch, BRANCHES[chart.birth.branch])
            self.add(r, DK.birthSpirit, spirit[chart.birth.upper])
        self.querent(querent or {}, QUERENT)
        if chart.walking_year is not None:
            self.add(r, DK.walkingYearBranch, BRANCHES[chart.walking_year.branch])
            self.add(r, DK.walkingYearSpirit, spirit[chart.walking_year.upper])
        if chart.pillars is not None:
            self.add(r, DK.yearSpirit, spirit[chart.upper(chart.pillars.year.branch)])
        if chart.month is not None:
            self.add(r, DK.monthSpirit, spirit[chart.upper(chart.month)])
        if len({lesson.upper for lesson in chart.lessons}) < 4:
            self.add(r, DK.keti, concept("keti", "bubei"))
        moment = None if chart.calendar is None else chart.calendar.moment
        self.calendar(chart.calendar, zhongqi_within_a_minute(moment))
        self.options(chart.options)

    # ── entities ─────────────────────────────────────────────────────────────────────────────

    def stars(self) -> dict[Branch, list[ox.NamedNode]]:
        """The 神煞 on each 天盤 branch: 丁神, the day branch's 三合-group stars, 魁罡, the day stem's 祿神,
        日德 and 墓神, 生氣 and 死氣 of the month and 喪門 and 弔客 of the year when they are known."""
        chart = self.chart
        day = chart.day
        found = [("dingshen", chart.ding)]
        found += [(table.slug, table.at(day.branch)) for table in GROUP_STARS]
        found += [("kuigang", branch) for branch in _KUIGANG]
        found += [
            ("lu", LU.at(day.stem)),
            ("ride", RI_DE.at(day.stem)),
            ("mushen", MU_SHEN[chart.options.stem_tomb].at(day.stem)),
        ]
        if chart.month is not None:
            found += [(table.slug, table.at(chart.month)) for table in QI_STARS]
        if chart.pillars is not None:
            found += [(table.slug, table.at(chart.pillars.year.branch)) for table in YEAR_STARS]
        stars: dict[Branch, list[ox.NamedNode]] = {}
        for slug, branch in found:
            if isinstance(branch, Branch):
                stars.setdefault(branch, []).append(concept("star", slug))
        return stars

    def spirits(self) -> None:
        """The twelve 天盤 spirits (神) with what sits under and rides on them."""
        chart = self.chart
        day = chart.day
        stem_element = day.stem.element
        temple = TEMPLE_TABLES[chart.options.temple_table]
        stars = self.stars()
        dun_stems = _dun_stems(day)
        spirit = self.spirit_iris
        t = self.triples
        for seat in chart.seats:
            branch, earth = seat.heaven, seat.earth
            element = branch.element
            iri = spirit[branch]
            self.entity(
                iri, DK.Spirit, _spirit_label(branch, earth, seat.general), DK.spirit, branch, element
            )
            t += (
                (iri, DK.branch, BRANCHES[branch]),
                (iri, DK.yinYang, YIN_YANG[branch.is_yang]),
                (iri, DK.seat, BRANCHES[earth]),
                (iri, DK.seatClass, _SEAT_CLASSES[earth]),
                (iri, DK.dayGeneral, _GENERALS[seat.day_general]),
                (iri, DK.nightGeneral, _GENERALS[seat.night_general]),
                (iri, DK.void, BOOLEAN[seat.void]),
                (iri, DK.seatVoid, BOOLEAN[seat.fallen_void]),
                (iri, DK.relative, RELATIVES[(element - stem_element) % 5]),
                (iri, DK.stage, _STAGES[element][earth]),
                (iri, DK.seatRelation, _SEAT_RELATION[(earth.element - element) % 5]),
                (iri, DK.yinSpirit, spirit[chart.upper(branch)]),
            )
            if (general := seat.general) is not None:
                t += (
                    (iri, DK.general, _GENERALS[general]),
                    (iri, DK.generalRelation, _GENERAL_RELATION[(element - general.element) % 5]),
                    (iri, DK.generalElement, ELEMENTS[general.element]),
                    (iri, DK.inTemple, BOOLEAN[branch == temple.home(general)]),
                )
            if (dun := dun_stems[branch]) is not None:
                t.append((iri, DK.dunStem, dun))
            if seat.state is not None:
                t.append((iri, DK.seasonalState, _STATES[seat.state]))
            t += [(iri, DK.shensha, star) for star in stars.get(branch, ())]

    def gan_zhi(self) -> None:
        """The day stem (干, lodged in its 寄宮, which stands for it in 沖 合 刑 害 破 並) and the day branch (支)."""
        stem, branch = self.chart.day
        gan, zhi = self.gan, self.zhi
        lodging = LODGING[stem]
        self.entity(gan, DK.DayStem, f"日干 {stem.char} 寄{lodging.char}", DK.gan, lodging, stem.element)
        self.add(gan, DK.stem, STEMS[stem])
        self.add(gan, DK.yinYang, YIN_YANG[stem.is_yang])
        self.add(gan, DK.lodging, BRANCHES[lodging])
        self.entity(zhi, DK.DayBranch, f"日支 {branch.char}", DK.zhi, branch, branch.element)
        self.add(zhi, DK.branch, BRANCHES[branch])
        self.add(zhi, DK.yinYang, YIN_YANG[branch.is_yang])

    def pillars(self) -> None:
        """The 四直 that are known: all four from a moment; otherwise the day 干支, and the 月建
        and 占時 branches (their stems unknown)."""
        chart = self.chart
        if chart.pillars is not None:
            known: dict[str, GanZhi | Branch | None] = {
                "year": chart.pillars.year,
                "month": chart.pillars.month,
                "day": chart.pillars.day,
                "hour": chart.pillars.hour,
            }
        else:
            known = {"month": chart.month, "day": chart.day, "hour": chart.hour}
        stem_element = chart.day.stem.element
        for kind, value in known.items():
            if value is None:
                continue
            branch = value.branch if isinstance(value, GanZhi) else value
            name = value.name if isinstance(value, GanZhi) else value.char
            iri = self.iri(f"pillar/{kind}")
            self.entity(iri, DK.Pillar, f"{PILLAR_NAMES[kind]} {name}", DK.pillar, branch, branch.element)
            self.add(self.reading, PILLAR_LINKS[kind], iri)
            self.add(iri, DK.pillarKind, PILLAR_KINDS[kind])
            self.add(iri, DK.branch, BRANCHES[branch])
            if isinstance(value, GanZhi):
                self.add(iri, DK.stem, STEMS[value.stem])
                self.add(iri, DK.ganzhi, GANZHI[value.index])
            self.add(iri, DK.relative, RELATIVES[(branch.element - stem_element) % 5])

    # ── 四課, 三傳, relations ───────────────────────────────────────────────────────────────────

    def lessons(self) -> None:
        """四課: upper spirit, lower (干 for 1課, 支 for 3課, the spirit of the lower branch for 2課 and
        4課), 生克 relation; 干上神, 支上神 and the distinct uppers (課上神)."""
        chart, r, spirit = self.chart, self.reading, self.spirit_iris
        for lesson in chart.lessons:
            iri = self.iri(f"lesson/{lesson.number}")
            upper = spirit[lesson.upper]
            if lesson.number == 1:
                lower = self.gan
            elif lesson.number == 3:
                lower = self.zhi
            else:
                assert isinstance(lesson.lower, Branch)
                lower = spirit[lesson.lower]
            label = f"{lesson.number}課 {lesson.upper.char}/{lesson.lower.char} {lesson.relation.char}"
            self.triples += (
                (r, DK.lesson, iri),
                (iri, RDF.type, DK.Lesson),
                (iri, DK.label, ox.Literal(label)),
                (iri, DK.lessonNumber, ox.Literal(lesson.number)),
                (iri, DK.upper, upper),
                (iri, DK.lower, lower),
                (iri, DK.lessonRelation, _LESSON_RELATION[lesson.relation]),
                (r, DK.lessonUpper, upper),
            )
        self.add(r, DK.ganShang, spirit[chart.gan_shang])
        self.add(r, DK.zhiShang, spirit[chart.zhi_shang])

    def transmissions(self) -> None:
        """三傳: 初傳 (發用), 中傳, 末傳 as links to their spirits."""
        for predicate, branch in zip(
            (DK.firstTransmission, DK.middleTransmission, DK.lastTransmission),
            self.chart.derivation.branches,
            strict=True,
        ):
            spirit = self.spirit_iris[branch]
            self.add(self.reading, predicate, spirit)
            self.add(self.reading, DK.transmission, spirit)


def chart_facts(
    chart: Chart, reading: URIRef, topic: URIRef | None = None, querent: dict[str, str] | None = None
) -> Facts:
    """The chart's facts about ``reading`` (see the module doc for the IRI scheme), for retrieval.

    ``topic`` is a concept of dk:TopicScheme. The 年命 (dk:birthBranch, dk:birthSpirit) comes from
    the chart (:func:`kg.liuren.chart_from_inputs` ``birth``); ``querent`` may give ``sex`` (男 or 女)
    and ``occupation`` (為官, 漁獵 or 技藝), keys of :data:`QUERENT`.
    """
    builder = _Builder(chart, reading)
    builder.reading_facts(topic, querent)
    builder.spirits()
    builder.gan_zhi()
    builder.pillars()
    builder.lessons()
    builder.transmissions()
    builder.relations()
    return builder.facts()


def chart_graph(
    chart: Chart, reading: URIRef, topic: URIRef | None = None, querent: dict[str, str] | None = None
) -> Graph:
    """The facts of :func:`chart_facts` as an rdflib graph (Turtle output, the Python API)."""
    return chart_facts(chart, reading, topic, querent).graph()


__all__ = ["KETI_SLUGS", "PILLAR_NAMES", "QUERENT", "chart_facts", "chart_graph", "reading_iri"]
