"""Which memory model fits a user's own history: every registered model replayed over the same reviews.

Pure: no SQL, no I/O. Every counted review that has an earlier counted review of the same
item is a prediction to score. Before it, each memory model (drill.schedule.memory) says how
likely recall is from the item's state just before the review (`MemoryModel.recall`):

- SM-2 does not predict recall; the usual proxy is R = 0.9^(elapsed days / interval before),
  i.e. 90 % when the item is reviewed on its due day (drill.schedule.sm2_memory);
- FSRS predicts it: the retrievability of its state just before the review;
- FSRS with the user's fitted parameters (`drill scheduler optimize`), when there are some, is
  scored beside them as FITTED, its memory replayed with those parameters.

The outcome is a pass when the button was above Again (button > 1). Each model gets the log
loss and the RMSE of its predictions against the outcomes; lower is better on both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from pydantic import Field, computed_field

from drill.read_model import ReadModel
from drill.schedule import fsrs_model, memory
from drill.schedule.fsrs_model import FSRSSettings, FSRSState
from drill.schedule.grading import ItemState, apply_quality
from drill.schedule.memory import Rating
from drill.schedule.sm2_memory import sm2_recall

__all__ = [
    "CLIP",
    "FITTED",
    "Comparison",
    "Fit",
    "PastReview",
    "Prediction",
    "Replayer",
    "compare",
    "fit",
    "predictions",
    "sm2_recall",
]

CLIP = 1e-6  # predictions are clipped to [CLIP, 1 − CLIP] for the log loss
FITTED = "fsrs-fitted"  # FSRS with the user's fitted parameters, scored beside the registered models


def label(name: str) -> str:
    """What reports call the model registered as `name` (the name itself once it is gone)."""
    if name == FITTED:
        return "FSRS (fitted)"
    try:
        return memory.get(name).label
    except memory.UnknownModel:
        return name


def _and(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


@dataclass(frozen=True, slots=True)
class PastReview:
    """One counted review as stored: which item, on which study day, which button and SM-2 quality."""

    item_id: str
    day: date
    button: int
    quality: int


@dataclass(frozen=True, slots=True)
class Prediction:
    """Every model's recall prediction for one review, and what happened.

    `recall` maps each model's name to its prediction; `prediction.sm2` reads `recall["sm2"]`."""

    item_id: str
    day: date
    elapsed_days: int
    passed: bool
    recall: dict[str, float]

    def __getattr__(self, name: str) -> float:
        if name.startswith("_") or name == "recall":
            raise AttributeError(name)
        try:
            return self.recall[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no attribute or model {name!r}") from None


class Fit(ReadModel):
    """How well one model's predictions match the outcomes (None when there is nothing to score)."""

    log_loss: float | None = None
    rmse: float | None = None
    mean_prediction: float | None = None


class Comparison(ReadModel):
    """The registered memory models against each other over one history; its JSON is what
    `drill scheduler compare --json` prints.

    `fits` maps each model's name to its Fit, in registration order; `comparison.sm2` reads
    `fits["sm2"]`."""

    reviews: int  # counted reviews replayed
    items: int  # items with at least one counted review
    compared: int  # reviews with an earlier review: the predictions scored
    passed: int  # of those, how many were passes
    fits: dict[str, Fit] = Field(serialization_alias="models")

    def __getattr__(self, name: str) -> Fit:
        try:
            return self.__dict__["fits"][name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no attribute or model {name!r}") from None

    def _losses(self) -> dict[str, float]:
        """Each model's log loss, best (lowest) first; a model with nothing scored is left out."""
        scored = {name: fit.log_loss for name, fit in self.fits.items() if fit.log_loss is not None}
        return dict(sorted(scored.items(), key=lambda pair: pair[1]))

    def _ranked(self) -> list[str]:
        """The models with a log loss, best (lowest) first."""
        return list(self._losses())

    def _ties(self, name: str) -> list[str]:
        losses = self._losses()
        return [
            other for other, loss in losses.items() if math.isclose(loss, losses[name], rel_tol=1e-9, abs_tol=1e-12)
        ]

    @computed_field
    @property
    def better(self) -> str | None:
        """The name of the model with the lowest log loss; None when there is nothing to compare or
        the best ones tie."""
        ranked = self._ranked()
        if len(ranked) < 2 or len(self._ties(ranked[0])) > 1:
            return None
        return ranked[0]

    @computed_field
    @property
    def verdict(self) -> str:
        """One line: which model fits this history better."""
        if self.compared == 0:
            return "Nothing to compare yet: no item has been reviewed on two different study days."
        better = self.better
        if better is None:
            ranked = self._ranked()
            tied = self._ties(ranked[0]) if ranked else list(self.fits)
            return f"{_and([label(name) for name in tied])} fit your history equally well."
        mine, theirs = self.fits[better], self.fits[self._ranked()[1]]
        line = f"{label(better)} fits your history better: log loss {mine.log_loss:.3f} vs {theirs.log_loss:.3f}"
        assert mine.rmse is not None
        others = {name: fit.rmse for name, fit in self.fits.items() if name != better and fit.rmse is not None}
        lower = min(others, key=others.__getitem__, default=None)
        if lower is not None and mine.rmse > others[lower]:
            line += f", though {label(lower)}'s RMSE is lower ({others[lower]:.3f} vs {mine.rmse:.3f})"
        if self.compared < 100:
            line += f" (only {self.compared} reviews scored: a hint, not a verdict)"
        return line + "."


class _Score:
    """Running sums for one model's log loss and RMSE."""

    def __init__(self) -> None:
        self.n = 0
        self.loss = self.squares = self.total = 0.0

    def add(self, p: float, passed: bool) -> None:
        clipped = min(max(p, CLIP), 1 - CLIP)
        self.loss -= math.log(clipped) if passed else math.log(1 - clipped)
        self.squares += (p - (1.0 if passed else 0.0)) ** 2
        self.total += p
        self.n += 1

    def fit(self) -> Fit:
        if not self.n:
            return Fit()
        return Fit(
            log_loss=self.loss / self.n, rmse=math.sqrt(self.squares / self.n), mean_prediction=self.total / self.n
        )


def fit(predicted: Sequence[float], passed: Sequence[bool]) -> Fit:
    """Log loss (natural log, predictions clipped to [CLIP, 1 − CLIP]) and RMSE against the outcomes."""
    if len(predicted) != len(passed):
        raise ValueError("one prediction per outcome")
    score = _Score()
    for p, y in zip(predicted, passed, strict=True):
        score.add(p, y)
    return score.fit()


class Replayer:
    """Each item's state (SM-2's and FSRS's memories) fed one counted review at a time (each item's
    in time order); every registered model predicts from the state before a review, and so does
    FSRS with `fitted` settings when given (as FITTED)."""

    def __init__(self, fitted: FSRSSettings | None = None) -> None:
        self.models = memory.models()
        self.states: dict[str, ItemState] = {}
        self.fitted = fitted
        self.fitted_states: dict[str, FSRSState] = {}
        self.reviews = 0

    @property
    def names(self) -> list[str]:
        """The names of the predictions made, in order."""
        return [model.name for model in self.models] + ([FITTED] if self.fitted is not None else [])

    @property
    def items(self) -> int:
        return len(self.states)

    def feed(self, review: PastReview) -> Prediction | None:
        """Apply `review`; return every model's prediction for it when the item was reviewed before."""
        self.reviews += 1
        before = self.states.get(review.item_id, ItemState())
        if before.last_review_day == review.day:
            return None  # drill counts one review per item and day; a second changes no model
        prediction = None
        fitted_before = self.fitted_states.get(review.item_id, FSRSState())
        if before.last_review_day is not None:
            recall = {model.name: _reviewed_recall(model, before, review.day) for model in self.models}
            if self.fitted is not None:
                recall[FITTED] = fsrs_model.retrievability(fitted_before, review.day, self.fitted)
            prediction = Prediction(
                review.item_id,
                review.day,
                (review.day - before.last_review_day).days,
                review.button > Rating.AGAIN,
                recall,
            )
        after = apply_quality(before, review.quality, review.day)
        fsrs = fsrs_model.review(before.memory, review.button, review.day)
        self.states[review.item_id] = replace(
            after, fsrs_stability=fsrs.stability, fsrs_difficulty=fsrs.difficulty, fsrs_due_day=fsrs.due_day
        )
        if self.fitted is not None:
            self.fitted_states[review.item_id] = fsrs_model.review(
                fitted_before, review.button, review.day, self.fitted
            )
        return prediction


def _reviewed_recall(model: memory.MemoryModel, before: ItemState, day: date) -> float:
    """The model's prediction for an item reviewed before (only a never-reviewed one has none)."""
    recall = model.recall(before, day)
    if recall is None:
        raise ValueError(f"{model.name} predicts no recall for an item reviewed on {before.last_review_day}")
    return recall


def predictions(reviews: Iterable[PastReview]) -> list[Prediction]:
    """Every model's predictions for every review that has an earlier one."""
    replayer = Replayer()
    return [p for p in map(replayer.feed, reviews) if p is not None]


def compare(reviews: Iterable[PastReview], fitted: FSRSSettings | None = None) -> Comparison:
    """Score every registered model on a whole history (counted reviews only), streaming it once;
    FSRS with `fitted` settings too, when given."""
    replayer = Replayer(fitted)
    scores = {name: _Score() for name in replayer.names}
    compared = passed = 0
    for review in reviews:
        prediction = replayer.feed(review)
        if prediction is None:
            continue
        for name, score in scores.items():
            score.add(prediction.recall[name], prediction.passed)
        compared += 1
        passed += prediction.passed
    return Comparison(
        reviews=replayer.reviews,
        items=replayer.items,
        compared=compared,
        passed=passed,
        fits={name: score.fit() for name, score in scores.items()},
    )
