"""What a mock interview is predicted to score: each question's expected score from the user's own
record, each section the mean of its questions' (unanswered counting zero, as the scorecard counts
them), the whole the mean of its sections (each weighing the same), and the range one sitting
falls in four times out of five. Pure; the store reads the record (drill.store.forecast).

A question is recalled or not: recalled as often as the memory model predicts on the day, that
prediction recalibrated on how the user's own reviews of that kind came out (self-graded cards
and pitches together; estimation families and coding drills held near theirs until their own
record is long enough), an item never seen as often as the user's first tries passed. Each section
then scores what the user's answers of that kind scored, recalled or not:
- grill questions and the pitch: a recalled answer is graded Hard 1/3, Good 2/3 or Easy 1 as the
  user's passes were, a miss is Again, 0;
- an estimation family: the grader's scores of the user's passed tries, and of their missed ones;
- a coding drill: a pass is 1, anything else 0.
The benchmark benchmarks/sim_readiness.py checks all of it against simulated candidates whose
memory is not drill's model; MODEL_SPREAD is the error it finds, kept in the range.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Annotated

from pydantic import Field, PlainSerializer, computed_field, field_serializer, field_validator

from drill.interview.settings import SECTIONS
from drill.read_model import ReadModel

if TYPE_CHECKING:
    from drill.schedule.memory import MemoryModel
    from drill.schedule.records import Card

RANGE_Z = 1.2816  # a normal's 10th and 90th percentiles: the range holds four sittings in five
# How far the expected score itself is off, as a standard deviation: simulated candidates whose
# memory is not drill's model (benchmarks/sim_readiness.py) see errors of about this size.
MODEL_SPREAD = 0.06
GOOD = 2 / 3  # the score of a Good, what a recalled answer is taken to score before any history
Score = Annotated[float, PlainSerializer(lambda score: round(score, 4))]  # 0..1, written to four places


def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


@dataclass(frozen=True)
class Recalibration:
    """The memory model's predicted recall as the user's own reviews bear it out: on the logit
    scale, moved by `shift` and turned by `tilt` about `center`, the reviews' mean prediction."""

    shift: float = 0.0
    tilt: float = 0.0
    center: float = 0.0

    def __call__(self, predicted: float) -> float:
        x = _logit(predicted)
        return _logistic(x + self.shift + self.tilt * (x - self.center))


# How firmly the fit holds the identity: the shift as firmly as some 40 reviews, the tilt, which
# predictions from a narrow band hardly show, more.
SHIFT_PRIOR = 10.0
TILT_PRIOR = 40.0


def _within_one(step: float) -> float:
    return max(-1.0, min(1.0, step))


def recalibration(outcomes: Iterable[tuple[float, bool]], prior: Recalibration = Recalibration()) -> Recalibration:
    """The recalibration that best explains these (predicted recall, passed) outcomes: logistic
    regression on the logit of the prediction, held near `prior` (the identity, or what another
    kind of item showed) while the record is short (Newton's method on the penalised likelihood,
    a step never over one logit)."""
    points = [(_logit(predicted), 1.0 if passed else 0.0) for predicted, passed in outcomes]
    if not points:
        return prior
    center = sum(x for x, _ in points) / len(points)
    shift, tilt = prior.shift, prior.tilt
    for _ in range(50):
        gradient = [SHIFT_PRIOR * (shift - prior.shift), TILT_PRIOR * (tilt - prior.tilt)]
        hessian = [SHIFT_PRIOR, 0.0, TILT_PRIOR]  # the symmetric 2x2's upper triangle
        for x, y in points:
            p = _logistic(x + shift + tilt * (x - center))
            weight, d = p * (1 - p), x - center
            gradient[0] += p - y
            gradient[1] += (p - y) * d
            hessian[0] += weight
            hessian[1] += weight * d
            hessian[2] += weight * d * d
        determinant = hessian[0] * hessian[2] - hessian[1] ** 2
        shift_step = _within_one((hessian[2] * gradient[0] - hessian[1] * gradient[1]) / determinant)
        tilt_step = _within_one((hessian[0] * gradient[1] - hessian[1] * gradient[0]) / determinant)
        shift, tilt = shift - shift_step, tilt - tilt_step
        if abs(shift_step) + abs(tilt_step) < 1e-9:
            break
    return Recalibration(shift, tilt, center)


@dataclass(frozen=True)
class Moments:
    """The mean score of some answers and the mean of its square."""

    mean: float
    square: float


@dataclass(frozen=True)
class Record:
    """What one section's answers score, as the user's own tries bear it out."""

    recall: Recalibration = Recalibration()
    passed: Moments = Moments(GOOD, GOOD**2)  # an answer recalled (its review passed)
    failed: Moments = Moments(0.0, 0.0)  # an answer not recalled
    first_try: float = 0.0  # the chance that an item never seen is recalled


# Before any history: a recalled grill answer or pitch is a Good, an estimate recalled nearly full
# credit and one not recalled a little, a drill recalled passes; nothing unseen is recalled.
DEFAULT_RECORDS = {
    "grill": Record(),
    "pitch": Record(),
    "estimate": Record(passed=Moments(0.9, 0.81), failed=Moments(0.2, 0.04)),
    "coding": Record(passed=Moments(1.0, 1.0)),
}


@dataclass(frozen=True)
class Expectation:
    """One question's expected score and the variance of the score it gets in one sitting."""

    section: str
    mean: float
    variance: float


def expectation(section: str, card: Card, day: date, model: MemoryModel, records: Mapping[str, Record]) -> Expectation:
    """The score `card` is expected to get if asked on `day`, in `section`: recalled (as the memory
    model predicts it, recalibrated on the user's reviews; an unseen item as often as first tries
    are) it scores what the user's recalled answers score, else what the others do."""
    record = records.get(section, DEFAULT_RECORDS[section])
    recall = model.recall(card.state, day)
    chance = record.first_try if recall is None else record.recall(recall)
    mean = chance * record.passed.mean + (1 - chance) * record.failed.mean
    square = chance * record.passed.square + (1 - chance) * record.failed.square
    return Expectation(section, mean, max(0.0, square - mean * mean))


class SectionForecast(ReadModel):
    """One section: its questions, their mean expected score and the spread of the section's score."""

    KEYS = ("questions", "score", "spread")

    section: str = Field(exclude=True)  # the key it is written under
    questions: int
    score: Score
    spread: Score  # the standard deviation of the section's score over sittings


class Forecast(ReadModel):
    """The interview's predicted score and range; its JSON is kept with the interview."""

    KEYS = ("score", "low", "high", "sections")

    sections: tuple[SectionForecast, ...]

    @field_validator("sections", mode="before")
    @classmethod
    def _from_json(cls, sections: object) -> object:
        """Read back from the JSON it writes, keyed by section."""
        if isinstance(sections, dict):
            return tuple({"section": section, **figures} for section, figures in sections.items())
        return sections

    @field_serializer("sections")
    def _by_section(self, sections: tuple[SectionForecast, ...]) -> dict[str, SectionForecast]:
        return {section.section: section for section in sections}

    @computed_field
    @property
    def score(self) -> Score:
        """The mean of the section scores, as the scorecard weighs them."""
        return sum(section.score for section in self.sections) / len(self.sections) if self.sections else 0.0

    @property
    def spread(self) -> float:
        """The standard deviation of one sitting's score about the prediction: the questions' own
        spread, and the prediction's error (MODEL_SPREAD)."""
        if not self.sections:
            return 0.0
        sitting = sum(section.spread**2 for section in self.sections) / len(self.sections) ** 2
        return math.sqrt(sitting + MODEL_SPREAD**2)

    @computed_field
    @property
    def low(self) -> Score:
        return max(0.0, self.score - RANGE_Z * self.spread)

    @computed_field
    @property
    def high(self) -> Score:
        return min(1.0, self.score + RANGE_Z * self.spread)

    def said(self) -> str:
        """The prediction as screens say it: "62% (48–74%)", or "7%" when it has no spread."""
        low, high = round(100 * self.low), round(100 * self.high)
        return f"{self.score:.0%}" + ("" if low == high else f" ({low}–{high}%)")


def forecast(expectations: Iterable[Expectation], asked: Mapping[str, int] | None = None) -> Forecast:
    """The forecast of an interview asking these questions; with `asked` (questions per section), of
    one drawing that many at random from each section's `expectations` (a whole pool)."""
    by_section: dict[str, list[Expectation]] = {}
    for each in expectations:
        by_section.setdefault(each.section, []).append(each)
    sections = []
    for section in SECTIONS:
        given = by_section.get(section, [])
        questions = len(given) if asked is None else min(asked.get(section, 0), len(given))  # as many as drawn
        if not questions:
            continue
        means = [each.mean for each in given]
        score = sum(means) / len(given)
        if asked is None:
            variance = sum(each.variance for each in given) / questions**2
        else:  # a question drawn from the pool: its own spread plus how far the pool's items differ
            within = sum(each.variance for each in given) / len(given)
            between = sum((mean - score) ** 2 for mean in means) / len(given)
            variance = (within + between) / questions
        sections.append(SectionForecast(section=section, questions=questions, score=score, spread=math.sqrt(variance)))
    return Forecast(sections=tuple(sections))
