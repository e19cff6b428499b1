"""``kg topics`` and ``kg vocab``: the topic tree and the concept schemes, with their labels."""

from __future__ import annotations

import json

import click
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, SKOS

from kg.errors import InputError
from kg.simplified import traditional
from kg.vocabulary import DK, Vocabulary, curie, vocabulary

FORMATS = click.Choice(["text", "json"])


def labels(vocab: Vocabulary, node: URIRef) -> dict[str, object]:
    """prefLabel by language (zh-Hant, ko, en) and the alternative written forms."""
    pref = {o.language: str(o) for o in vocab.graph.objects(node, SKOS.prefLabel) if isinstance(o, Literal)}
    alt = sorted(str(o) for p in (SKOS.altLabel, SKOS.hiddenLabel) for o in vocab.graph.objects(node, p))
    return {
        "id": curie(str(node)),
        "zh": pref.get("zh-Hant"),
        "ko": pref.get("ko"),
        "en": pref.get("en"),
        "alt": alt,
    }


def line(entry: dict[str, object], depth: int = 0) -> str:
    alt = f"  (also {'、'.join(entry['alt'])})" if entry["alt"] else ""
    return f"{'  ' * depth}{entry['zh']}  {entry['ko'] or ''}  {entry['en'] or ''}  [{entry['id']}]{alt}"


@click.command("topics")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def topics_command(fmt: str) -> None:
    """The topic tree (占事): every topic a reading may ask, with zh-Hant, Korean and English labels."""
    vocab = vocabulary()
    topics = vocab.concepts(DK.TopicScheme)
    children: dict[URIRef | None, list[URIRef]] = {}
    for t in topics:
        children.setdefault(vocab.graph.value(t, SKOS.broader), []).append(t)

    def tree(node: URIRef) -> dict[str, object]:
        return {**labels(vocab, node), "narrower": [tree(c) for c in children.get(node, [])]}

    roots = [tree(t) for t in children.get(None, [])]
    if fmt == "json":
        click.echo(json.dumps(roots, ensure_ascii=False, indent=2))
        return

    def show(entry: dict[str, object], depth: int) -> None:
        click.echo(line(entry, depth))
        for child in entry["narrower"]:
            show(child, depth + 1)

    for root in roots:
        show(root, 0)


@click.command("vocab")
@click.argument("scheme", required=False)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def vocab_command(scheme: str | None, fmt: str) -> None:
    """The concept schemes, or the concepts of SCHEME (a label such as 六親 or 六十四卦, or an id such as
    dk:RelativeScheme), with their labels and variant forms.

    Examples: kg vocab · kg vocab 六十四卦 (the hexagram names) · kg vocab 六親
    """
    vocab = vocabulary()
    schemes = sorted(vocab.graph.subjects(RDF.type, SKOS.ConceptScheme))
    if scheme is None:
        rows = [labels(vocab, s) | {"concepts": len(vocab.concepts(s))} for s in schemes]
        if fmt == "json":
            click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            for r in rows:
                click.echo(f"{line(r)}  {r['concepts']} concepts")
        return
    wanted = {scheme, traditional(scheme)}
    found = [s for s in schemes if wanted & {curie(str(s)), str(s), *map(str, labels(vocab, s).values())}]
    if not found:
        known = "、".join(str(labels(vocab, s)["zh"]) for s in schemes)
        raise InputError(f"unknown concept scheme {scheme!r}; known: {known}")
    rows = [labels(vocab, c) for c in vocab.concepts(found[0])]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for r in rows:
            click.echo(line(r))
