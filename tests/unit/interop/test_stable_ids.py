"""Stable ids for imported cards: the file's own, then drill's record of the last import matched
by question, answer and place, then new ones from the deck and the question."""

from __future__ import annotations

import re

from drill.content.models import ContentItem
from drill.interop.cards import ParsedCard
from drill.interop.stable_ids import assign_ids


def card(prompt: str, answer: str, item_id: str | None = None) -> ParsedCard:
    return ParsedCard(item_id, prompt, answer, 1)


def recorded(*cards: tuple[str, str, str]) -> list[ContentItem]:
    return [
        ContentItem(id=item_id, kind="card", block="memory", topic="t", prompt=prompt, answer=answer, source="s")
        for item_id, prompt, answer in cards
    ]


LAST = recorded(("md-a", "Qa", "Aa"), ("md-b", "Qb", "Ab"), ("md-c", "Qc", "Ac"))


def ids(cards: list[ParsedCard], last: list[ContentItem] = LAST, taken: frozenset[str] = frozenset()) -> list[str]:
    return assign_ids(cards, last, "kv-cache", "md", set(taken))


def test_new_ids_come_from_the_deck_and_the_question_and_repeat_on_the_next_first_import() -> None:
    first = ids([card("Q1", "A1"), card("Q2", "A2")], [])
    assert all(re.fullmatch(r"md-[0-9a-f]{10}", item_id) for item_id in first) and first[0] != first[1]
    assert ids([card("Q2", "other"), card("Q1", "A1")], []) == first[::-1]
    assert assign_ids([card("Q1", "A1")], [], "other-deck", "md", set()) != first[:1]


def test_the_same_question_twice_or_a_taken_id_gets_the_next_free_one() -> None:
    twice = ids([card("Q", "A1"), card("Q", "A2")], [])
    assert len(set(twice)) == 2
    assert ids([card("Q", "A1")], [], taken=frozenset(twice[:1])) == twice[1:]


def test_an_id_the_file_gives_wins() -> None:
    assert ids([card("Qa", "Aa", "mine"), card("Qb", "Ab")]) == ["mine", "md-b"]


def test_unchanged_and_moved_cards_keep_their_ids_by_question() -> None:
    assert ids([card("Qc", "Ac"), card("Qa", "Aa"), card("Qb", "Ab")]) == ["md-c", "md-a", "md-b"]


def test_an_edited_question_keeps_the_id_through_its_answer() -> None:
    assert ids([card("Qc", "Ac"), card("Qa edited", "Aa"), card("Qb", "Ab")]) == ["md-c", "md-a", "md-b"]


def test_a_card_edited_on_both_sides_keeps_the_id_of_its_place() -> None:
    assert ids([card("Qa", "Aa"), card("Qb new", "Ab new"), card("Qc", "Ac")]) == ["md-a", "md-b", "md-c"]


def test_a_card_added_elsewhere_is_new_and_a_removed_card_never_lends_its_id() -> None:
    found = ids([card("Qa", "Aa"), card("Qc", "Ac"), card("Qd", "Ad")])
    assert found[:2] == ["md-a", "md-c"]
    assert found[2] not in {"md-a", "md-b", "md-c"}


def test_an_edited_card_never_takes_the_id_of_a_card_still_there() -> None:
    # The first card now has b's answer, but b is still there: b keeps its id (its question) and
    # the edited first card keeps a's (its place).
    assert ids([card("Qa2", "Ab"), card("Qb", "Ab"), card("Qc", "Ac")]) == ["md-a", "md-b", "md-c"]
