"""Simplified-character input from users (求财 → 求財), converted with OpenCC's ``s2t`` tables.

The texts and the vocabulary are in traditional characters. A topic, search term or name typed
in simplified characters is looked up as typed first; only when that fails, or for a search, is
the OpenCC conversion tried too, and the conversion is said on stderr. Rule files are never
converted: an encoding must quote the text as written.
"""

from __future__ import annotations

from functools import cache

import click
import opencc
from rdflib import URIRef

from kg.errors import InputError
from kg.vocabulary import topic_tree


@cache
def _s2t() -> opencc.OpenCC:
    return opencc.OpenCC("s2t.json")


def traditional(text: str) -> str:
    """``text`` in traditional characters by OpenCC ``s2t`` (unchanged when already traditional)."""
    return _s2t().convert(text)


def say_converted(typed: str, converted: str) -> None:
    click.echo(f"note: {typed} read as {converted} (simplified → traditional, OpenCC s2t)", err=True)


def topic(text: str) -> URIRef:
    """The topic a user named, in traditional or simplified characters."""
    try:
        return topic_tree().topic(text)
    except InputError:
        converted = traditional(text)
        if converted == text:
            raise
        found = topic_tree().topic(converted)
        say_converted(text, converted)
        return found


def search_terms(term: str) -> list[str]:
    """The term as typed and, when OpenCC changes it, its traditional form too."""
    converted = traditional(term)
    if converted == term:
        return [term]
    say_converted(term, converted)
    return [term, converted]
