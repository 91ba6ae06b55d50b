"""What grading one estimation answer gives: the verdict, both answers, the score and the worked solution.

`as_json()` is its JSON form (`drill grade --json` prints part of it) and, in its STORED keys,
the columns an estimate_attempt row keeps. `from_json()` reads either back: a row stored by any
drill so far loads, with what a row does not keep (the feedback line, the pretty forms, the worked
solution) left empty and what it implies (correct, quality) worked out from its score.
Stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

STORED = ("parsed", "truth", "unit", "score", "log_error", "slip", "error")  # estimate_attempt's columns


@dataclass(frozen=True)
class GradeResult:
    """One graded answer. `error` is set (and `parsed` None) when the answer could not be read."""

    truth: float  # the true value, in the family's base unit
    unit: str  # the family's unit ("byte", "second", ...)
    truth_pretty: str  # the truth as the worked solution writes it ("2.68 GB")
    correct: bool = False  # within the family's tolerance
    score: float = 0.0  # 0..1
    parsed: float | None = None  # the answer in the base unit
    error: str | None = None  # why the answer could not be read
    log_error: float | None = None  # |log10(answer / truth)|
    quality: int = 0  # SM-2 quality 0..5, from the score
    parsed_pretty: str | None = None
    feedback: str = ""  # one line: the verdict
    slip: str | None = None  # the likely slip behind a wrong answer
    worked: tuple[str, ...] = ()  # the worked solution, a line per step

    def as_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct, "score": self.score, "truth": self.truth, "parsed": self.parsed,
            "error": self.error, "unit": self.unit, "log_error": self.log_error, "quality": self.quality,
            "truth_pretty": self.truth_pretty, "parsed_pretty": self.parsed_pretty, "feedback": self.feedback,
            "slip": self.slip, "worked": list(self.worked),
        }

    def stored(self) -> dict[str, Any]:
        """The estimate_attempt columns this result fills."""
        return {key: value for key, value in self.as_json().items() if key in STORED}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GradeResult:
        """Read `as_json()` back, or a stored estimate_attempt row (any mapping with its STORED columns)."""
        score = float(data["score"])
        return cls(
            truth=float(data["truth"]),
            unit=data["unit"],
            truth_pretty=data.get("truth_pretty") or "",
            correct=bool(data.get("correct", score >= 1.0)),  # full credit only within the tolerance
            score=score,
            parsed=_number(data["parsed"]),
            error=data["error"],
            log_error=_number(data["log_error"]),
            quality=int(data.get("quality", quality_from_score(score))),
            parsed_pretty=data.get("parsed_pretty"),
            feedback=data.get("feedback") or "",
            slip=data["slip"],
            worked=tuple(data.get("worked") or ()),
        )


def quality_from_score(score: float) -> int:
    """SM-2 quality 0..5: 5 full credit; 4 within ~1.7×; 3 within ~2.2×; 2 within ~4×; 1 some credit; 0 none."""
    if score >= 1.0:
        return 5
    if score >= 0.65:
        return 4
    if score >= 0.55:
        return 3
    if score >= 0.3:
        return 2
    if score > 0:
        return 1
    return 0


def _number(value: object) -> float | None:
    return None if value is None else float(value)  # PostgreSQL may return a Decimal
