"""Choosing rows of the card browser in memory: a search over prompt, answer, topic and id, and
filters by block, kind, suspended, leech and due, and an order by any column. Loaded once, filtered
on every keystroke."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from drill.store.browse import ItemRow


@dataclass(frozen=True)
class ItemFilter:
    """Which rows to show; each flag keeps only the rows that have it."""

    search: str = ""  # case-insensitive, anywhere in the prompt, answer, topic or id
    block: str | None = None
    kind: str | None = None
    suspended: bool = False
    leech: bool = False
    due: bool = False  # due today or overdue, and not suspended (what a review would show)

    def tests(self, today: date) -> list[Callable[[ItemRow], bool]]:
        """One test per filter that is set (the search aside), so a filter left open costs nothing."""
        chosen: list[Callable[[ItemRow], bool]] = []
        if self.block is not None:
            chosen.append(lambda row: row.block == self.block)
        if self.kind is not None:
            chosen.append(lambda row: row.kind == self.kind)
        if self.suspended:
            chosen.append(lambda row: row.suspended)
        if self.leech:
            chosen.append(lambda row: row.leech)
        if self.due:
            chosen.append(lambda row: row.due is not None and row.due <= today and not row.suspended)
        return chosen


def searched_text(row: ItemRow) -> str:
    """What a search looks in, folded once."""
    return "\n".join((row.item_id, row.topic, row.prompt, row.answer)).casefold()


class ItemIndex:
    """The browser's rows with their searched text folded once, so a filter is one pass in memory."""

    def __init__(self, rows: Iterable[ItemRow]) -> None:
        self.rows = list(rows)
        self._text = [searched_text(row) for row in self.rows]
        self._position = {row.item_id: index for index, row in enumerate(self.rows)}

    def select(self, choice: ItemFilter, today: date) -> list[ItemRow]:
        """The rows `choice` keeps, in content order."""
        needle = choice.search.strip().casefold()
        rows = list(self.rows)
        if needle:
            rows = [row for row, text in zip(rows, self._text, strict=True) if needle in text]
        for test in choice.tests(today):
            rows = [row for row in rows if test(row)]
        return rows

    def replace(self, row: ItemRow) -> None:
        """Take `row` in place of the stored row with its id (after a write changed it)."""
        index = self._position[row.item_id]
        self.rows[index] = row
        self._text[index] = searched_text(row)


def _missing_last(value: float | None) -> tuple[bool, float]:
    return (value is None, value or 0.0)


SORT_KEYS: dict[str, Callable[[ItemRow], Any]] = {  # each gives values that compare with <
    "question": lambda row: row.prompt.casefold(),
    "id": lambda row: row.item_id,
    "kind": lambda row: row.kind,
    "block": lambda row: row.block,
    "topic": lambda row: row.topic.casefold(),
    "due": lambda row: (row.due is None, row.due or date.min),  # new items after every due day
    "ivl": lambda row: row.interval,
    "ease": lambda row: row.easiness,
    "stab": lambda row: _missing_last(row.stability),
    "revs": lambda row: row.reviews,
    "laps": lambda row: row.lapses,
    "flag": lambda row: (row.suspended, row.leech),
}


@dataclass(frozen=True)
class ItemSort:
    """The browser's order: by one column (SORT_KEYS), ascending or descending; ties, and no column,
    keep content order."""

    column: str | None = None
    descending: bool = False

    def apply(self, rows: list[ItemRow]) -> list[ItemRow]:
        if self.column is None:
            return rows
        return sorted(rows, key=SORT_KEYS[self.column], reverse=self.descending)

    def by(self, column: str) -> ItemSort:
        """The order after choosing `column`: ascending, or the other way when it is already sorted by it."""
        return ItemSort(column, not self.descending if column == self.column else False)
