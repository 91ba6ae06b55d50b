"""A setup screen's choices, including the one config.toml remembers when it is not among them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widgets import Select


def options_with(values: Iterable[int], chosen: int, label: Callable[[int], str]) -> list[tuple[str, int]]:
    """(label, value) for each value and for `chosen`, in order, for a Select."""
    return [(label(value), value) for value in sorted(set(values) | {chosen})]


def picked(select: Select[int]) -> int:
    """The number chosen in a setup's Select."""
    value = select.value
    assert isinstance(value, int)  # a setup's Selects allow no blank: one number is always chosen
    return value
