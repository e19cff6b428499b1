"""``kg explore``: the doctrine as a network (networkx), read from the built graph by SPARQL.

Nodes are rules, the concepts they mention, topics, the sentences rules are derived from, and
works; every node has ``kind`` and ``label``. Edges carry ``relation``: ``mentions`` (rule →
concept), ``topic`` (rule → topic), ``broader`` (topic → topic), ``derivedFrom`` (rule →
sentence), ``work`` (sentence or rule → work).

Contradictions are candidate conflicts for a reader to judge: two rules with opposite
polarities (吉 against 凶) on one topic chain (one's topic equals or is broader than the
other's) that share a mentioned concept, where the condition constants of one are contained in
the other's (the constant facts ``dk:requires``, or else the mentioned concepts). Two cases of one
sentence (``dk:caseOf``) and a rule with the exception that overrides it are not contradictions:
the text itself separates them.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import click
import networkx as nx

from kg.cite import Citation, Resolver
from kg.concordance import concepts_labelled
from kg.errors import InputError
from kg.match import KnowledgeGraph
from kg.vocabulary import curie

BUILD = Path(__file__).resolve().parent.parent / "build"
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


@dataclass(frozen=True)
class Contradiction:
    """Two rules whose conditions overlap and whose polarities oppose."""

    good: str
    bad: str
    shared: frozenset[str]
    basis: str  # "requires" | "mentions"
    across: bool


def _constants(kg: KnowledgeGraph, rule: str) -> frozenset[tuple[str, str, str]]:
    return frozenset((b, p, v) for b, facts in kg.rules[rule].requires.values() for p, v in facts)


def _contained(a: frozenset, b: frozenset) -> bool:
    return bool(a) and bool(b) and (a <= b or b <= a)


def contradictions(kg: KnowledgeGraph, g: nx.Graph) -> list[Contradiction]:
    """Rule pairs with opposite polarities whose conditions overlap (see the module docstring)."""
    sets = mentions(g)
    polar = {"ji": [], "xiong": []}
    for rule in sets:
        polar.get(g.nodes[rule]["polarity"], []).append(rule)
    found = []
    for good in sorted(polar["ji"]):
        for bad in sorted(polar["xiong"]):
            a, b, shared = kg.rules[good], kg.rules[bad], sets[good] & sets[bad]
            case = g.nodes[good]["caseOf"]
            if (
                not shared
                or (case and case == g.nodes[bad]["caseOf"])
                or a.overrides == bad
                or b.overrides == good
            ):
                continue
            if a.topic not in kg.topic_chain(b.topic) and b.topic not in kg.topic_chain(a.topic):
                continue
            if _contained(_constants(kg, good), _constants(kg, bad)):
                basis = "requires"
            elif _contained(sets[good], sets[bad]):
                basis = "mentions"
            else:
                continue
            across = _work(g, good) != _work(g, bad)
            found.append(Contradiction(good, bad, shared, basis, across))
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
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
@click.pass_context
def explore_group(ctx: click.Context, graph: Path) -> None:
    """Explore the doctrine as a network: rules, concepts, topics, sentences, works."""
    ctx.obj = graph


def _load(ctx: click.Context) -> tuple[KnowledgeGraph, nx.Graph]:
    kg = KnowledgeGraph.load(ctx.obj)
    return kg, doctrine_graph(kg)


@explore_group.command("neighbours")
@click.argument("node")
@click.pass_context
def neighbours_command(ctx: click.Context, node: str) -> None:
    """Neighbours of a concept (by label, e.g. 白虎) or a rule (by id)."""
    _, g = _load(ctx)
    for n in find_nodes(g, node):
        click.echo(f"{name(g, n)} [{g.nodes[n]['kind']}]")
        for m in sorted(g[n], key=lambda m: (g[n][m]["relation"], name(g, m))):
            click.echo(f"  {g[n][m]['relation']:<12} {g.nodes[m]['kind']:<9} {name(g, m)}")


@explore_group.command("path")
@click.argument("a")
@click.argument("b")
@click.pass_context
def path_command(ctx: click.Context, a: str, b: str) -> None:
    """Shortest path between two concepts through the rules that mention them."""
    _, g = _load(ctx)
    steps = shortest_path(g, a, b)
    click.echo(" — ".join(f"[{name(g, n)}]" if g.nodes[n]["kind"] == "rule" else name(g, n) for n in steps))
    click.echo(f"{(len(steps) - 1) // 2} rules")


@explore_group.command("central")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@click.pass_context
def central_command(ctx: click.Context, top: int) -> None:
    """Concepts ranked by degree centrality and by betweenness centrality (the measures are named)."""
    _, g = _load(ctx)
    for measure, scores in centrality(g).items():
        click.echo(measure)
        for n, score in sorted(scores.items(), key=lambda x: (-x[1], name(g, x[0])))[:top]:
            rules = sum(1 for m in g[n] if g.nodes[m]["kind"] == "rule")
            click.echo(f"  {score:.4f}  {name(g, n)}  ({rules} rules)")


@explore_group.command("cooccur")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True)
@click.pass_context
def cooccur_command(ctx: click.Context, top: int) -> None:
    """Pairs of concepts mentioned together by rules, with the number of rules."""
    _, g = _load(ctx)
    for (a, b), count in sorted(cooccurrence(g).items(), key=lambda x: (-x[1], name(g, x[0][0])))[:top]:
        click.echo(f"{count:>4}  {name(g, a)} + {name(g, b)}")


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
    for other, score, shared in similar(g, node)[:top]:
        click.echo(
            f"{score:.3f}  {name(g, other)}  shares {'、'.join(sorted(g.nodes[c]['label'] for c in shared))}"
        )


@explore_group.command("contradictions")
@click.option("--across", is_flag=True, help="Only pairs from different works.")
@click.pass_context
def contradictions_command(ctx: click.Context, across: bool) -> None:
    """Rule pairs whose conditions overlap and whose polarities oppose (吉 vs 凶), with both citations."""
    kg, g = _load(ctx)
    resolver = Resolver(kg)
    found = [c for c in contradictions(kg, g) if c.across or not across]
    cited: dict[str, Citation] = {}
    for c in found:
        scope = "across texts" if c.across else "within a text"
        shared = "、".join(sorted(g.nodes[n]["label"] for n in c.shared))
        click.echo(f"{scope}: shares {shared} (conditions contained, by dk:{c.basis})")
        for rule, pol in ((c.good, "吉"), (c.bad, "凶")):
            if rule not in cited:
                cited[rule] = resolver.cite(g.nodes[rule]["label"])
            citation = cited[rule]
            click.echo(
                f"  {pol} {citation.rule_id}: 「{citation.passages[0].quote}」\n     {citation.line()}"
            )
    click.echo(f"{len(found)} pairs")


@explore_group.command("export")
@click.argument("file", type=click.Path(path_type=Path))
@click.pass_context
def export_command(ctx: click.Context, file: Path) -> None:
    """Write the graph to FILE: .graphml, .gexf (Gephi, Cytoscape) or .json (node-link)."""
    _, g = _load(ctx)
    export(g, file)
    click.echo(f"{g.number_of_nodes()} nodes, {g.number_of_edges()} edges → {file}")
