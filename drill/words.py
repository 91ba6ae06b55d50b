"""How drill writes a count: '1 day', '3 days', '1 review', '0 reviews' (one way, used everywhere)."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and its noun, singular only for exactly one; `plural` when it is not noun + 's'."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
