"""``kg explore``: the doctrine as a network (networkx), read from the built graph by SPARQL.

Nodes are rules, the concepts they mention, topics, the sentences rules are derived from, and
works; every node has ``kind`` and ``label``. Edges carry ``relation``: ``mentions`` (rule →
concept), ``topic`` (rule → topic), ``broader`` (topic → topic), ``derivedFrom`` (rule →
sentence), ``work`` (sentence or rule → work).

Contradictions are candidate conflicts for a reader to judge: two verdicts of opposite polarity
(吉 against 凶; 吉凶參半 and 中 oppose nothing) on one topic chain (one's topic equals or is
broader than the other's) where every condition of one rule, the *general*, is also a condition of
the other, the *specific*: wherever the specific rule applies, the general one applies too. The
conditions are read back from each rule's compiled query (its constant atoms, which include
``dk:requires``, its relations between entities, and its ``any``, ``not`` and ``count`` groups)
and compared entity by entity whatever the variables are called. Two cases of one sentence
(``dk:caseOf``) and a rule with the exception that overrides it are not contradictions: the text
itself separates them. Text-only rules are left out: their triggers are not their conditions.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import click
import networkx as nx

from kg.cite import Citation, Resolver
from kg.concordance import concepts_labelled
from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.paths import GRAPH
from kg.vocabulary import curie

EXPORTS = (".graphml", ".gexf", ".json")


def _zh(var: str, node: str, prop: str = "skos:prefLabel") -> str:
    """A SPARQL pattern binding ``var`` to the zh-Hant ``prop`` (label) of ``node``."""
    return f"{node} {prop} {var} FILTER(langMatches(lang({var}), 'zh-Hant'))"


def doctrine_graph(kg: KnowledgeGraph) -> nx.Graph:
    """Rules, concepts, topics, sentences and works as one undirected networkx graph."""
    g = nx.Graph()
    for r in kg.query(
        f"""SELECT ?r ?id ?kind ?t ?tl ?w ?wl ?pol ?case WHERE {{
              ?r a dk:Rule ; a ?kind ; dk:ruleId ?id ; dk:topic ?t ; dk:work ?w . FILTER(?kind != dk:Rule)
              {_zh("?tl", "?t")} {_zh("?wl", "?w", "dcterms:title")}
              OPTIONAL {{ ?r dk:outcome/dk:polarity ?pol }} OPTIONAL {{ ?r dk:caseOf ?case }} }}"""
    ):
        rule = r["r"].value
        g.add_node(
            rule,
            kind="rule",
            label=r["id"].value,
            ruleKind=r["kind"].value.rsplit("/", 1)[1],
            polarity=r["pol"].value.rsplit("/", 1)[1] if "pol" in r else "",
            caseOf=r["case"].value if "case" in r else "",
        )
        g.add_node(r["t"].value, kind="topic", label=r["tl"].value)
        g.add_node(r["w"].value, kind="work", label=r["wl"].value)
        g.add_edge(rule, r["t"].value, relation="topic")
        g.add_edge(rule, r["w"].value, relation="work")
    for r in kg.query(f"SELECT ?r ?c ?l WHERE {{ ?r a dk:Rule ; dk:mentions ?c . {_zh('?l', '?c')} }}"):
        g.add_node(r["c"].value, kind="concept", label=r["l"].value, curie=curie(r["c"].value))
        g.add_edge(r["r"].value, r["c"].value, relation="mentions")
    for r in kg.query(
        f"SELECT ?t ?b ?tl ?bl WHERE {{ ?t skos:inScheme dk:TopicScheme ; skos:broader ?b . {_zh('?tl', '?t')} {_zh('?bl', '?b')} }}"
    ):
        g.add_node(r["t"].value, kind="topic", label=r["tl"].value)
        g.add_node(r["b"].value, kind="topic", label=r["bl"].value)
        g.add_edge(r["t"].value, r["b"].value, relation="broader")
    for r in kg.query(
        "SELECT ?r ?s ?urn ?w WHERE { ?r a dk:Rule ; prov:wasDerivedFrom ?s . ?s dk:urn ?urn ; dk:paragraph/dk:work ?w }"
    ):
        g.add_node(r["s"].value, kind="sentence", label=r["urn"].value)
        g.add_edge(r["r"].value, r["s"].value, relation="derivedFrom")
        g.add_edge(r["s"].value, r["w"].value, relation="work")
    return g


def mentions(g: nx.Graph) -> dict[str, frozenset[str]]:
    """Rule → the concepts it mentions."""
    return {
        n: frozenset(m for m in g[n] if g.nodes[m]["kind"] == "concept")
        for n, kind in g.nodes(data="kind")
        if kind == "rule"
    }


def rule_concept_graph(g: nx.Graph) -> nx.Graph:
    """The bipartite graph of rules and the concepts they mention."""
    return g.edge_subgraph((u, v) for u, v, rel in g.edges(data="relation") if rel == "mentions")


def name(g: nx.Graph, node: str) -> str:
    """How a node is printed: a rule by id, a concept by label and prefixed name, others by label."""
    data = g.nodes[node]
    return f"{data['label']} ({data['curie']})" if data["kind"] == "concept" else data["label"]


def find_nodes(g: nx.Graph, text: str) -> list[str]:
    """The rule with id ``text``, or the mentioned concepts labelled ``text``; an input error if none."""
    rules = [n for n, d in g.nodes(data=True) if d["kind"] == "rule" and d["label"] == text]
    if rules:
        return rules
    found = [str(c) for c in concepts_labelled(text.strip()) if str(c) in g]
    if not found:
        raise InputError(f"{text!r} is neither a rule id nor a concept that a rule mentions")
    return found


def shortest_path(g: nx.Graph, a: str, b: str) -> list[str]:
    """The shortest path between concepts labelled ``a`` and ``b`` through the rules mentioning them."""
    bipartite = rule_concept_graph(g)
    paths = [
        nx.shortest_path(bipartite, s, t)
        for s in find_nodes(g, a)
        for t in find_nodes(g, b)
        if g.nodes[s]["kind"] == g.nodes[t]["kind"] == "concept" and nx.has_path(bipartite, s, t)
    ]
    if not paths:
        raise InputError(f"no path between {a} and {b} through rules")
    return min(paths, key=len)


def centrality(g: nx.Graph) -> dict[str, dict[str, float]]:
    """Concepts by degree centrality in the rule–concept graph (how many rules name them) and by
    betweenness centrality in the concept co-occurrence graph (how far they bridge conditions)."""
    bipartite = rule_concept_graph(g)
    concepts = [n for n in bipartite if g.nodes[n]["kind"] == "concept"]
    degree = nx.degree_centrality(bipartite)
    projection = nx.Graph(cooccurrence(g).keys())
    projection.add_nodes_from(concepts)
    between = nx.betweenness_centrality(projection)
    return {
        "degree centrality (rule–concept graph)": {n: degree[n] for n in concepts},
        "betweenness centrality (concept co-occurrence graph)": {n: between[n] for n in concepts},
    }


def cooccurrence(g: nx.Graph) -> Counter[tuple[str, str]]:
    """Pairs of concepts mentioned by one rule, with the number of rules mentioning both."""
    return Counter(pair for concepts in mentions(g).values() for pair in combinations(sorted(concepts), 2))


def similar(g: nx.Graph, rule: str) -> list[tuple[str, float, frozenset[str]]]:
    """Rules sharing mentioned concepts with ``rule``: (rule, Jaccard index, shared), best first."""
    sets = mentions(g)
    mine = sets[rule]
    scored = [
        (other, len(mine & theirs) / len(mine | theirs), mine & theirs)
        for other, theirs in sets.items()
        if other != rule and mine & theirs
    ]
    return sorted(scored, key=lambda x: (-x[1], g.nodes[x[0]]["label"]))


POLAR = {"ji": "吉", "xiong": "凶"}
"""The polarities that oppose. 吉凶參半 (mixed) is the text weighing both sides itself and 中
(neutral) names no outcome: neither opposes a verdict, so pairs with them are not reported."""

VERDICT_KINDS = frozenset({"JudgementRule", "ChartVerdictRule", "ExceptionRule"})
"""Rules whose conditions are their full conditions; a text-only rule's triggers are partial."""

READING = "reading"
_TRIPLE = re.compile(
    r"^\?(?P<s>\w+) (?P<p>\S+) (?P<o>\S+) \.(?: FILTER\(\?(?P<f>\w+) IN \((?P<values>[^)]*)\)\))?$"
)
_DISTINCT = re.compile(r"^FILTER\(\?(?P<a>\w+) != \?(?P<b>\w+)\)$")
_VARIABLE = re.compile(r"\?(\w+)")


@dataclass(frozen=True)
class Group:
    """An ``any``, ``not`` or ``count`` group of a query, verbatim; for ``any``, its alternatives."""

    text: str
    branches: tuple[Conditions, ...]


@dataclass(frozen=True)
class Conditions:
    """A rule's compiled query read back as conditions on its entities (the reading, the variables).

    ``atoms``: (entity, fact, allowed values) for a fact with a constant value (one value, or the
    values of ``a|b``); ``links``: (entity, property, entity), the bindings (``?reading dk:line
    ?L``) and the relations (``?D dk:ke ?G``); ``distinct``: pairs ``X != Y``; ``groups``: the
    ``any``, ``not`` and ``count`` groups."""

    atoms: frozenset[tuple[str, str, frozenset[str]]]
    links: frozenset[tuple[str, str, str]]
    distinct: frozenset[frozenset[str]]
    groups: tuple[Group, ...]

    @property
    def entities(self) -> frozenset[str]:
        """The entities the conditions outside the groups speak of."""
        named = {a[0] for a in self.atoms} | {x for s, _, o in self.links for x in (s, o)}
        return frozenset(named.union(*self.distinct))


def read_conditions(query: str) -> Conditions:
    """The conditions of a query as :mod:`kg.compile` writes it: one condition a line, a group from
    the line that opens it to the line that closes it, each level indented two more spaces."""
    body = query.split(" WHERE {\n", 1)[1].rsplit("\n}", 1)[0]
    return _read([line[2:] for line in body.split("\n")])


def _read(lines: list[str]) -> Conditions:
    atoms, links, distinct, groups, group = set(), set(), set(), [], []
    for text in lines:
        if group or text.endswith("{"):
            group.append(text)
            if text.startswith("}") and not text.endswith("{"):
                groups.append(_group(group))
                group = []
        elif m := _DISTINCT.match(text):
            distinct.add(frozenset((m["a"], m["b"])))
        elif not (m := _TRIPLE.match(text)):
            raise KgError(f"cannot read the query line {text!r}: not in the form kg/compile.py writes")
        elif m["f"]:
            atoms.add((m["s"], m["p"], frozenset(v.strip() for v in m["values"].split(","))))
        elif m["o"].startswith("?"):
            links.add((m["s"], m["p"], m["o"][1:]))
        elif m["p"] != "a":
            atoms.add((m["s"], m["p"], frozenset((m["o"],))))
    return Conditions(frozenset(atoms), frozenset(links), frozenset(distinct), tuple(groups))


def _group(lines: list[str]) -> Group:
    """A group; an ``any`` (``{ … } UNION { … }``) with its alternatives read as conditions."""
    text = "\n".join(lines)
    if lines[0] != "{":
        return Group(text, ())
    branches, branch = [], []
    for line in lines[1:]:
        if line.startswith(" "):
            branch.append(line[2:])
        else:
            branches.append(_read(branch))
            branch = []
    return Group(text, tuple(branches))


def _canonical(text: str, names: dict[str, str]) -> str:
    """A group's text with the entities in ``names`` renamed and its own variables numbered in order."""
    local: dict[str, str] = {}

    def rename(m: re.Match) -> str:
        return "?" + (names[m[1]] if m[1] in names else local.setdefault(m[1], f"_{len(local)}"))

    return _VARIABLE.sub(rename, text)


class _Target:
    """The more specific rule's conditions, indexed for :func:`contains`."""

    def __init__(self, conditions: Conditions, broader: dict[str, set[str]]) -> None:
        self.entities = sorted(conditions.entities - {READING})
        self.links = {(s, q, o) for s, p, o in conditions.links for q in (p, *broader.get(p, ()))}
        self.distinct = conditions.distinct
        self.groups = {_canonical(g.text, {e: e for e in conditions.entities}) for g in conditions.groups}
        self.atoms: dict[str, list[tuple[str, frozenset[str]]]] = defaultdict(list)
        for entity, fact, values in conditions.atoms:
            self.atoms[entity].append((fact, values))

    def implies(self, general: Conditions, entity: str, target: str) -> bool:
        """``target`` holds every atom ``general`` requires of ``entity`` (``a`` implies ``a|b``)."""
        return all(
            any(f == fact and held <= values for f, held in self.atoms[target])
            for e, fact, values in general.atoms
            if e == entity
        )

    def embeds(self, general: Conditions, fixed: dict[str, str]) -> bool:
        """Some mapping of ``general``'s entities, extending ``fixed``, makes each of its conditions
        one of the target's: atoms and links by :meth:`implies` and the links held, ``X != Y`` as
        such, a group as it is (after renaming) or, for an ``any``, one alternative embedded."""
        if not all(self.implies(general, e, t) for e, t in fixed.items()):
            return False
        free = general.entities - fixed.keys()
        options = {e: [t for t in self.entities if self.implies(general, e, t)] for e in free}
        order = sorted(options, key=lambda e: (len(options[e]), e))

        def linked(mapping: dict[str, str]) -> bool:
            return all(
                (mapping[s], p, mapping[o]) in self.links
                for s, p, o in general.links
                if s in mapping and o in mapping
            )

        def complete(mapping: dict[str, str]) -> bool:
            distinct = all(frozenset(mapping[x] for x in pair) in self.distinct for pair in general.distinct)
            return distinct and all(
                _canonical(g.text, mapping) in self.groups or any(self.embeds(b, mapping) for b in g.branches)
                for g in general.groups
            )

        def extend(mapping: dict[str, str], i: int) -> bool:
            if i == len(order):
                return linked(mapping) and complete(mapping)
            for target in options[order[i]]:
                mapping[order[i]] = target
                if linked(mapping) and extend(mapping, i + 1):
                    return True
                del mapping[order[i]]
            return False

        return extend(dict(fixed), 0)


def contains(general: Conditions, specific: Conditions, broader: dict[str, set[str]]) -> bool:
    """Every condition of ``general`` is a condition of ``specific``, for some mapping of the general
    rule's entities onto the specific rule's: matched by their atoms and links, whatever the
    variables are called (two entities may map onto one). ``broader``: a property's super-properties
    (dk:firstTransmission → dk:transmission), so a binding implies the broader one."""
    return _Target(specific, broader).embeds(general, {READING: READING})


@dataclass(frozen=True)
class Contradiction:
    """Two rules of opposite polarity where the conditions of ``specific`` contain those of
    ``general``: wherever the specific rule applies, the general one applies too."""

    general: str
    specific: str
    across: bool
    """The two rules come from different works."""


def contradictions(kg: KnowledgeGraph, g: nx.Graph) -> list[Contradiction]:
    """Rule pairs with opposite polarities whose conditions contain each other (module docstring)."""
    broader: dict[str, set[str]] = defaultdict(set)
    for row in kg.query("SELECT ?p ?b WHERE { ?p rdfs:subPropertyOf+ ?b }"):
        broader[curie(row["p"].value)].add(curie(row["b"].value))
    conditions = {
        row["r"].value: read_conditions(row["q"].value)
        for row in kg.query("SELECT ?r ?q WHERE { ?r a dk:Rule ; dk:query ?q }")
    }
    polar: dict[str, list[str]] = {"ji": [], "xiong": []}
    for rule, data in g.nodes(data=True):
        if data["kind"] == "rule" and data["ruleKind"] in VERDICT_KINDS and rule in conditions:
            polar.get(data["polarity"], []).append(rule)
    found = []
    for good in sorted(polar["ji"]):
        for bad in sorted(polar["xiong"]):
            a, b = kg.rules[good], kg.rules[bad]
            case = g.nodes[good]["caseOf"]
            if (case and case == g.nodes[bad]["caseOf"]) or bad in a.overrides or good in b.overrides:
                continue
            if a.topic not in kg.topic_chain(b.topic) and b.topic not in kg.topic_chain(a.topic):
                continue
            across = _work(g, good) != _work(g, bad)
            for general, specific in ((good, bad), (bad, good)):
                if contains(conditions[general], conditions[specific], broader):
                    found.append(Contradiction(general, specific, across))
                    break
    return found


def _work(g: nx.Graph, rule: str) -> str:
    return next(n for n in g[rule] if g.nodes[n]["kind"] == "work")


def export(g: nx.Graph, path: Path) -> None:
    """Write ``g`` as GraphML, GEXF or node-link JSON, chosen by the file's extension."""
    suffix = path.suffix.lower()
    if suffix not in EXPORTS:
        raise InputError(f"{path}: unknown export format; use one of {', '.join(EXPORTS)}")
    try:
        if suffix == ".graphml":
            nx.write_graphml(g, path)
        elif suffix == ".gexf":
            nx.write_gexf(g, path)
        else:
            data = nx.node_link_data(g, edges="links")
            path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None


@click.group("explore")
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output of neighbours, path, central, cooccur and similar (contradictions has its own).",
)
@click.pass_context
def explore_group(ctx: click.Context, graph: Path, fmt: str) -> None:
    """Explore the doctrine as a network: rules, concepts, topics, sentences, works."""
    ctx.obj = (graph, fmt)


def _load(ctx: click.Context) -> tuple[KnowledgeGraph, nx.Graph]:
    kg = KnowledgeGraph.load(ctx.obj[0])
    return kg, doctrine_graph(kg)


def _emit(ctx: click.Context, data: object, lines: list[str]) -> None:
    """``data`` as JSON under ``--format json``, else the text ``lines``."""
    if ctx.obj[1] == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(lines))


def _node(g: nx.Graph, n: str) -> dict[str, str]:
    return {"id": n, "name": name(g, n), "kind": g.nodes[n]["kind"]}


@explore_group.command("neighbours")
@click.argument("node")
@click.pass_context
def neighbours_command(ctx: click.Context, node: str) -> None:
    """Neighbours of a concept (by label, e.g. 白虎) or a rule (by id)."""
    _, g = _load(ctx)
    data, lines = [], []
    for n in find_nodes(g, node):
        around = sorted(g[n], key=lambda m: (g[n][m]["relation"], name(g, m)))
        data.append(
            {**_node(g, n), "neighbours": [{**_node(g, m), "relation": g[n][m]["relation"]} for m in around]}
        )
        lines.append(f"{name(g, n)} [{g.nodes[n]['kind']}]")
        lines += [f"  {g[n][m]['relation']:<12} {g.nodes[m]['kind']:<9} {name(g, m)}" for m in around]
    _emit(ctx, data, lines)


@explore_group.command("path")
@click.argument("a")
@click.argument("b")
@click.pass_context
def path_command(ctx: click.Context, a: str, b: str) -> None:
    """Shortest path between two concepts through the rules that mention them."""
    _, g = _load(ctx)
    steps = shortest_path(g, a, b)
    line = " — ".join(f"[{name(g, n)}]" if g.nodes[n]["kind"] == "rule" else name(g, n) for n in steps)
    _emit(ctx, [_node(g, n) for n in steps], [line, f"{(len(steps) - 1) // 2} rules"])


@explore_group.command("central")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@click.pass_context
def central_command(ctx: click.Context, top: int) -> None:
    """Concepts ranked by degree centrality and by betweenness centrality (the measures are named)."""
    _, g = _load(ctx)
    data, lines = {}, []
    for measure, scores in centrality(g).items():
        ranked = sorted(scores.items(), key=lambda x: (-x[1], name(g, x[0])))[:top]
        rules = {n: sum(1 for m in g[n] if g.nodes[m]["kind"] == "rule") for n, _ in ranked}
        data[measure] = [{**_node(g, n), "score": score, "rules": rules[n]} for n, score in ranked]
        lines.append(measure)
        lines += [f"  {score:.4f}  {name(g, n)}  ({rules[n]} rules)" for n, score in ranked]
    _emit(ctx, data, lines)


@explore_group.command("cooccur")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True)
@click.pass_context
def cooccur_command(ctx: click.Context, top: int) -> None:
    """Pairs of concepts mentioned together by rules, with the number of rules."""
    _, g = _load(ctx)
    ranked = sorted(cooccurrence(g).items(), key=lambda x: (-x[1], name(g, x[0][0])))[:top]
    _emit(
        ctx,
        [{"concepts": [_node(g, a), _node(g, b)], "rules": count} for (a, b), count in ranked],
        [f"{count:>4}  {name(g, a)} + {name(g, b)}" for (a, b), count in ranked],
    )


@explore_group.command("similar")
@click.argument("rule")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@click.pass_context
def similar_command(ctx: click.Context, rule: str, top: int) -> None:
    """Rules sharing mentioned concepts with RULE, by Jaccard index."""
    _, g = _load(ctx)
    node = find_nodes(g, rule)[0]
    if g.nodes[node]["kind"] != "rule":
        raise InputError(f"{rule!r} is not a rule id")
    ranked = similar(g, node)[:top]
    labels = {other: sorted(g.nodes[c]["label"] for c in shared) for other, _, shared in ranked}
    _emit(
        ctx,
        [{**_node(g, other), "jaccard": score, "shares": labels[other]} for other, score, _ in ranked],
        [f"{score:.3f}  {name(g, other)}  shares {'、'.join(labels[other])}" for other, score, _ in ranked],
    )


def _side(citation: Citation, polarity: str) -> dict:
    """One rule of a contradiction as ``--format json`` gives it."""
    return {
        "rule": citation.rule_id,
        "polarity": POLAR[polarity],
        "work": citation.title,
        "paragraphs": [p.paragraph for p in citation.passages],
        "urn": citation.urn,
        "quotes": [p.quote for p in citation.passages],
        "citation": citation.line(),
    }


@explore_group.command("contradictions")
@click.option("--across", is_flag=True, help="Only pairs from different works.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def contradictions_command(ctx: click.Context, across: bool, fmt: str) -> None:
    """Rule pairs of opposite polarity (吉 vs 凶) where the conditions of one contain all the
    conditions of the other, with both citations."""
    kg, g = _load(ctx)
    resolver = Resolver(kg)
    pairs = []
    for c in contradictions(kg, g):
        if c.across or not across:
            sides = {
                role: _side(resolver.cite(g.nodes[rule]["label"]), g.nodes[rule]["polarity"])
                for role, rule in (("general", c.general), ("specific", c.specific))
            }
            pairs.append({"across": c.across, **sides})
    if fmt == "json":
        click.echo(json.dumps(pairs, ensure_ascii=False, indent=2))
        return
    for pair in pairs:
        works = dict.fromkeys(pair[role]["work"] for role in ("general", "specific"))
        scope = "across works" if pair["across"] else "within"
        click.echo(
            f"{scope} {' / '.join(f'《{w}》' for w in works)}: where the specific rule applies, so does the general"
        )
        for role in ("general", "specific"):
            side = pair[role]
            quotes = " … ".join(f"「{q}」" for q in side["quotes"])
            click.echo(
                f"  {role:<8} {side['polarity']} {side['rule']}: {quotes}\n           {side['citation']}"
            )
    click.echo(f"{len(pairs)} pairs, {sum(p['across'] for p in pairs)} across works")


@explore_group.command("export")
@click.argument("file", type=click.Path(path_type=Path))
@click.pass_context
def export_command(ctx: click.Context, file: Path) -> None:
    """Write the graph to FILE: .graphml, .gexf (Gephi, Cytoscape) or .json (node-link)."""
    _, g = _load(ctx)
    export(g, file)
    click.echo(f"{g.number_of_nodes()} nodes, {g.number_of_edges()} edges → {file}")
