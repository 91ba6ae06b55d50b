"""SM-2 (SuperMemo 2), exactly as published, with easiness kept exact to two decimals.

Easiness is computed in whole hundredths (integers), exactly as decimal arithmetic would: the
interval is the ceiling of interval × easiness, and the new easiness is rounded half-even to a
hundredth (a stored easiness is always on that grid already, so nothing is lost to floats).

One addition: intervals stop at MAX_INTERVAL days (100 years, Anki's default maximum and
FSRS's), since SM-2's growth is unbounded and a long run of passes (an imported history, say)
would otherwise schedule past the last date a calendar can hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

MIN_EASINESS = 130  # hundredths: 1.3
MAX_INTERVAL = 36_500

# Buttons as Anki shows them, mapped to SM-2 quality.
BUTTON_QUALITY = {1: 2, 2: 3, 3: 4, 4: 5}
BUTTON_LABEL = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


@dataclass(frozen=True)
class SM2State:
    """The scheduling state of one item."""

    repetitions: int = 0
    interval: int = 0
    easiness: float = 2.5


def _hundredths(easiness: float) -> int | Fraction:
    """`easiness` in hundredths, exactly as its decimal text reads: a whole number on SM-2's grid."""
    scaled = round(easiness * 100)
    return scaled if scaled / 100 == easiness else Fraction(str(easiness)) * 100


def step(repetitions: int, interval: int, easiness: float, quality: int) -> tuple[int, int, float]:
    """(repetitions, interval, easiness) after one review graded `quality` (0–5)."""
    if not 0 <= quality <= 5:
        raise ValueError(f"SM-2 quality must be 0–5, not {quality}")
    hundredths = _hundredths(easiness)
    if quality >= 3:
        if repetitions == 0:
            interval = 1
        elif repetitions == 1:
            interval = 6
        else:
            interval = min(MAX_INTERVAL, -(-interval * hundredths // 100))  # the ceiling, exactly
        repetitions += 1
    else:
        repetitions, interval = 0, 1
    miss = 5 - quality
    hundredths = max(MIN_EASINESS, hundredths + 10 - miss * (8 + miss * 2))  # EF += 0.1 − miss·(0.08 + miss·0.02)
    return repetitions, interval, round(hundredths) / 100


def review(state: SM2State, quality: int) -> SM2State:
    """The state after one review graded `quality` (0–5)."""
    return SM2State(*step(state.repetitions, state.interval, state.easiness, quality))


def next_interval(state: SM2State, button: int) -> int:
    """Days until the next review if the user pressed `button` (1–4) now."""
    return review(state, BUTTON_QUALITY[button]).interval
