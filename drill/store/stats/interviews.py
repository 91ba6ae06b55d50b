"""Mock interviews at a glance: how many, how they ended, mean scores per section, the latest ones.
The counts and means are SQL aggregates (drill.store.interviews.interview_summary). And the mock
check: each finished interview's predicted score (drill.interview.forecast, stored as it started)
against the score it came to."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from pydantic import Field, computed_field, field_serializer
from sqlalchemy import Connection, Engine, select

from drill.days import study_day
from drill.interview.forecast import Forecast, Score
from drill.interview.scorecard import Scorecard
from drill.interview.settings import SECTIONS
from drill.read_model import ReadModel
from drill.store.dialect import as_iso
from drill.store.interviews import interview_history, interview_summary
from drill.store.rounding import Rounded, rounded
from drill.store.tables import mock_interview

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


class MockPrediction(ReadModel):
    """One finished interview: its study day, the score predicted as it started (with the range one
    sitting was expected to fall in) and the score it came to."""

    KEYS = ("day", "predicted", "actual", "low", "high")

    day: date
    predicted: Score
    actual: Score
    low: Rounded = None  # None for an interview whose plan kept no forecast
    high: Rounded = None

    @property
    def inside(self) -> bool | None:
        """Whether the score fell inside the predicted range (None without one)."""
        return None if self.low is None or self.high is None else self.low <= self.actual <= self.high


class MockCheck(ReadModel):
    """Predicted against actual over every finished interview that has a prediction, oldest first:
    the mean absolute error and the bias (predicted minus actual, positive when drill promised too
    much), and the share of scores inside their predicted range."""

    KEYS = ("interviews", "mean_absolute_error", "bias", "within_range")

    interviews: tuple[MockPrediction, ...] = ()

    @computed_field
    @property
    def mean_absolute_error(self) -> Rounded:
        errors = [abs(each.predicted - each.actual) for each in self.interviews]
        return sum(errors) / len(errors) if errors else None

    @computed_field
    @property
    def bias(self) -> Rounded:
        errors = [each.predicted - each.actual for each in self.interviews]
        return sum(errors) / len(errors) if errors else None

    @computed_field
    @property
    def within_range(self) -> Rounded:
        ranged = [each.inside for each in self.interviews if each.inside is not None]
        return sum(ranged) / len(ranged) if ranged else None


PREDICTIONS = (
    select(
        mock_interview.c.started_at, mock_interview.c.predicted_score, mock_interview.c.score, mock_interview.c.sections
    )
    .where(
        mock_interview.c.predicted_score.is_not(None),
        mock_interview.c.score.is_not(None),
        mock_interview.c.ended.in_(("done", "time")),
    )
    .order_by(mock_interview.c.started_at, mock_interview.c.id)
)


def mock_check(connection: Connection, rollover_hour: int) -> MockCheck:
    """Every finished interview's prediction against its score (an abandoned one's unanswered
    questions score zero: it is left out)."""
    interviews = []
    for started_at, predicted, actual, sections in connection.execute(PREDICTIONS):
        kept = json.loads(sections).get("forecast")
        forecast = None if kept is None else Forecast.model_validate(kept)
        interviews.append(
            MockPrediction(
                day=study_day(datetime.fromisoformat(as_iso(started_at)), rollover_hour),
                predicted=predicted,
                actual=actual,
                low=None if forecast is None else forecast.low,
                high=None if forecast is None else forecast.high,
            )
        )
    return MockCheck(interviews=tuple(interviews))
