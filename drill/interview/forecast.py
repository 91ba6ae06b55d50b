"""What a mock interview is predicted to score: each question's expected score from the user's own
record, each section the mean of its questions' (unanswered counting zero, as the scorecard counts
them), the whole the mean of its sections (each weighing the same), and the range one sitting
falls in four times out of five. Pure; the store reads the record (drill.store.forecast).

A question is recalled or not: recalled as often as the memory model predicts on the day, that
prediction recalibrated on how the user's own reviews of that kind came out (self-graded cards
and pitches together; estimation families and coding drills held near theirs until their own
record is long enough) and moved by the item's own record (how far its earlier tries beat or
missed that fit, as far as the user's reviews show such records to matter), an item never seen
as often as the user's first tries of its section passed. Each section then scores what the
user's answers of that kind scored, recalled or not, moved along the lift their reviews show
(the likelier the recall, the better the answer):
- grill questions and the pitch: a recalled answer is graded Hard 1/3, Good 2/3 or Easy 1 as the
  user's passes were, a miss is Again, 0;
- an estimation family: the grader's scores of the user's passed tries, and of their missed ones;
- a coding drill: a pass is 1, anything else 0.
The range holds the questions' own spread, the record's doubt (the recalibration's standard
error, wide while the reviews are few) and MODEL_SPREAD, the error benchmarks/sim_readiness.py
finds against simulated candidates whose memory is not drill's model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Annotated, NamedTuple

from pydantic import Field, PlainSerializer, computed_field, field_serializer, field_validator

from drill.interview.settings import SECTIONS
from drill.read_model import ReadModel

if TYPE_CHECKING:
    from drill.schedule.memory import MemoryModel
    from drill.schedule.records import Card

RANGE_Z = 1.2816  # a normal's 10th and 90th percentiles: the range holds four sittings in five
# How far the expected score itself is off, as a standard deviation: simulated candidates whose
# memory is not drill's model (benchmarks/sim_readiness.py) see errors of about this size.
MODEL_SPREAD = 0.05
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
    scale, moved by `shift`, turned by `tilt` about `center` (the reviews' mean prediction), and
    moved by `item` times the item's own offset (how its earlier tries beat or missed the fit)."""

    shift: float = 0.0
    tilt: float = 0.0
    center: float = 0.0
    item: float = 0.0
    doubt: float = 0.0  # the standard error of the shift: how far the few reviews leave it unsure

    def __call__(self, predicted: float, offset: float = 0.0) -> float:
        x = _logit(predicted)
        return _logistic(x + self.shift + self.tilt * (x - self.center) + self.item * offset)


class Outcome(NamedTuple):
    """One review a recalibration learns from: the recall predicted, whether it passed, and the
    item's offset before it."""

    predicted: float
    passed: bool
    offset: float = 0.0


# How firmly the fit holds its prior: the shift as firmly as some 40 reviews, the tilt, which
# predictions from a narrow band hardly show, more, and the items' offsets as firmly as the shift.
PRIOR_PRECISION = (10.0, 40.0, 10.0)


def recalibration(
    outcomes: Iterable[tuple[float, bool] | Outcome], prior: Recalibration = Recalibration()
) -> Recalibration:
    """The recalibration that best explains these outcomes: logistic regression on the logit of the
    prediction and the item's offset, held near `prior` (the identity, or what another kind of item
    showed) while the record is short (Newton's method on the penalised likelihood, a step never
    over one logit); with the shift's standard error, large while the record is short."""
    import numpy as np

    points = [Outcome(*each) for each in outcomes]
    if not points:
        return prior
    logits = np.array([_logit(each.predicted) for each in points])
    center = float(logits.mean())
    design = np.column_stack([np.ones(len(points)), logits - center, [each.offset for each in points]])
    passed = np.array([1.0 if each.passed else 0.0 for each in points])
    precision = np.diag(PRIOR_PRECISION)
    held = np.array([prior.shift, prior.tilt, prior.item])
    fit = held.copy()
    for _ in range(50):
        chance = 1 / (1 + np.exp(-(logits + design @ fit)))
        gradient = design.T @ (chance - passed) + precision @ (fit - held)
        hessian = (design * (chance * (1 - chance))[:, None]).T @ design + precision
        step = np.clip(np.linalg.solve(hessian, gradient), -1.0, 1.0)
        fit -= step
        if np.abs(step).sum() < 1e-9:
            break
    shift, tilt, item = (float(each) for each in fit)
    doubt = math.sqrt(float(np.linalg.inv(hessian)[0, 0]))
    return Recalibration(shift, tilt, center, item, doubt)


@dataclass(frozen=True)
class Moments:
    """The mean score of some answers and the mean of its square."""

    mean: float
    square: float


# How firmly a lift holds at none: as firmly as some 50 answers whose chances spread 0.1.
LIFT_PRIOR = 0.5


@dataclass(frozen=True)
class Lift:
    """How much more an answer scores the likelier its recall was: `slope` per unit of the
    recalibrated chance, about `center`, the mean chance of the answers it was fitted on."""

    slope: float = 0.0
    center: float = 0.0


def lift(answers: Iterable[tuple[float, float]]) -> Lift:
    """The lift these (recalibrated chance, score) answers show: least squares held near none
    (LIFT_PRIOR) while they are few or their chances alike."""
    pairs = list(answers)
    if not pairs:
        return Lift()
    center = sum(chance for chance, _ in pairs) / len(pairs)
    mean = sum(score for _, score in pairs) / len(pairs)
    spread = sum((chance - center) ** 2 for chance, _ in pairs)
    together = sum((chance - center) * (score - mean) for chance, score in pairs)
    return Lift(together / (spread + LIFT_PRIOR), center)


@dataclass(frozen=True)
class Record:
    """What one section's answers score, as the user's own tries bear it out."""

    recall: Recalibration = Recalibration()
    passed: Moments = Moments(GOOD, GOOD**2)  # an answer recalled (its review passed)
    failed: Moments = Moments(0.0, 0.0)  # an answer not recalled
    first_try: float = 0.0  # the chance that an item never seen is recalled
    passed_lift: Lift = Lift()  # how a recalled answer's score moves with its chance
    failed_lift: Lift = Lift()  # and one not recalled
    offsets: Mapping[str, float] = field(default_factory=dict)  # each item's, as the recalibration takes it


def _at(moments: Moments, lift: Lift, chance: float) -> Moments:
    """What answers score at `chance`: their mean moved along the lift, their spread kept."""
    mean = min(1.0, max(0.0, moments.mean + lift.slope * (chance - lift.center)))
    return Moments(mean, moments.square - moments.mean**2 + mean**2)


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
    """One question's expected score, the variance of the score it gets in one sitting, and how far
    the expected score itself may be off for the record's doubt (a standard deviation)."""

    section: str
    mean: float
    variance: float
    doubt: float = 0.0


def expectation(section: str, card: Card, day: date, model: MemoryModel, records: Mapping[str, Record]) -> Expectation:
    """The score `card` is expected to get if asked on `day`, in `section`: recalled (as the memory
    model predicts it, recalibrated on the user's reviews and the item's own offset; an unseen item
    as often as first tries are) it scores what the user's recalled answers score at that chance
    (the lift), else what the others do at it; with the doubt the recalibration leaves."""
    record = records.get(section, DEFAULT_RECORDS[section])
    recall = model.recall(card.state, day)
    if recall is None:  # the lifts are the predicted reviews': a first try scores as answers do
        chance, passed, failed, doubt = record.first_try, record.passed, record.failed, 0.0
    else:
        chance = record.recall(recall, record.offsets.get(card.item_id, 0.0))
        passed, failed = _at(record.passed, record.passed_lift, chance), _at(record.failed, record.failed_lift, chance)
        doubt = chance * (1 - chance) * abs(passed.mean - failed.mean) * record.recall.doubt
    mean = chance * passed.mean + (1 - chance) * failed.mean
    square = chance * passed.square + (1 - chance) * failed.square
    return Expectation(section, mean, max(0.0, square - mean * mean), doubt)


class SectionForecast(ReadModel):
    """One section: its questions, their mean expected score and the spread of the section's score."""

    KEYS = ("questions", "score", "spread")

    section: str = Field(exclude=True)  # the key it is written under
    questions: int
    score: Score
    spread: Score  # the standard deviation of the section's score over sittings and the record's doubt


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
        doubt = sum(each.doubt for each in given) / len(given)  # one record moves its questions together
        spread = math.sqrt(variance + doubt**2)
        sections.append(SectionForecast(section=section, questions=questions, score=score, spread=spread))
    return Forecast(sections=tuple(sections))
