"""The corpus: sources verbatim, segmentation that tiles each paragraph, URNs that resolve."""

import hashlib

import pytest

from kg.corpus import works
from kg.paths import CORPUS


@pytest.mark.parametrize("work", ["yiyin", "huangjince", "zhizhi", "yinhezhao"])
def test_source_matches_the_catalogue_checksum(work):
    """The catalogue records the sha256 of each source as received; the file must still be it."""
    w = works()[work]
    data = (CORPUS / "sources" / w.source).read_bytes()
    assert hashlib.sha256(data).hexdigest() == w.sha256


def test_paragraph_counts_follow_the_inventory():
    # docs/encoding-inventory.md §1.2: Chinese blocks 40 / 58 (+ the heading ¶1) / 41 / 41
    assert {w.id: len(w.paragraphs) for w in works().values()} == {
        "yiyin": 40,
        "huangjince": 58,
        "zhizhi": 41,
        "yinhezhao": 41,
    }


def test_segments_tile_every_paragraph_and_sit_at_their_offsets():
    for w in works().values():
        for p in w.paragraphs.values():
            assert "".join(s.text for s in p.segments) == p.text
            assert w.text[p.start : p.end] == p.text
            assert w.text[p.korean_start : p.korean_start + len(p.korean)] == p.korean
            for s in p.all_segments():
                assert w.text[s.start : s.end] == s.text
                if s.kind == "note" and s.children:
                    assert "".join(c.text for c in s.children) == s.text[1:-1]


def test_urns_are_unique_and_resolve_to_their_text():
    seen = {}
    for w in works().values():
        for p in w.paragraphs.values():
            for s in p.all_segments():
                assert s.urn not in seen
                seen[s.urn] = s.text
    assert seen["urn:cts:divkg:yiyin.juan4.zh:6.3"] == "父下伏水鬼，棟必漏也。"
    assert seen["urn:cts:divkg:zhizhi.guiwei.zh:2.1"] == "課體：元首，斬關，稼穡，遊子。"


def test_korean_rendering_is_the_next_block():
    p = works()["yiyin"].paragraphs[2]
    assert p.text.startswith("以六爻木父為用也。")
    assert p.korean.startswith("방옥의 동량을 점침에")
    assert p.korean_urn == "urn:cts:divkg:yiyin.juan4.ko:2"


def test_notes_are_segments_linked_to_what_they_annotate():
    segments = {s.path: s for s in works()["yiyin"].paragraphs[2].all_segments()}
    standalone = segments[(5,)]
    assert standalone.kind == "note" and standalone.text.startswith("（婎新剏")
    assert standalone.annotates == (4,)
    inline = segments[(6, 1)]
    assert inline.text == "（木宮木爻木合）" and inline.annotates == (6,)
    assert segments[(6,)].text == "三木並見（木宮木爻木合），樓閣重重也。"
    # 《黃金策》 ¶4: the note restating two verse lines is split into its own sentences
    note = {s.path: s for s in works()["huangjince"].paragraphs[4].all_segments()}[(3,)]
    assert [c.text[:6] for c in note.children] == ["凡遇財爻旺相", "二者若財空，"]


def test_catalogue_sections_cover_every_paragraph_once():
    for w in works().values():
        covered = [n for s in w.sections for n in range(s.first, s.last + 1, 2)]
        assert sorted(covered) == sorted(w.paragraphs)
