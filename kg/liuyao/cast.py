"""Reading a cast: six line values, a hexagram name with moving lines, or three-coin tosses.

Line values (bottom → top): 6 老陰 (moving, yin → yang), 7 少陽, 8 少陰, 9 老陽 (moving,
yang → yin). The 本卦 takes yang = {7, 9}; the 變卦 flips the 6s and 9s.

**Coin convention.** Three coins per line, tossed bottom line first. A head (H, 背, the side
without inscription) counts 3 and a tail (T, 字) counts 2, so the sum is the line value:
3 heads = 9 老陽 (重), 2 heads = 8 少陰 (拆), 1 head = 7 少陽 (單), 0 heads = 6 老陰 (交). This is
《火珠林》's reading by the number of 背 ("一背為單，二背為拆，三背為重，三字為交"). Counts
give the number of heads per line directly.
"""

from __future__ import annotations

import re

from kg.errors import InputError
from kg.liuyao.hexagrams import Hexagram, by_name

VALUE_NAMES = {6: "老陰", 7: "少陽", 8: "少陰", 9: "老陽"}

_SIMPLIFIED = str.maketrans(
    "为泽风遁观剥晋济丰师贲损渐恒过随颐蛊离涣讼复临壮兑谦归节无",
    "為澤風遯觀剝晉濟豐師賁損漸恆過隨頤蠱離渙訟復臨壯兌謙歸節無",
)
"""Simplified → traditional for the characters of hexagram names (遁/遯 and 恒/恆 are variants)."""


def _ascii_digits(text: str) -> bool:
    """Only 0–9: str.isdigit() also accepts ⁹ and ①, which int() refuses."""
    return text.isascii() and text.isdigit()


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,，;/]+", text.strip()) if t]


def _check_six(values: list[int], what: str) -> tuple[int, ...]:
    if len(values) != 6:
        raise InputError(f"{what}: expected exactly six lines (bottom → top), got {len(values)}")
    return tuple(values)


def parse_values(text: str) -> tuple[int, ...]:
    """Six line values bottom → top, as '9 8 7 7 7 8', '9,8,7,7,7,8' or '987778'."""
    tokens = _tokens(text)
    if len(tokens) == 1 and _ascii_digits(tokens[0]):
        tokens = list(tokens[0])
    values = []
    for n, token in enumerate(tokens, 1):
        if not _ascii_digits(token) or int(token) not in VALUE_NAMES:
            raise InputError(
                f"line value {token!r} at line {n} is not 6, 7, 8 or 9 (6 老陰, 7 少陽, 8 少陰, 9 老陽)"
            )
        values.append(int(token))
    return _check_six(values, f"line values {text!r}")


def find_hexagram(name: str) -> Hexagram:
    """A hexagram by full or short name, zh-Hant or simplified (澤天夬, 泽天夬, 夬)."""
    return by_name(name.strip().removesuffix("卦").translate(_SIMPLIFIED))


def parse_moving(text: str | None) -> tuple[int, ...]:
    """Moving-line positions 1–6, as '1 3', '1,3' or '13'; empty or None for no moving line."""
    tokens = _tokens(text or "")
    if len(tokens) == 1 and _ascii_digits(tokens[0]):
        tokens = list(tokens[0])
    positions = []
    for token in tokens:
        if not _ascii_digits(token) or not 1 <= int(token) <= 6:
            raise InputError(f"moving line {token!r} is not a line position 1–6")
        positions.append(int(token))
    if len(set(positions)) != len(positions):
        raise InputError(f"moving lines {text!r} name a position twice")
    return tuple(sorted(positions))


def values_from_hexagram(hexagram: Hexagram, moving: tuple[int, ...]) -> tuple[int, ...]:
    """Line values of a hexagram with the given moving lines: yang 7 (9 if moving), yin 8 (6 if moving)."""
    return tuple(
        (9 if i + 1 in moving else 7) if b else (6 if i + 1 in moving else 8)
        for i, b in enumerate(hexagram.bits)
    )


def parse_coins(text: str) -> tuple[int, ...]:
    """Six three-coin tosses bottom → top, as 'HHT HTT …' (H/背 heads, T/字 tails) or as the number
    of heads per line, '3 2 1 1 1 2' or '321112'. Heads count 3 and tails 2 (see module doc)."""
    tokens = _tokens(text)
    letters = "".join(tokens).upper()
    if letters and set(letters) <= set("HT背字"):
        if len(letters) % 3 or (len(tokens) > 1 and any(len(t) != 3 for t in tokens)):
            raise InputError(
                f"coins {text!r}: give three coins (H or T) per line, e.g. 'HHT HTT TTT HHH HTH THT'"
            )
        tosses = [letters[i : i + 3] for i in range(0, len(letters), 3)]
        heads = [sum(c in "H背" for c in toss) for toss in tosses]
    else:
        if len(tokens) == 1 and _ascii_digits(tokens[0]):
            tokens = list(tokens[0])
        heads = []
        for n, token in enumerate(tokens, 1):
            if not _ascii_digits(token) or not 0 <= int(token) <= 3:
                raise InputError(f"coin count {token!r} at line {n} is not a number of heads 0–3")
            heads.append(int(token))
    return _check_six([6 + h for h in heads], f"coins {text!r}")
