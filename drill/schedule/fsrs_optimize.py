"""The optimizers that fit FSRS's 21 parameters (FSRS-6, in py-fsrs's order, as drill stores them)
to counted reviews, and what one fit will take.

- fsrs-rs (the package `fsrs-rs-python`: the Rust optimizer Anki uses, BSD-3-Clause), used when it
  is installed. Its defaults are py-fsrs's 21, in the same order, and its model steps a memory as
  drill.schedule.fsrs_model does (tests/unit/schedule/fsrs/test_fsrs_rust.py). It learns from one
  training item per scored review: the item's reviews up to that one, as (rating, days since the
  previous review). Its time grows with the reviews in those items, so it is given every item's
  first scored review (they fit the initial stabilities) and then the latest scored reviews, up
  to RUST_STEPS reviews in all: on a million-review history, the last hundred thousand or so,
  fitted in seconds and predicting the whole history as well as a fit on all of it
  (benchmarks/bench_scale.py).
- py-fsrs's own optimizer (torch, stepping every review in Python) when fsrs-rs is absent, on a
  bounded window: the whole histories of the items first reviewed most recently, up to
  TORCH_REVIEWS reviews.

Pure: no SQL, no I/O. Both optimizers are imported inside `fit`, which only `drill scheduler
optimize` calls (tests/system/test_layering.py).
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

ItemHistory = Sequence[tuple[date, int]]  # one item's counted reviews: (study day, button), oldest first

RUST, TORCH = "fsrs-rs", "py-fsrs"
RUST_STEPS = 10_000_000  # reviews in fsrs-rs's training items (a million-review history has ~56 million)
RUST_MAX_SEQUENCE = 256  # fsrs-rs drops longer training items (its TrainingConfig.max_seq_len)
TORCH_REVIEWS = 4_000  # counted reviews py-fsrs's optimizer is given: under a minute here
# Speeds measured on the 2-core development machine under load, for the time a fit announces.
RUST_STEPS_PER_SECOND = 1_500_000
TORCH_REVIEWS_PER_SECOND = 85


class FitError(ValueError):
    """The optimizer could not fit these reviews (its own reason in the message)."""


@dataclass(frozen=True)
class Training:
    """What one fit will do: the optimizer, the histories it reads, the scored reviews it learns
    from (fsrs-rs: those from `since` on, and every item's first), and the seconds it should take."""

    engine: str
    histories: Sequence[ItemHistory]
    since: date | None
    scored: int
    seconds: float

    def describe(self, scored: int) -> str:
        """What it learns from, out of the history's `scored` reviews."""
        if self.scored >= scored:
            return f"all {scored:,} of your scored reviews"
        if self.engine == RUST:
            return f"the latest {self.scored:,} of your {scored:,} scored reviews"
        return (
            f"{self.scored:,} of your {scored:,} scored reviews, those of the items you started most recently "
            "(with drill's fsrs-rs extra, `pip install 'drill[fsrs-rs]'`, it learns from far more, in seconds)"
        )


def installed() -> str:
    """The optimizer a fit uses here: fsrs-rs when installed, else py-fsrs's."""
    return RUST if importlib.util.find_spec("fsrs_rs_python") is not None else TORCH


def plan(histories: Sequence[ItemHistory], engine: str | None = None) -> Training:
    """The fit of `histories` by `engine` (by default the installed one)."""
    engine = engine or installed()
    return _rust_plan(histories) if engine == RUST else _torch_plan(histories)


def _targets(history: ItemHistory) -> list[tuple[date, int]]:
    """(day, reviews up to it) of each scored review in one item's history: each that follows an
    earlier review on another day."""
    targets: list[tuple[date, int]] = []
    last: date | None = None
    length = 0
    for day, _button in history:
        if day == last:
            continue
        length += 1
        if last is not None and length <= RUST_MAX_SEQUENCE:
            targets.append((day, length))
        last = day
    return targets


def _rust_plan(histories: Sequence[ItemHistory]) -> Training:
    first = 0  # every item's first target (two reviews each); the others by day below
    steps_by_day: Counter[date] = Counter()
    targets_by_day: Counter[date] = Counter()
    for history in histories:
        for day, length in _targets(history):
            if length == 2:
                first += 1
            else:
                steps_by_day[day] += length
                targets_by_day[day] += 1
    steps, scored, since = 2 * first, first, None
    for day in sorted(steps_by_day, reverse=True):
        if steps + steps_by_day[day] > RUST_STEPS:
            since = day + timedelta(days=1)  # the days after the first that does not fit
            break
        steps += steps_by_day[day]
        scored += targets_by_day[day]
    return Training(RUST, histories, since, scored, steps / RUST_STEPS_PER_SECOND)


def _torch_plan(histories: Sequence[ItemHistory]) -> Training:
    window: list[ItemHistory] = []
    total = 0
    for history in sorted(histories, key=lambda history: history[0][0], reverse=True):
        if total + len(history) > TORCH_REVIEWS:
            break
        window.append(history)
        total += len(history)
    scored = sum(len(_targets(history)) for history in window)
    return Training(TORCH, window, None, scored, total / TORCH_REVIEWS_PER_SECOND)


def fit(training: Training, bar: bool = False) -> tuple[float, ...]:
    """The parameters `training`'s optimizer fits (within_bounds); with `bar`, py-fsrs's optimizer
    draws its progress bar over its epochs (tqdm, on stderr). Raises FitError."""
    return within_bounds(_rust(training) if training.engine == RUST else _torch(training, bar))


def within_bounds(parameters: Sequence[float]) -> tuple[float, ...]:
    """`parameters` brought within py-fsrs's bounds: fsrs-rs fits in float32, so a value at a bound
    may come back a hair outside (0.8 as 0.800000011920929)."""
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    return tuple(
        min(max(float(value), low), high)
        for value, low, high in zip(parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    )


def _rust(training: Training) -> list[float]:
    from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview

    dated: list[tuple[date, FSRSItem]] = []
    for history in training.histories:
        reviews: list[FSRSReview] = []
        last: date | None = None
        for day, button in history:
            if day == last:
                continue
            reviews.append(FSRSReview(button, 0 if last is None else (day - last).days))
            scored = last is not None and len(reviews) <= RUST_MAX_SEQUENCE
            if scored and (len(reviews) == 2 or training.since is None or day >= training.since):
                dated.append((day, FSRSItem(reviews)))  # the item holds a copy of the reviews so far
            last = day
    dated.sort(key=lambda pair: pair[0])  # oldest first: fsrs-rs weighs the later items more
    try:
        return FSRS(DEFAULT_PARAMETERS).compute_parameters([item for _day, item in dated])
    except ValueError as error:
        raise FitError(f"fsrs-rs could not fit these reviews ({error})") from None


def _torch(training: Training, bar: bool) -> list[float]:
    from fsrs import Rating, ReviewLog
    from fsrs.optimizer import Optimizer

    from drill.schedule.fsrs_model import moment

    logs = [
        ReviewLog(card_id, Rating(button), moment(day), None)
        for card_id, history in enumerate(training.histories, start=1)
        for day, button in history
    ]
    return Optimizer(logs).compute_optimal_parameters(verbose=bar)
