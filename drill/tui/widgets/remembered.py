"""A setup screen's choices, including the one config.toml remembers when it is not among them."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def options_with(values: Iterable[int], chosen: int, label: Callable[[int], str]) -> list[tuple[str, int]]:
    """(label, value) for each value and for `chosen`, in order, for a Select."""
    return [(label(value), value) for value in sorted(set(values) | {chosen})]
