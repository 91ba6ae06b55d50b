"""Figures as `drill stats --json` writes them: numbers rounded, shares rounded down.

The read models declare it on their fields: `Rounded` (4 places), `Tenths` (1 place) and `Floored`
(4 places, rounded down) keep the figure as computed and write it rounded.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal
from typing import Annotated

from pydantic import PlainSerializer


def rounded(value: float | None, digits: int = 4) -> float | None:
    """Rounded for JSON; rounded to 9 places first, so that sums taken in another order (SQLite
    and PostgreSQL differ in the last bit) round a half-way figure the same way."""
    return None if value is None else round(round(float(value), 9), digits)


def floored(value: float | None, digits: int = 4) -> float | None:
    """Rounded down (after the 9-place rounding of `rounded`), for a share that must never overstate:
    3 items of 44 seen show expected 0.0681, not 0.0682 > 3/44."""
    if value is None:
        return None
    return float(Decimal(repr(round(float(value), 9))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_FLOOR))


Rounded = Annotated[float | None, PlainSerializer(lambda value: rounded(value))]
Tenths = Annotated[float | None, PlainSerializer(lambda value: rounded(value, 1))]
Floored = Annotated[float | None, PlainSerializer(lambda value: floored(value))]
