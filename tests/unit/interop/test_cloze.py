"""hashcards' cloze deletions: drill cuts a C: text into the same cards hashcards does, whatever
brackets, images and escapes it holds."""

from __future__ import annotations

from pathlib import Path

from helpers import hashcards
from hypothesis import given
from hypothesis import strategies as st

from drill.interop.cloze import cloze_cards, cloze_family
from drill.interop.markdown_deck import parse_markdown

TEXTS = st.text(alphabet="ab []!\\()\n", max_size=30)


@given(TEXTS)
def test_the_cards_of_any_cloze_text_are_those_hashcards_reads(text: str) -> None:
    try:
        expected = [hashcards.blanked(card) for card in hashcards.parse(f"C: {text}")]
    except hashcards.HashcardsError:
        expected = []  # no deletion: hashcards refuses the file, drill skips the card with a warning
    parsed = parse_markdown(f"C: {text}", Path("cloze.md"))
    assert [(card.prompt, card.answer) for card in parsed.cards] == expected
    assert len(parsed.warnings) == (not expected)


def test_a_cloze_text_shows_one_deletion_at_a_time() -> None:
    assert cloze_cards("[Berlin] is the capital of [Germany].") == [
        ("[...] is the capital of Germany.", "Berlin is the capital of Germany."),
        ("Berlin is the capital of [...].", "Berlin is the capital of Germany."),
    ]
    assert cloze_cards(r"![map](m.png) \[sic\] [x]") == [(r"![map](m.png) [sic] [...]", r"![map](m.png) [sic] x")]


def test_the_cards_of_one_text_share_a_family_and_an_edit_makes_another() -> None:
    assert cloze_family("[a] b [c]") == cloze_family(" [a] b [c] ")
    assert cloze_family("[a] b [c]") != cloze_family("[a] b [d]")
