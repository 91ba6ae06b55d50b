"""Which memory model fits a user's own history: SM-2 and FSRS replayed over the same reviews.

Pure: no SQL, no I/O. Every counted review that has an earlier counted review of the same
item is a prediction to score. Before it, each model says how likely recall is:

- SM-2 does not predict recall; the usual proxy is R = 0.9^(elapsed days / interval before),
  i.e. 90 % when the item is reviewed on its due day;
- FSRS predicts it: the retrievability of its state just before the review.

The outcome is a pass when the button was above Again (button > 1). Each model gets the log
loss and the RMSE of its predictions against the outcomes; lower is better on both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from drill.schedule import fsrs_model
from drill.schedule.grading import ItemState, apply_quality

CLIP = 1e-6  # predictions are clipped to [CLIP, 1 − CLIP] for the log loss
MODELS = ("sm2", "fsrs")
MODEL_NAMES = {"sm2": "SM-2", "fsrs": "FSRS"}


@dataclass(frozen=True, slots=True)
class PastReview:
    """One counted review as stored: which item, on which study day, which button and SM-2 quality."""

    item_id: str
    day: date
    button: int
    quality: int


@dataclass(frozen=True, slots=True)
class Prediction:
    """Both models' recall predictions for one review, and what happened."""

    item_id: str
    day: date
    elapsed_days: int
    passed: bool
    sm2: float
    fsrs: float


@dataclass(frozen=True)
class Fit:
    """How well one model's predictions match the outcomes (None when there is nothing to score)."""

    log_loss: float | None = None
    rmse: float | None = None
    mean_prediction: float | None = None

    def as_json(self) -> dict[str, float | None]:
        return {"log_loss": self.log_loss, "rmse": self.rmse, "mean_prediction": self.mean_prediction}


@dataclass(frozen=True)
class Comparison:
    """SM-2 against FSRS over one history."""

    reviews: int  # counted reviews replayed
    items: int  # items with at least one counted review
    compared: int  # reviews with an earlier review: the predictions scored
    passed: int  # of those, how many were passes
    sm2: Fit
    fsrs: Fit

    @property
    def better(self) -> str | None:
        """"sm2" or "fsrs" by log loss; None when there is nothing to compare or they tie."""
        if self.sm2.log_loss is None or self.fsrs.log_loss is None:
            return None
        if math.isclose(self.sm2.log_loss, self.fsrs.log_loss, rel_tol=1e-9, abs_tol=1e-12):
            return None
        return "sm2" if self.sm2.log_loss < self.fsrs.log_loss else "fsrs"

    @property
    def verdict(self) -> str:
        """One line: which model fits this history better."""
        if self.compared == 0:
            return "Nothing to compare yet: no item has been reviewed on two different study days."
        better = self.better
        if better is None:
            return "SM-2 and FSRS fit your history equally well."
        other = "sm2" if better == "fsrs" else "fsrs"
        mine, theirs = getattr(self, better), getattr(self, other)
        line = (
            f"{MODEL_NAMES[better]} fits your history better: "
            f"log loss {mine.log_loss:.3f} vs {theirs.log_loss:.3f}"
        )
        assert mine.rmse is not None and theirs.rmse is not None
        if mine.rmse > theirs.rmse:
            line += f", though {MODEL_NAMES[other]}'s RMSE is lower ({theirs.rmse:.3f} vs {mine.rmse:.3f})"
        if self.compared < 100:
            line += f" (only {self.compared} reviews scored: a hint, not a verdict)"
        return line + "."

    def as_json(self) -> dict[str, object]:
        return {
            "reviews": self.reviews,
            "items": self.items,
            "compared": self.compared,
            "passed": self.passed,
            "models": {"sm2": self.sm2.as_json(), "fsrs": self.fsrs.as_json()},
            "better": self.better,
            "verdict": self.verdict,
        }


def sm2_recall(elapsed_days: int, interval_before: int) -> float:
    """SM-2's recall proxy: 0.9 ** (elapsed / interval), 90 % on the due day."""
    if interval_before <= 0:
        raise ValueError("an item reviewed before has an SM-2 interval of at least one day")
    return 0.9 ** (max(0, elapsed_days) / interval_before)


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
        return Fit(log_loss=self.loss / self.n, rmse=math.sqrt(self.squares / self.n), mean_prediction=self.total / self.n)


def fit(predicted: Sequence[float], passed: Sequence[bool]) -> Fit:
    """Log loss (natural log, predictions clipped to [CLIP, 1 − CLIP]) and RMSE against the outcomes."""
    if len(predicted) != len(passed):
        raise ValueError("one prediction per outcome")
    score = _Score()
    for p, y in zip(predicted, passed):
        score.add(p, y)
    return score.fit()


class Replayer:
    """Both models' states per item, fed one counted review at a time (each item's in time order)."""

    def __init__(self) -> None:
        self.sm2: dict[str, ItemState] = {}
        self.memory: dict[str, fsrs_model.FSRSState] = {}
        self.reviews = 0

    @property
    def items(self) -> int:
        return len(self.sm2)

    def feed(self, review: PastReview) -> Prediction | None:
        """Apply `review`; return both models' predictions for it when the item was reviewed before."""
        self.reviews += 1
        before = self.sm2.get(review.item_id, ItemState())
        memory = self.memory.get(review.item_id, fsrs_model.FSRSState())
        if before.last_review_day == review.day:
            return None  # drill counts one review per item and day; a second changes neither model
        prediction = None
        if before.last_review_day is not None:
            elapsed = (review.day - before.last_review_day).days
            prediction = Prediction(
                review.item_id,
                review.day,
                elapsed,
                review.button > 1,
                sm2_recall(elapsed, before.interval),
                fsrs_model.retrievability(memory, review.day),
            )
        self.sm2[review.item_id] = apply_quality(before, review.quality, review.day)
        self.memory[review.item_id] = fsrs_model.review(memory, review.button, review.day)
        return prediction


def predictions(reviews: Iterable[PastReview]) -> list[Prediction]:
    """Both models' predictions for every review that has an earlier one."""
    replayer = Replayer()
    return [p for p in map(replayer.feed, reviews) if p is not None]


def compare(reviews: Iterable[PastReview]) -> Comparison:
    """Score SM-2 and FSRS on a whole history (counted reviews only), streaming it once."""
    replayer = Replayer()
    sm2, fsrs, passed = _Score(), _Score(), 0
    for review in reviews:
        prediction = replayer.feed(review)
        if prediction is None:
            continue
        sm2.add(prediction.sm2, prediction.passed)
        fsrs.add(prediction.fsrs, prediction.passed)
        passed += prediction.passed
    return Comparison(
        reviews=replayer.reviews,
        items=replayer.items,
        compared=sm2.n,
        passed=passed,
        sm2=sm2.fit(),
        fsrs=fsrs.fit(),
    )
