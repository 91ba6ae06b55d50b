"""Mock-interview figures for the stats report and `drill stats --json` ("mock_interviews").

    with_interviews(engine, report) -> StatsReport       the report, carrying the interview figures
    interviews_json(report) -> dict | None               what `drill stats --json` shows
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from drill.interview.scorecard import Scorecard
from drill.interview.settings import SECTIONS
from drill.store.stats.figures import StatsReport

if TYPE_CHECKING:
    from sqlalchemy import Engine

RECENT = 10


@dataclass(frozen=True)
class InterviewFigures:
    """Every mock interview at a glance: how many, how they ended, mean scores, the latest ones."""

    count: int = 0
    finished: int = 0  # every question answered or the countdown ran out
    abandoned: int = 0
    mean_score: float | None = None
    best_score: float | None = None
    by_section: dict[str, float | None] | None = None  # mean score per section
    recent: tuple[Scorecard, ...] = ()

    def as_json(self) -> dict[str, Any]:
        def num(value: float | None) -> float | None:
            return None if value is None else round(float(value), 4)

        return {
            "count": self.count, "finished": self.finished, "abandoned": self.abandoned,
            "mean_score": num(self.mean_score), "best_score": num(self.best_score),
            "by_section": {section: num((self.by_section or {}).get(section)) for section in SECTIONS},
            "interviews": [
                {key: value for key, value in card.as_json().items() if key != "answers"} | {"answered": len(card.answers)}
                for card in self.recent
            ],
        }


@dataclass(frozen=True)
class ReportWithInterviews(StatsReport):
    """The stats report with the mock-interview figures beside the others."""

    interviews: InterviewFigures = InterviewFigures()


def interview_figures(engine: "Engine") -> InterviewFigures:
    from drill.store.interviews import interview_history, interview_summary

    summary = interview_summary(engine)
    return InterviewFigures(
        count=summary["count"], finished=summary["finished"], abandoned=summary["abandoned"],
        mean_score=summary["mean_score"], best_score=summary["best_score"],
        by_section={section: summary[section] for section in SECTIONS},
        recent=tuple(interview_history(engine, RECENT)),
    )


def with_interviews(engine: "Engine", report: StatsReport) -> ReportWithInterviews:
    values = {field.name: getattr(report, field.name) for field in fields(report)}
    return ReportWithInterviews(**values, interviews=interview_figures(engine))


def interviews_json(report: StatsReport) -> dict[str, Any] | None:
    """The figures a report carries (None for a report built without them)."""
    figures = getattr(report, "interviews", None)
    return None if figures is None else figures.as_json()
