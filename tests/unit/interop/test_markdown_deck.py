"""Markdown decks: Q:/A: blocks, fences, id comments written back, errors by line."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from drill.interop.markdown_deck import parse_markdown

PATH = Path("notes.md")


def counter():
    numbers = itertools.count(1)
    return lambda: f"md-{next(numbers):08x}"


def parse(text: str):
    return parse_markdown(text, PATH, counter())


def messages(text: str) -> list[str]:
    return [str(error) for error in parse(text).errors]


def test_cards_span_lines_and_prose_between_them_is_ignored() -> None:
    text = (
        "# Memory\n"
        "\n"
        "Notes that are not a card.\n"
        "\n"
        "Q: Why is decode\n"
        "memory-bound?\n"
        "A: Each token reads\n"
        "all the weights.\n"
        "\n"
        "More notes.\n"
        "Q: Second?\n"
        "A: Yes.\n"
    )
    parsed = parse(text)
    assert parsed.errors == []
    assert [(card.prompt, card.answer, card.line) for card in parsed.cards] == [
        ("Why is decode\nmemory-bound?", "Each token reads\nall the weights.", 5),
        ("Second?", "Yes.", 11),
    ]


def test_blank_lines_inside_a_fence_do_not_end_the_answer() -> None:
    text = "Q: Write it\nA: Like this:\n```python\nx = 1\n\nQ: not a new card\n```\nand that is all.\n\n"
    text += "Q: Next\nA: card\n"
    parsed = parse(text)
    assert parsed.errors == []
    assert parsed.cards[0].answer == "Like this:\n```python\nx = 1\n\nQ: not a new card\n```\nand that is all."
    assert [card.prompt for card in parsed.cards] == ["Write it", "Next"]


def test_an_empty_a_line_lets_the_answer_start_below_as_hashcards_writes_it() -> None:
    parsed = parse("Q: List the PGM minerals.\nA:\n\n- ruthenium\n- rhodium\n")
    assert parsed.errors == []
    assert parsed.cards[0].answer == "- ruthenium\n- rhodium"


def test_ids_are_written_directly_above_each_q_line_and_existing_ones_are_kept() -> None:
    text = "Q: one\nA: 1\n\n<!-- drill-id: kept-id -->\nQ: two\nA: 2\n\nQ: three\nA: 3\n"
    parsed = parse(text)
    assert [card.id for card in parsed.cards] == ["md-00000001", "kept-id", "md-00000002"]
    assert parsed.new_ids == 2
    assert parsed.rewritten == (
        "<!-- drill-id: md-00000001 -->\nQ: one\nA: 1\n\n<!-- drill-id: kept-id -->\nQ: two\nA: 2\n\n"
        "<!-- drill-id: md-00000002 -->\nQ: three\nA: 3\n"
    )


def test_writing_ids_back_is_idempotent() -> None:
    first = parse_markdown("Q: one\nA: 1\n\nQ: two\nA: 2\n", PATH)
    assert all(re.fullmatch(r"md-[0-9a-f]{8}", card.id) for card in first.cards)
    again = parse_markdown(first.rewritten, PATH)
    assert again.rewritten is None and again.new_ids == 0
    assert [card.id for card in again.cards] == [card.id for card in first.cards]
    assert [(card.prompt, card.answer) for card in again.cards] == [(card.prompt, card.answer) for card in first.cards]


def test_a_new_id_never_repeats_one_written_further_down() -> None:
    parsed = parse("Q: one\nA: 1\n\n<!-- drill-id: md-00000001 -->\nQ: two\nA: 2\n")
    assert [card.id for card in parsed.cards] == ["md-00000002", "md-00000001"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Q: one\nA: 1\n\nQ: lonely\n\nQ: three\nA: 3\n", ["notes.md:4: Q: without an A:"]),
        ("Q: one\nA: 1\n\nA: stray\n", ["notes.md:4: A: without a Q:"]),
        ("Q:\nA: answer\n", ["notes.md:1: empty question"]),
        ("Q: question\nA:\n\nQ: next\nA: x\n", ["notes.md:2: empty answer"]),
        (
            "<!-- drill-id: a-1 -->\nQ: one\nA: 1\n\n<!-- drill-id: a-1 -->\nQ: two\nA: 2\n",
            ["notes.md:5: duplicate drill-id `a-1` (first at line 1)"],
        ),
        ("<!-- drill-id: Not An Id -->\nQ: one\nA: 1\n", ["notes.md:1: malformed drill-id comment"]),
        ("<!-- drill-id: a-1 -->\n\nQ: one\nA: 1\n", ["notes.md:1: a drill-id comment must sit directly above"]),
        ("Q: one\nA: 1\n```\ncode\n", ["notes.md:3: this ``` fence is never closed"]),
        ("C: The [order] of a group\n", ["notes.md:1: cloze cards (C:) are not supported"]),
    ],
)
def test_errors_name_the_line(text: str, expected: list[str]) -> None:
    found = messages(text)
    assert len(found) == len(expected)
    assert all(message.startswith(prefix) for message, prefix in zip(found, expected, strict=True))


def test_every_error_of_a_file_is_reported_in_line_order() -> None:
    found = messages("A: stray\n\nQ: fine\nA: fine\n\nQ: lonely\n")
    assert [message.split(":")[1] for message in found] == ["1", "6"]
