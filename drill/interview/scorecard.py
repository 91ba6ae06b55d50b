"""What a mock interview came to: every answer, a score per section and overall, the worst
estimation slips. Pure; built the same way from a live interview and from the stored rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from drill.interview.settings import SECTION_TITLES, SECTIONS, InterviewSettings

ENDINGS = ("done", "time", "abandoned")  # every question answered / the countdown ran out / Escape
CODING_RESULTS = {"pass": 1.0, "gave up": 0.0}  # anything else (left unfinished) scores zero


def button_score(button: int) -> float:
    """A self-grade as a score: Again 0, Hard 1/3, Good 2/3, Easy 1."""
    return (button - 1) / 3


@dataclass(frozen=True)
class InterviewAnswer:
    """One answered question of the interview."""

    position: int  # the step's index in the plan
    section: str
    item_id: str
    seconds: float
    score: float  # 0..1
    button: int | None = None  # the self-grade (grill, pitch) or the grade an estimate's score maps to
    target_seconds: int | None = None  # a pitch's target, a drill's budget
    answer: str | None = None  # the typed text: an estimate's answer, a pitch's notes
    result: str | None = None  # an estimate's verdict line; a drill's "pass", "gave up" or "unfinished"
    detail: str | None = None  # an estimate's problem and worked solution (Markdown)

    def as_json(self) -> dict[str, Any]:
        return {"position": self.position, "section": self.section, "item_id": self.item_id,
                "seconds": round(self.seconds, 1), "score": round(self.score, 4), "button": self.button,
                "target_seconds": self.target_seconds, "answer": self.answer, "result": self.result}


@dataclass(frozen=True)
class SectionScore:
    """One section: items asked, answered, the mean score (unanswered items count zero) and time."""

    section: str
    planned: int
    answered: int
    score: float
    seconds: float

    @property
    def title(self) -> str:
        return SECTION_TITLES[self.section]

    def as_json(self) -> dict[str, Any]:
        return {"planned": self.planned, "answered": self.answered, "score": round(self.score, 4),
                "seconds": round(self.seconds, 1)}


@dataclass(frozen=True)
class Scorecard:
    """The interview as a whole."""

    settings: InterviewSettings
    planned: dict[str, int]  # items drawn per section
    answers: tuple[InterviewAnswer, ...]
    seconds_used: float
    ended: str  # one of ENDINGS
    interview_id: int | None = None
    started_at: str | None = None  # ISO, UTC (when read back)
    items: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (section, item id) of every step

    @property
    def abandoned(self) -> bool:
        return self.ended == "abandoned"

    def section(self, name: str) -> SectionScore | None:
        planned = self.planned.get(name, 0)
        if not planned:
            return None
        given = [answer for answer in self.answers if answer.section == name]
        return SectionScore(name, planned, len(given), sum(answer.score for answer in given) / planned,
                            sum(answer.seconds for answer in given))

    @property
    def sections(self) -> list[SectionScore]:
        return [score for score in (self.section(name) for name in SECTIONS) if score is not None]

    @property
    def score(self) -> float:
        """The mean of the section scores (each section weighs the same, as in an interview loop)."""
        sections = self.sections
        return sum(section.score for section in sections) / len(sections) if sections else 0.0

    def section_scores(self) -> dict[str, float | None]:
        return {name: (None if score is None else score.score) for name in SECTIONS
                for score in (self.section(name),)}

    def in_section(self, name: str) -> list[InterviewAnswer]:
        return [answer for answer in self.answers if answer.section == name]

    def worst_estimates(self, count: int = 2) -> list[InterviewAnswer]:
        """The lowest-scoring estimation answers below full credit, worst first."""
        misses = [answer for answer in self.in_section("estimate") if answer.score < 1.0]
        return sorted(misses, key=lambda answer: (answer.score, answer.position))[:count]

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.interview_id,
            "started_at": self.started_at,
            "ended": self.ended,
            "abandoned": self.abandoned,
            "seconds_allowed": self.settings.seconds,
            "seconds_used": round(self.seconds_used, 1),
            "settings": self.settings.as_json(),
            "score": round(self.score, 4),
            "sections": {score.section: score.as_json() for score in self.sections},
            "answers": [answer.as_json() for answer in self.answers],
        }
