"""Markdown decks as hashcards reads them: Q:/A: and C: cards, paragraphs, separators, fences,
front matter, ids written only on request, errors by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import hashcards
from hypothesis import given
from hypothesis import strategies as st

from drill.interop.markdown_deck import parse_markdown

PATH = Path("notes.md")
HASHCARDS_DECKS = sorted((Path(__file__).parent / "data" / "hashcards").glob("*.md"))


def parse(text: str):
    return parse_markdown(text, PATH)


def sides(text: str) -> list[tuple[str, str]]:
    parsed = parse(text)
    assert parsed.errors == [], parsed.errors
    return [(card.prompt, card.answer) for card in parsed.cards]


def messages(text: str) -> list[str]:
    return [str(error) for error in parse(text).errors]


@pytest.mark.parametrize("deck", HASHCARDS_DECKS, ids=lambda path: path.name)
def test_hashcards_own_example_decks_read_as_hashcards_reads_them(deck: Path) -> None:
    text = deck.read_text()
    parsed = parse_markdown(text, deck)
    assert (parsed.errors, parsed.warnings) == ([], [])
    assert [(card.prompt, card.answer) for card in parsed.cards] == [
        hashcards.blanked(card) for card in hashcards.parse(text)
    ]


# Pieces of hashcards decks, their lines split at "|": cards with paragraphs, clozes, separators.
PIECES = ["Q:|A:", "Q:|text|A:|text||text", "Q:||A:|", "C: [x] and [y]", "C:|[z] text||text", "---", "", "text", "A:"]


@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_any_deck_hashcards_reads_drill_reads_alike(pieces: list[str]) -> None:
    lines = "|".join(pieces).split("|")
    numbered = [f"{line} {number}" if line.strip() and line != "---" else line for number, line in enumerate(lines)]
    text = "\n".join(numbered)  # every card's text its own, as hashcards drops repeated cards
    try:
        expected = [hashcards.blanked(card) for card in hashcards.parse(text)]
    except hashcards.HashcardsError:
        return  # a file hashcards refuses: drill may read more of it, or refuse it by line
    parsed = parse(text)
    assert (parsed.errors, parsed.warnings) == ([], [])
    assert [(card.prompt, card.answer) for card in parsed.cards] == expected


def test_an_answer_runs_over_paragraphs_to_the_next_card_as_in_hashcards() -> None:
    text = (
        "Q: Why is decode\nmemory-bound?\nA: Each token reads\nall the weights.\n\n"
        "A second paragraph of the answer.\n\n"
        "Q: Second?\nA: Yes.\n"
    )
    assert sides(text) == [
        ("Why is decode\nmemory-bound?", "Each token reads\nall the weights.\n\nA second paragraph of the answer."),
        ("Second?", "Yes."),
    ]
    assert [hashcards.blanked(card) for card in hashcards.parse(text)] == sides(text)


def test_a_separator_ends_a_card_and_is_never_part_of_the_answer() -> None:
    text = "Q: One?\nA: 1\n\n---\n\nQ: Two?\nA: 2\n---\nC: [Three]\n---\n"
    assert sides(text) == [("One?", "1"), ("Two?", "2"), ("[...]", "Three")]
    assert [hashcards.blanked(card) for card in hashcards.parse(text)] == sides(text)


def test_a_heading_ends_a_card_and_text_before_the_first_card_is_ignored() -> None:
    text = "# Memory\n\nSome notes.\n\nQ: Why?\nA: Because.\n\n## Compute\n\nQ: How?\nA: Thus.\n"
    assert sides(text) == [("Why?", "Because."), ("How?", "Thus.")]


def test_blank_lines_and_card_lines_inside_a_fence_stay_in_the_answer() -> None:
    text = "Q: Write it\nA: Like this:\n```python\nx = 1\n\nQ: not a new card\n---\n```\nand that is all.\n\n"
    text += "Q: Next\nA: card\n"
    assert sides(text) == [
        ("Write it", "Like this:\n```python\nx = 1\n\nQ: not a new card\n---\n```\nand that is all."),
        ("Next", "card"),
    ]


def test_an_empty_a_line_lets_the_answer_start_below_as_hashcards_writes_it() -> None:
    assert sides("Q: List the PGM minerals.\nA:\n\n- ruthenium\n- rhodium\n") == [
        ("List the PGM minerals.", "- ruthenium\n- rhodium")
    ]


def test_a_cloze_card_makes_one_card_per_deletion_sharing_a_sibling_key() -> None:
    parsed = parse("Q: First?\nA: 1\n\nC: [Berlin] is the capital of [Germany].\n\nQ: Last?\nA: 3\n")
    assert parsed.errors == [] and parsed.warnings == []
    first, berlin, germany, last = parsed.cards
    assert (berlin.prompt, berlin.answer, berlin.line) == (
        "[...] is the capital of Germany.",
        "Berlin is the capital of Germany.",
        4,
    )
    assert germany.prompt == "Berlin is the capital of [...]."
    assert berlin.siblings == germany.siblings is not None and first.siblings is None and last.siblings is None
    assert [card.id for card in parsed.cards] == [None] * 4


def test_images_and_escaped_brackets_in_a_cloze_are_text() -> None:
    assert sides(r"C: ![a map](map.png) shows \[not this\] but [Paris]") == [
        (r"![a map](map.png) shows [not this] but [...]", r"![a map](map.png) shows [not this] but Paris")
    ]


def test_a_cloze_without_a_deletion_is_skipped_with_a_warning_and_the_rest_imports() -> None:
    parsed = parse("C: nothing to hide here\n\nQ: Kept?\nA: Yes.\n")
    assert parsed.errors == []
    assert [str(warning) for warning in parsed.warnings] == [
        "notes.md:1: a C: card without a [deletion]: skipped (hashcards needs at least one)"
    ]
    assert [card.prompt for card in parsed.cards] == ["Kept?"]


def test_front_matter_names_the_deck_and_is_not_a_card() -> None:
    parsed = parse('---\nname = "Linear algebra"\n---\nQ: Rank?\nA: Dimension of the column space.\n')
    assert (parsed.deck_name, [card.line for card in parsed.cards], parsed.errors) == ("Linear algebra", [4], [])


def test_ids_in_the_file_are_kept_and_written_only_by_write_ids() -> None:
    text = "Q: one\nA: 1\n\n<!-- drill-id: kept-id -->\nQ: two\nA: 2\n\nC: [three]\n\nQ: four\nA: 4\n"
    parsed = parse(text)
    assert [card.id for card in parsed.cards] == [None, "kept-id", None, None]
    assert parsed.write_ids is not None
    rewritten = parsed.write_ids(["md-1", "kept-id", "md-3", "md-4"])
    assert rewritten == (
        "<!-- drill-id: md-1 -->\nQ: one\nA: 1\n\n<!-- drill-id: kept-id -->\nQ: two\nA: 2\n\nC: [three]\n\n"
        "<!-- drill-id: md-4 -->\nQ: four\nA: 4\n"
    )
    again = parse(rewritten)
    assert [card.id for card in again.cards] == ["md-1", "kept-id", None, "md-4"]
    assert [(card.prompt, card.answer) for card in again.cards] == [(card.prompt, card.answer) for card in parsed.cards]
    assert again.write_ids is not None and again.write_ids(["md-1", "kept-id", "md-3", "md-4"]) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Q: one\nA: 1\n\nQ: lonely\n\nQ: three\nA: 3\n", ["notes.md:4: Q: without an A:"]),
        ("Q: one\nA: 1\n\nA: stray\n", ["notes.md:4: A: without a Q:"]),
        ("C: [x]\nA: stray\n", ["notes.md:2: A: without a Q:"]),
        ("Q:\nA: answer\n", ["notes.md:1: empty question"]),
        ("Q: question\nA:\n\nQ: next\nA: x\n", ["notes.md:2: empty answer"]),
        ("Q: question\n---\nA: x\n", ["notes.md:2: a --- separator inside a question"]),
        (
            "<!-- drill-id: a-1 -->\nQ: one\nA: 1\n\n<!-- drill-id: a-1 -->\nQ: two\nA: 2\n",
            ["notes.md:5: duplicate drill-id `a-1` (first at line 1)"],
        ),
        ("<!-- drill-id: Not An Id -->\nQ: one\nA: 1\n", ["notes.md:1: malformed drill-id comment"]),
        ("<!-- drill-id: a-1 -->\n\nQ: one\nA: 1\n", ["notes.md:1: a drill-id comment must sit directly above"]),
        ("<!-- drill-id: a-1 -->\nC: [x]\n", ["notes.md:1: a drill-id comment must sit directly above"]),
        ("Q: one\nA: 1\n```\ncode\n", ["notes.md:3: this ``` fence is never closed"]),
        ("---\nname = 'x'\nQ: one\nA: 1\n", ["notes.md:1: front matter opened with --- is never closed"]),
        ("---\nname = \n---\nQ: one\nA: 1\n", ["notes.md:1: front matter is not TOML"]),
    ],
)
def test_errors_name_the_line(text: str, expected: list[str]) -> None:
    found = messages(text)
    assert len(found) == len(expected), found
    assert all(message.startswith(prefix) for message, prefix in zip(found, expected, strict=True)), found


def test_every_error_of_a_file_is_reported_in_line_order() -> None:
    found = messages("A: stray\n\nQ: fine\nA: fine\n\nQ: lonely\n")
    assert [message.split(":")[1] for message in found] == ["1", "6"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("#flashcards\n\nWhat is HBM::High-bandwidth memory\n", 3),
        ("Roofline:::FLOPs against bytes\n", 1),
        ("# Notes\n\nWhy is decode memory-bound?\n?\nIt reads every weight per token.\n", 4),
    ],
)
def test_obsidian_spaced_repetition_cards_are_named_not_just_missing(text: str, line: int) -> None:
    assert messages(text) == [
        f"notes.md:{line}: Obsidian spaced-repetition format is not supported; write the cards as Q: and A: lines"
    ]


def test_prose_without_cards_gives_no_error_from_the_parser() -> None:
    assert (parse("# Just notes\n\nNothing here.\n").cards, messages("# Just notes\n\nNothing here.\n")) == ([], [])
