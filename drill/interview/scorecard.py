"""What a mock interview came to: every answer, a score per section and overall, the worst
estimation slips. Pure; built the same way from a live interview and from the stored rows."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, PlainSerializer, computed_field, field_serializer
from pydantic.dataclasses import dataclass

from drill.interview.forecast import Forecast, Score
from drill.interview.settings import SECTION_TITLES, SECTIONS, InterviewSettings
from drill.read_model import ReadModel

ENDINGS = ("done", "time", "abandoned")  # every question answered / the countdown ran out / Escape
CODING_RESULTS = {"pass": 1.0, "gave up": 0.0}  # anything else (left unfinished) scores zero


def button_score(button: int) -> float:
    """A self-grade as a score: Again 0, Hard 1/3, Good 2/3, Easy 1."""
    return (button - 1) / 3


Seconds = Annotated[float, PlainSerializer(lambda seconds: round(seconds, 1))]  # written to a tenth


@dataclass(frozen=True)
class InterviewAnswer:
    """One answered question of the interview."""

    position: int  # the step's index in the plan
    section: str
    item_id: str
    seconds: Seconds
    score: Score  # 0..1
    button: int | None = None  # the self-grade (grill, pitch) or the grade an estimate's score maps to
    target_seconds: int | None = None  # a pitch's target, a drill's budget
    answer: str | None = None  # the typed text: an estimate's answer, a pitch's notes
    result: str | None = None  # an estimate's verdict line; a drill's "pass", "gave up" or "unfinished"
    detail: str | None = Field(default=None, exclude=True)  # an estimate's problem and worked solution (Markdown)


class SectionScore(ReadModel):
    """One section: items asked, answered, the mean score (unanswered items count zero) and time."""

    section: str = Field(exclude=True)  # the key it is written under
    planned: int
    answered: int
    score: Score
    seconds: Seconds

    @property
    def title(self) -> str:
        return SECTION_TITLES[self.section]


class Scorecard(ReadModel):
    """The interview as a whole; its JSON is what `drill mock history --json` lists."""

    KEYS = (
        "id",
        "started_at",
        "ended",
        "abandoned",
        "seconds_allowed",
        "seconds_used",
        "settings",
        "score",
        "predicted",
        "sections",
        "answers",
    )

    settings: InterviewSettings
    planned: dict[str, int] = Field(exclude=True)  # items drawn per section
    answers: tuple[InterviewAnswer, ...]
    seconds_used: Seconds
    ended: str  # one of ENDINGS
    interview_id: int | None = Field(default=None, serialization_alias="id")
    started_at: str | None = None  # ISO, UTC (when read back)
    items: tuple[tuple[str, str], ...] = Field(default=(), exclude=True)  # (section, item id) of every step
    forecast: Forecast | None = Field(default=None, serialization_alias="predicted")  # made as it started

    @computed_field
    @property
    def abandoned(self) -> bool:
        return self.ended == "abandoned"

    @computed_field
    @property
    def seconds_allowed(self) -> int:
        return self.settings.seconds

    def section(self, name: str) -> SectionScore | None:
        planned = self.planned.get(name, 0)
        if not planned:
            return None
        given = [answer for answer in self.answers if answer.section == name]
        return SectionScore(
            section=name,
            planned=planned,
            answered=len(given),
            score=sum(answer.score for answer in given) / planned,
            seconds=sum(answer.seconds for answer in given),
        )

    @computed_field
    @property
    def sections(self) -> list[SectionScore]:
        return [score for score in (self.section(name) for name in SECTIONS) if score is not None]

    @field_serializer("sections")
    def _by_section(self, sections: list[SectionScore]) -> dict[str, SectionScore]:
        return {score.section: score for score in sections}

    @computed_field
    @property
    def score(self) -> Score:
        """The mean of the section scores (each section weighs the same, as in an interview loop)."""
        sections = self.sections
        return sum(section.score for section in sections) / len(sections) if sections else 0.0

    def section_scores(self) -> dict[str, float | None]:
        return {name: (None if score is None else score.score) for name in SECTIONS for score in (self.section(name),)}

    def in_section(self, name: str) -> list[InterviewAnswer]:
        return [answer for answer in self.answers if answer.section == name]

    def worst_estimates(self, count: int = 2) -> list[InterviewAnswer]:
        """The lowest-scoring estimation answers below full credit, worst first."""
        misses = [answer for answer in self.in_section("estimate") if answer.score < 1.0]
        return sorted(misses, key=lambda answer: (answer.score, answer.position))[:count]
