"""Mock interviews at a glance: how many, how they ended, mean scores per section, the latest ones.
The counts and means are SQL aggregates (drill.store.interviews.interview_summary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from drill.interview.scorecard import Scorecard
from drill.interview.settings import SECTIONS
from drill.store.interviews import interview_history, interview_summary
from drill.store.stats.rounding import rounded

RECENT = 10


@dataclass(frozen=True)
class InterviewFigures:
    count: int = 0
    finished: int = 0  # every question answered or the countdown ran out
    abandoned: int = 0
    mean_score: float | None = None
    best_score: float | None = None
    by_section: dict[str, float | None] | None = None  # mean score per section
    recent: tuple[Scorecard, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "count": self.count, "finished": self.finished, "abandoned": self.abandoned,
            "mean_score": rounded(self.mean_score), "best_score": rounded(self.best_score),
            "by_section": {section: rounded((self.by_section or {}).get(section)) for section in SECTIONS},
            "interviews": [
                {key: value for key, value in card.as_json().items() if key != "answers"} | {"answered": len(card.answers)}
                for card in self.recent
            ],
        }


def interview_figures(engine: Engine) -> InterviewFigures:
    summary = interview_summary(engine)
    return InterviewFigures(
        count=summary["count"], finished=summary["finished"], abandoned=summary["abandoned"],
        mean_score=summary["mean_score"], best_score=summary["best_score"],
        by_section={section: summary[section] for section in SECTIONS},
        recent=tuple(interview_history(engine, RECENT)),
    )
