"""A 六爻 chart as RDF: every fact rules may ask about, in the vocabulary of ontology/divkg.ttl.

:func:`chart_facts` asserts the reading (inputs, calendar record, options, querent and household),
its entities (本卦 lines, 變爻, the 變卦's 世 and 應 lines, 伏神, 四直 pillars, the querent's 年命),
the 本卦 and 變卦 figures, the 三合局 frames, the relations (生 克 沖 合 刑 害 破 比和 並) between every
ordered pair of distinct entities, and 入墓 from each line to the entities carrying its 墓. Rules are
compiled to SPARQL over exactly these facts (docs/architecture.md §5), so derived facts (暗動, 回頭克, 間爻 …)
are asserted here once rather than re-derived in every rule; booleans are asserted both true and
false so a rule can test either.

Entity IRIs live under the reading IRI: ``<reading>/line/1`` … ``/line/6``, ``/changed/<n>`` (the
變爻 of moving line n, a dk:ChangedLine; or, where line n does not move, the 變卦's own line n when it
is the 變卦's 世 or 應, a dk:ChangedStaticLine: the other static positions of the 變卦 are not
entities), ``/hidden/<n>``, ``/pillar/year|month|day|hour``, ``/natal`` (the 年命, when the querent
gives it), ``/hexagram/primary|changed``, ``/frame/<element>``, ``/option/<Options field>``. There
are no blank nodes, and the same chart always gives the same graph.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from typing import Any

import pyoxigraph as ox
from rdflib import Graph, URIRef

from kg.facts import (
    BOOLEAN,
    BRANCHES,
    DK,
    ELEMENTS,
    GANZHI,
    GANZHI_OF,
    PILLAR_KINDS,
    PILLAR_LINKS,
    RDF,
    RELATIVES,
    STEMS,
    YIN_YANG,
    FactBuilder,
    Facts,
    Node,
    concept,
)
from kg.facts import reading_iri as _reading_iri
from kg.ganzhi import Branch, Element, SeasonalState, Stage, Stem, clashes, combines, tomb
from kg.liuyao.chart import (
    MANY_MOVING,
    ChangedLine,
    ChangeRelation,
    Chart,
    FrameKind,
    HarmonyFrame,
    HiddenLine,
    Line,
    Pillar,
    Placed,
)
from kg.liuyao.hexagrams import Hexagram
from kg.liuyao.natal import Member, Natal, natal, parse_member
from kg.liuyao.six_beasts import Beast
from kg.shensha import LU
from kg.six_relatives import Relative, relative

POSITION_NAMES = ("初", "二", "三", "四", "五", "上")
"""爻位: 初爻 … 五爻, 上爻."""

PILLAR_NAMES = {"year": "太歲", "month": "月建", "day": "日辰", "hour": "時辰"}
"""The 四直 as the texts name them."""

QUERENT = ("status", "purpose", "sex", "occupation")
"""The querent facts (:data:`kg.facts.QUERENT_FACTS`) the 六爻 texts condition on."""

_CHANGE_RELATION = {
    ChangeRelation.HUITOU_SHENG: "huitou-sheng",
    ChangeRelation.HUITOU_KE: "huitou-ke",
    ChangeRelation.HUA_XIE: "hua-xie",
    ChangeRelation.HUA_HAO: "hua-hao",
    ChangeRelation.BI_HE: "hua-bihe",
}
"""回頭生, 回頭克, 化泄, 化耗, 比和 → dk:TransformationScheme slugs."""

_STATES = tuple(concept("state", s.slug) for s in SeasonalState)
_STAGES = tuple(concept("stage", s.slug) for s in Stage)
_POSITIONS = tuple(ox.Literal(n) for n in range(7))
_BEASTS = tuple(concept("beast", b.slug) for b in Beast)
_HALVES = (concept("half", "inner"), concept("half", "outer"))
"""旺相休囚死, 十二長生, 爻位 (1 … 6), 六神 and 內外 (by 爻位 ≥ 4) as nodes, by index."""

_ROLES = {
    slug: concept("role", slug)
    for slug in ("shi", "ying", "guashen", "jian", "ming", "changed-shi", "changed-ying")
}
"""The line roles (dk:role): 世, 應, 卦身, 間爻, 命, 變世, 變應."""

_COMBINING, _CLASHING = (
    tuple(next(b for b in Branch if related(a, b)) for a in Branch) for related in (combines, clashes)
)
"""The branch each branch 六合 combines with and the one it 六沖 clashes."""


def reading_iri(chart: Chart, name: str | None = None) -> URIRef:
    """The IRI of a reading: ``reading:<name>``, or by default ``reading:liuyao-<hash>`` with a hash
    of the chart's inputs (moment or pillars, line values, options), so a chart keeps its IRI."""
    record = chart.calendar
    when = " ".join(p.ganzhi.name for p in chart.pillars)
    if record.moment is not None:
        when = f"{record.moment.isoformat()} {record.zi_hour_rule}"
    inputs = f"{when}|{''.join(map(str, chart.values))}|{sorted(chart.options.changed().items())}"
    return _reading_iri(name, "liuyao", inputs)


def _placed_name(placed: Placed) -> str:
    """六親 干支 五行, e.g. 妻財甲子水."""
    return _relative_ganzhi(placed.relative, placed.stem, placed.branch)


_STAR_NODES: dict[str, ox.NamedNode] = {}
"""The concept of each 神煞 a chart has had, by name (a star's name and slug are its table's)."""


@cache
def _relative_ganzhi(relative: Relative, stem: Stem, branch: Branch) -> str:
    return f"{relative.char}{stem.char}{branch.char}{branch.element.char}"


class _Builder(FactBuilder):
    """The triples of one 六爻 chart."""

    def __init__(
        self, chart: Chart, reading: URIRef, born: Natal | None, members: tuple[Member, ...] = ()
    ) -> None:
        super().__init__(reading)
        self.chart = chart
        self.natal = born
        self.members = members
        self.year = chart.pillars[0].ganzhi.branch
        self.treasuries = chart.treasuries
        self.line_iris = {p: self.iri(f"line/{p}") for p in range(1, 7)}
        """``<reading>/line/<n>`` by position n (1 … 6)."""
        self.tomb_subjects: list[tuple[ox.NamedNode, Element]] = []
        """Entities that can enter a 墓 (lines, 變卦 lines, 伏神, the 年命), with their 五行: subjects of dk:entombedBy."""
        nodes = self.star_nodes = _STAR_NODES
        """The star concept of each 神煞, by the name the lines carry (Line.shensha)."""
        for hit in chart.shensha:
            if hit.name not in nodes:
                nodes[hit.name] = concept("star", hit.slug)

    def ganzhi(self, iri: ox.NamedNode, stem: Stem, branch: Branch) -> None:
        """干, 支 and 干支 (the entity's 五行 is its branch's, asserted with the entity)."""
        self.triples += (
            (iri, DK.stem, STEMS[stem]),
            (iri, DK.branch, BRANCHES[branch]),
            (iri, DK.ganzhi, GANZHI_OF[stem][branch]),
        )

    def treasury(self, iri: ox.NamedNode, branch: Branch) -> None:
        """X庫: the relatives whose 墓 the branch is."""
        if relatives := self.treasuries.get(branch):
            self.triples += [(iri, DK.treasuryOf, RELATIVES[rel]) for rel in relatives]

    def placed(self, iri: ox.NamedNode, placed: Placed) -> None:
        """What every line (本卦, 變卦, 伏神) has: 爻位, 干支, 六親, 旺相休囚死, 十二長生, 旬空, 月破, and
        the 命 of the querent and of the household."""
        branch = placed.branch
        self.ganzhi(iri, placed.stem, branch)
        self.treasury(iri, branch)
        self.triples += (
            (iri, DK.position, _POSITIONS[placed.position]),
            (iri, DK.relative, RELATIVES[placed.relative]),
            (iri, DK.seasonalState, _STATES[placed.seasonal]),
            (iri, DK.stage, _STAGES[placed.stage]),
            (iri, DK.void, BOOLEAN[placed.void]),
            (iri, DK.monthBroken, BOOLEAN[placed.month_broken]),
            (iri, DK.yearBroken, BOOLEAN[_CLASHING[branch] is self.year]),
            (iri, DK.vital, BOOLEAN[placed.vital]),
            (iri, DK.inDayXun, BOOLEAN[placed.in_xun]),
        )
        self.tomb_subjects.append((iri, placed.element))
        if self.natal is not None:
            if self.natal.branch == branch:
                self.add(iri, DK.role, _ROLES["ming"])
            if (natal_void := self.natal.xun_void) is not None:
                self.add(iri, DK.natalVoid, BOOLEAN[branch in natal_void])
        for member in self.members:
            person = concept("member", member.slug)
            if member.branch == branch:
                self.add(iri, DK.mingOf, person)
            if (member_void := member.xun_void) is not None and branch in member_void:
                self.add(iri, DK.natalVoidOf, person)
            if member.stem is not None and LU.at(member.stem) == branch:
                self.add(iri, DK.luOf, person)

    def stars(self, iri: ox.NamedNode, names: tuple[str, ...]) -> None:
        """神煞 carried by a line of the 本卦 or the 變卦 (its Line.shensha names, star concepts of kg.shensha)."""
        nodes = self.star_nodes
        self.triples += [(iri, DK.shensha, nodes[name]) for name in names]

    # ── the reading ──────────────────────────────────────────────────────────────────────────

    def reading_facts(self, topic: URIRef | None, querent: dict[str, Any] | None) -> None:
        chart, r = self.chart, self.reading
        changed = chart.changed_hexagram
        title = chart.hexagram.name + (f"之{changed.name}" if changed else "")
        self.add(r, RDF.type, DK.Reading)
        self.add(r, DK.label, ox.Literal(f"六爻 {title} {' '.join(p.ganzhi.name for p in chart.pillars)}"))
        self.add(r, DK.system, DK.LiuYao)
        if topic is not None:
            self.add(r, DK.topic, ox.NamedNode(str(topic)))
        self.add(r, DK.cast, ox.Literal("".join(map(str, chart.values))))
        self.add(r, DK.dayGanzhi, GANZHI[chart.day.index])
        self.calendar(chart.calendar)
        self.options(chart.options)
        querent = querent or {}
        self.querent({k: v for k, v in querent.items() if k in QUERENT}, QUERENT)
        if self.natal is not None:
            self.add(r, DK.birthBranch, BRANCHES[self.natal.branch])
            self.add(r, DK.birthElement, ELEMENTS[self.natal.element])
        for slug in _reading_classes(chart):
            self.add(r, DK.hexClass, concept("hexclass", slug))

    # ── entities ─────────────────────────────────────────────────────────────────────────────

    def line(self, line: Line, jian: range) -> None:
        """An 本卦 line: 陰陽, 動靜, 六神, 內外, 日破/暗動/沖散, 世/應/卦身/間爻, 神煞, 動變."""
        iri = self.line_iris[line.position]
        name = f"{POSITION_NAMES[line.position - 1]}爻 {_placed_name(line)}"
        self.entity(iri, DK.Line, name, DK.line, line.branch, line.element)
        self.placed(iri, line)
        self.triples += (
            (iri, DK.yinYang, YIN_YANG[line.yang]),
            (iri, DK.moving, BOOLEAN[line.moving]),
            (iri, DK.beast, _BEASTS[line.beast]),
            (iri, DK.half, _HALVES[line.position > 3]),
            (iri, DK.dayBroken, BOOLEAN[line.day_broken]),
            (iri, DK.darkMoving, BOOLEAN[line.hidden_move]),
            (iri, DK.scattered, BOOLEAN[line.dispersed]),
            (iri, DK.monthBreakRelieved, BOOLEAN[line.month_break_relieved]),
            (iri, DK.followsGhostIntoTomb, BOOLEAN[line.ghost_tomb]),
            (iri, DK.truePalace, BOOLEAN[line.true_palace]),
            (iri, DK.combiningBranch, BRANCHES[_COMBINING[line.branch]]),
            (iri, DK.clashingBranch, BRANCHES[_CLASHING[line.branch]]),
        )
        if line.position > 1:
            self.add(iri, DK.above, self.line_iris[line.position - 1])
        for role, on in (
            ("shi", line.shi),
            ("ying", line.ying),
            ("guashen", line.gua_shen),
            ("jian", line.position in jian),
        ):
            if on:
                self.add(iri, DK.role, _ROLES[role])
        self.stars(iri, line.shensha)

    def changed_line(self, changed: ChangedLine) -> None:
        """A line of the 變卦: the 變爻 of a moving line (its 動變 asserted on the moving line), or the
        變卦's own line at its 世 or 應 where the 本卦 line does not move; 變世 and 變應 as roles."""
        iri = self.iri(f"changed/{changed.position}")
        where = POSITION_NAMES[changed.position - 1]
        if changed.moving:
            name = f"變 {_placed_name(changed)} ({where}爻)"
            self.entity(iri, DK.ChangedLine, name, DK.changedLine, changed.branch, changed.element)
        else:
            name = f"變卦 {_placed_name(changed)} ({where}爻, 靜)"
            self.entity(
                iri, DK.ChangedStaticLine, name, DK.changedStaticLine, changed.branch, changed.element
            )
        self.placed(iri, changed)
        self.add(iri, DK.yinYang, YIN_YANG[changed.yang])
        self.add(iri, DK.truePalace, BOOLEAN[changed.true_palace])
        for role, on in (("changed-shi", changed.shi), ("changed-ying", changed.ying)):
            if on:
                self.add(iri, DK.role, _ROLES[role])
        self.stars(iri, changed.shensha)
        if changed.moving:
            moving = self.line_iris[changed.position]
            self.add(moving, DK.changesTo, iri)
            for slug in _transformations(changed):
                self.add(moving, DK.transformation, concept("change", slug))

    def hidden_line(self, hidden: HiddenLine) -> None:
        """A 伏神 and the 飛神 it lies under."""
        iri = self.iri(f"hidden/{hidden.position}")
        name = f"伏 {_placed_name(hidden)} ({POSITION_NAMES[hidden.position - 1]}爻下)"
        self.entity(iri, DK.HiddenLine, name, DK.hiddenLine, hidden.branch, hidden.element)
        self.placed(iri, hidden)
        self.add(iri, DK.under, self.line_iris[hidden.position])
        self.add(iri, DK.darkMoving, BOOLEAN[hidden.hidden_move])
        self.triples += [  # the 神煞 falling on its stem, then on its branch: a Stem equals the Branch of its number
            (iri, DK.shensha, self.star_nodes[hit.name])
            for key in (hidden.stem, hidden.branch)
            for hit in self.chart.shensha
            if key in hit.targets and any(target is key for target in hit.targets)
        ]

    def pillar(self, pillar: Pillar) -> None:
        """A pillar (太歲, 月建, 日辰, 時辰), its 六親 by the 本卦's palace element."""
        role, (stem, branch) = pillar.role, pillar.ganzhi
        iri = self.iri(f"pillar/{role}")
        label = f"{PILLAR_NAMES[role]} {stem.char}{branch.char}"
        self.entity(iri, DK.Pillar, label, DK.pillar, branch, branch.element)
        self.add(self.reading, PILLAR_LINKS[role], iri)
        self.add(iri, DK.pillarKind, PILLAR_KINDS[role])
        self.ganzhi(iri, stem, branch)
        palace = self.chart.hexagram.palace_element
        self.add(iri, DK.relative, RELATIVES[relative(palace, branch.element)])
        self.treasury(iri, branch)
        if pillar.role == "day" and self.chart.tian_she:
            self.add(iri, DK.shensha, concept("star", "tianshe"))

    def natal_entity(self, born: Natal) -> None:
        """The 年命 (本命): branch (and stem), element, 六親 by the palace, 旬空 by the day."""
        iri = self.iri("natal")
        label = f"年命 {born.stem.char if born.stem is not None else ''}{born.branch.char} ({born.element.char}命)"
        self.entity(iri, DK.Natal, label, DK.birthSpirit, born.branch, born.element)
        self.add(iri, DK.branch, BRANCHES[born.branch])
        if born.stem is not None:
            self.ganzhi(iri, born.stem, born.branch)
        self.add(iri, DK.relative, RELATIVES[born.relative])
        self.add(iri, DK.void, BOOLEAN[born.void])
        self.tomb_subjects.append((iri, born.element))

    # ── figures, frames, relations ──────────────────────────────────────────────────────────

    def figure(self, which: str, hexagram: Hexagram, link: ox.NamedNode) -> None:
        """本卦 or 變卦: 卦, 宮, 宮五行, 世代 (本宮 … 歸魂), 六沖/六合/八純/游魂/歸魂, 內外卦."""
        iri = self.iri(f"hexagram/{which}")
        self.add(self.reading, link, iri)
        self.triples += [(iri, p, o) for p, o in _figure_facts(which, hexagram)]
        if which == "primary":
            self.primary_facts(iri)

    def primary_facts(self, iri: ox.NamedNode) -> None:
        """不上卦, 兩現, 三五重 of each relative; 卦反吟 and 卦伏吟 of the halves (on the 本卦)."""
        chart = self.chart
        for prop, relatives in (
            (DK.absentRelative, chart.absent_relatives),
            (DK.twiceRelative, chart.twice_relatives),
            (DK.heavyRelative, chart.heavy_relatives),
        ):
            for rel in relatives:
                self.add(iri, prop, RELATIVES[rel])
        for prop, halves in ((DK.fanYin, chart.fan_yin_trigrams), (DK.fuYin, chart.fu_yin_trigrams)):
            for half in halves:
                self.add(iri, prop, concept("half", half))

    def tombs(self) -> None:
        """入墓: each line, 變卦 line, 伏神 and the 年命 to every entity carrying the 墓 of its element."""
        graves = _graves(self.chart.options.changsheng)
        carrying: dict[Branch | None, list[ox.NamedNode]] = defaultdict(list)
        for b, branch, _ in self.entities:
            carrying[branch].append(b)
        entombed = DK.entombedBy
        self.triples += [
            (a, entombed, b)
            for a, element in self.tomb_subjects
            for b in carrying[graves[element]]
            if b is not a
        ]

    def frame(self, frame: HarmonyFrame) -> None:
        """A 三合局: complete (成局) or 虛一待用, with the entities supplying its branches."""
        iri = self.iri(f"frame/{frame.element.slug}")
        self.add(self.reading, DK.frame, iri)
        self.add(iri, RDF.type, DK.Frame)
        branches = "".join(b.char for b in frame.branches)
        self.add(iri, DK.label, ox.Literal(f"{branches}{frame.element.char}局 ({frame.kind})"))
        self.add(iri, DK.element, ELEMENTS[frame.element])
        palace = self.chart.hexagram.palace_element
        self.add(iri, DK.relative, RELATIVES[relative(palace, frame.element)])
        kind = "xuyi" if frame.kind is FrameKind.LATENT else "complete"
        self.add(iri, DK.frameKind, concept("frame", kind))
        members = [self.line_iris[p] for p in frame.line_positions]
        members += [self.iri(f"changed/{p}") for p in frame.changed_positions]
        if frame.kind in (FrameKind.DAY, FrameKind.MONTH):
            members.append(self.iri(f"pillar/{frame.kind.value}"))
        for member in members:
            self.add(iri, DK.member, member)


@cache
def _graves(variant: str) -> tuple[Branch, ...]:
    """The 墓 of each 五行 under a 十二長生 variant, by element."""
    return tuple(tomb(element, variant) for element in Element)


@cache
def _figure_facts(which: str, hexagram: Hexagram) -> tuple[tuple[ox.NamedNode, Node], ...]:
    """The (predicate, object) facts of a figure that its hexagram alone decides (a chart's 本卦 or
    變卦, ``which``): 卦, 宮, 宮五行, 世代, 內外卦, 六沖/六合/八純/游魂/歸魂."""
    facts = [
        (RDF.type, DK.HexagramFigure),
        (DK.label, ox.Literal(f"{'本卦' if which == 'primary' else '變卦'} {hexagram.name}")),
        (DK.hexagram, concept("hex", hexagram.code)),
        (DK.palace, concept("pal", hexagram.palace.slug)),
        (DK.palaceElement, ELEMENTS[hexagram.palace_element]),
        (DK.generation, concept("gen", hexagram.generation.slug)),
        (DK.innerTrigram, concept("tri", hexagram.inner.slug)),
        (DK.outerTrigram, concept("tri", hexagram.outer.slug)),
    ]
    for slug, on in (
        ("liuchong", hexagram.is_liu_chong),
        ("liuhe", hexagram.is_liu_he),
        ("bachun", hexagram.is_pure),
        ("youhun", hexagram.is_wandering),
        ("guihun", hexagram.is_returning),
    ):
        if on:
            facts.append((DK.hexClass, concept("hexclass", slug)))
    return tuple(facts)


def _transformations(changed: ChangedLine) -> Iterator[str]:
    """動變 slugs of a moving line changing into ``changed`` (《增刪卜易·動變生克沖合章》, 進神退神章)."""
    if changed.relation is not None:
        yield _CHANGE_RELATION[changed.relation]
    for slug, on in (
        ("huitou-chong", changed.clashes_back),
        ("hua-he", changed.combines_back),
        ("hua-kong", changed.to_void),
        ("hua-mu", changed.to_tomb),
        ("hua-jue", changed.to_jue),
        ("hua-si", changed.to_death),
        ("hua-po", changed.to_break),
        ("jinshen", changed.advance),
        ("tuishen", changed.retreat),
        ("fuyin", changed.fu_yin),
    ):
        if on:
            yield slug


def _reading_classes(chart: Chart) -> Iterator[str]:
    """Whole-chart classes: 六沖變六合, 六合變六沖, 游魂化歸魂, 純陰/純陽 (of the 本卦), 六爻安靜, 六爻亂動,
    獨發 (one moving line), 亂動 (three or more), 卦伏吟 (a moving trigram keeping its branches)."""
    changed, moving = chart.changed_hexagram, len(chart.moving_positions)
    for slug, on in (
        ("chong-to-he", chart.chong_to_he),
        ("he-to-chong", chart.he_to_chong),
        ("youhun-to-guihun", changed is not None and chart.hexagram.is_wandering and changed.is_returning),
        ("pure-yin", not any(chart.hexagram.bits)),
        ("pure-yang", all(chart.hexagram.bits)),
        ("all-still", not moving),
        ("all-moving", moving == 6),
        ("du-fa", moving == 1),
        ("luan-dong", moving >= MANY_MOVING),
        ("gua-fuyin", bool(chart.fu_yin_trigrams)),
    ):
        if on:
            yield slug


def chart_facts(
    chart: Chart, reading: URIRef, topic: URIRef | None = None, querent: dict[str, Any] | None = None
) -> Facts:
    """The chart's facts about ``reading`` (see the module doc for the IRI scheme), for retrieval.

    ``topic`` is a concept of dk:TopicScheme; ``querent`` may give ``status`` (已遷 or 未遷),
    ``birth`` (the 年命: a branch, e.g. 子, or a 干支, e.g. 甲子), ``purpose`` (公 or 私), ``sex`` (男 or
    女), ``occupation`` (為官, 漁獵 or 技藝) and ``members``, the household's birth years (a list of
    ``妻=甲子``, kg.liuyao.natal.MEMBERS).
    """
    querent = querent or {}
    birth = querent.get("birth")
    members = tuple(parse_member(m) for m in querent.get("members", ()))
    builder = _Builder(chart, reading, None if birth is None else natal(chart, birth), members)
    builder.reading_facts(topic, querent)
    shi, ying = chart.hexagram.shi, chart.hexagram.ying
    jian = range(min(shi, ying) + 1, max(shi, ying))
    for line in chart.lines:
        builder.line(line, jian)
    for changed in chart.changed_lines:
        if changed.moving or changed.shi or changed.ying:
            builder.changed_line(changed)
    for hidden in chart.hidden_lines:
        builder.hidden_line(hidden)
    for pillar in chart.pillars:
        builder.pillar(pillar)
    builder.figure("primary", chart.hexagram, DK.primaryHexagram)
    if chart.changed_hexagram is not None:
        builder.figure("changed", chart.changed_hexagram, DK.changedHexagram)
    for frame in chart.frames:
        builder.frame(frame)
    if builder.natal is not None:
        builder.natal_entity(builder.natal)
    builder.tombs()
    builder.relations()
    return builder.facts()


def chart_graph(
    chart: Chart, reading: URIRef, topic: URIRef | None = None, querent: dict[str, Any] | None = None
) -> Graph:
    """The facts of :func:`chart_facts` as an rdflib graph (Turtle output, the Python API)."""
    return chart_facts(chart, reading, topic, querent).graph()
