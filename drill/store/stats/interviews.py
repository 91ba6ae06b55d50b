"""Mock interviews at a glance: how many, how they ended, mean scores per section, the latest ones.
The counts and means are SQL aggregates (drill.store.interviews.interview_summary)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, computed_field, field_serializer
from sqlalchemy import Engine

from drill.interview.scorecard import Scorecard
from drill.interview.settings import SECTIONS
from drill.read_model import ReadModel
from drill.store.interviews import interview_history, interview_summary
from drill.store.rounding import Rounded, rounded

RECENT = 10


class InterviewFigures(ReadModel):
    count: int = 0
    finished: int = 0  # every question answered or the countdown ran out
    abandoned: int = 0
    mean_score: Rounded = None
    best_score: Rounded = None
    by_section: dict[str, float | None] | None = None  # mean score per section
    recent: tuple[Scorecard, ...] = Field(default=(), exclude=True)

    @field_serializer("by_section")
    def _every_section(self, by_section: dict[str, float | None] | None) -> dict[str, float | None]:
        return {section: rounded((by_section or {}).get(section)) for section in SECTIONS}

    @computed_field
    @property
    def interviews(self) -> list[dict[str, Any]]:
        """The latest interviews as their scorecards write them, counting their answers instead of listing them."""
        return [
            card.model_dump(mode="json", exclude={"answers"}) | {"answered": len(card.answers)} for card in self.recent
        ]


def interview_figures(engine: Engine) -> InterviewFigures:
    summary = interview_summary(engine)
    return InterviewFigures(
        count=summary["count"],
        finished=summary["finished"],
        abandoned=summary["abandoned"],
        mean_score=summary["mean_score"],
        best_score=summary["best_score"],
        by_section=summary["by_section"],
        recent=tuple(interview_history(engine, RECENT)),
    )
