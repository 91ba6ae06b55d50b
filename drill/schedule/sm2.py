"""SM-2 (SuperMemo 2), exactly as published, with easiness kept exact to two decimals.

One addition: intervals stop at MAX_INTERVAL days (100 years, Anki's default maximum and
FSRS's), since SM-2's growth is unbounded and a long run of passes (an imported history, say)
would otherwise schedule past the last date a calendar can hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

MIN_EASINESS = Decimal("1.3")
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


def _easiness_delta(quality: int) -> Decimal:
    miss = Decimal(5 - quality)
    return Decimal("0.1") - miss * (Decimal("0.08") + miss * Decimal("0.02"))


def review(state: SM2State, quality: int) -> SM2State:
    """The state after one review graded `quality` (0–5)."""
    if not 0 <= quality <= 5:
        raise ValueError(f"SM-2 quality must be 0–5, not {quality}")
    easiness = Decimal(str(state.easiness))
    if quality >= 3:
        if state.repetitions == 0:
            interval = 1
        elif state.repetitions == 1:
            interval = 6
        else:
            interval = min(MAX_INTERVAL, int((Decimal(state.interval) * easiness).to_integral_value(ROUND_CEILING)))
        repetitions = state.repetitions + 1
    else:
        repetitions, interval = 0, 1
    easiness = max(MIN_EASINESS, easiness + _easiness_delta(quality))
    return SM2State(repetitions, interval, float(easiness.quantize(Decimal("0.01"))))


def next_interval(state: SM2State, button: int) -> int:
    """Days until the next review if the user pressed `button` (1–4) now."""
    return review(state, BUTTON_QUALITY[button]).interval
