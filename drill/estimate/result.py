"""What grading one estimation answer gives: the verdict, both answers, the score and the worked solution.

StoredGrade is the part an estimate_attempt row keeps (its columns); GradeResult adds what a row
does not (the pretty forms, the feedback line, the worked solution) and what the score implies
(correct, quality). Both are pydantic dataclasses, made per answer: `TypeAdapter(GradeResult)`
writes a result as JSON (`drill grade --json` prints part of it) and reads that, or a stored row
(what it lacks left empty), back.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import computed_field, model_serializer
from pydantic.dataclasses import dataclass

from drill.read_model import in_published_order


@dataclass(frozen=True)
class StoredGrade:
    """A graded answer as an estimate_attempt row keeps it. `error` is set (and `parsed` None) when
    the answer could not be read."""

    truth: float  # the true value, in the family's base unit
    unit: str  # the family's unit ("byte", "second", ...)
    score: float = 0.0  # 0..1
    parsed: float | None = None  # the answer in the base unit
    error: str | None = None  # why the answer could not be read
    log_error: float | None = None  # |log10(answer / truth)|
    slip: str | None = None  # the likely slip behind a wrong answer


@dataclass(frozen=True)
class GradeResult(StoredGrade):
    """One graded answer."""

    KEYS: ClassVar[tuple[str, ...]] = (
        "correct",
        "score",
        "truth",
        "parsed",
        "error",
        "unit",
        "log_error",
        "quality",
        "truth_pretty",
        "parsed_pretty",
        "feedback",
        "slip",
        "worked",
    )

    truth_pretty: str = ""  # the truth as the worked solution writes it ("2.68 GB")
    parsed_pretty: str | None = None
    feedback: str = ""  # one line: the verdict
    worked: tuple[str, ...] = ()  # the worked solution, a line per step

    @computed_field
    @property
    def correct(self) -> bool:
        """Within the family's tolerance: only there is the credit full."""
        return self.score >= 1.0

    @computed_field
    @property
    def quality(self) -> int:
        """SM-2 quality 0..5, from the score."""
        return quality_from_score(self.score)

    _published_order = model_serializer(mode="wrap")(in_published_order)


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
