"""Fitting FSRS's parameters to the user's own reviews (drill.schedule.fsrs_optimize runs the
optimizer), and scoring the fit.

Pure: no SQL. The reviews fed are drill's counted reviews (one per item and study day), item by
item, each on its study day, as drill.schedule.fsrs_model gives them to FSRS. A review is *scored*
when an earlier review of the same item came on another day: there is a recall to predict.
Nothing is fitted below one py-fsrs mini-batch of scored reviews (MIN_REVIEWS), whichever
optimizer runs. Both parameter sets are then scored over the whole history the way `drill
scheduler compare` scores models: the log loss of FSRS's predicted recall against pass (above
Again) or fail.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pydantic import computed_field

from drill.read_model import ReadModel
from drill.schedule import fsrs_model, fsrs_optimize
from drill.schedule.fsrs_model import DEFAULT, FSRSSettings
from drill.schedule.fsrs_optimize import ItemHistory
from drill.schedule.replay import fit

MIN_REVIEWS = 512  # py-fsrs's optimizer mini-batch: below it compute_optimal_parameters returns the defaults
SCORED_PER_SECOND = 200_000  # log_loss's speed here (the 2-core development machine under load)


class FitReport(ReadModel):
    """What fitting found: the reviews used, the optimizer, the parameters and both log losses; its
    JSON is what `drill scheduler optimize --json` prints."""

    KEYS = ("reviews", "scored", "needed")

    reviews: int  # counted reviews in the history
    scored: int  # of those, the ones with a recall to predict
    optimizer: str | None  # fsrs_optimize.RUST or TORCH; None: too few reviews to fit
    fitted_on: int  # scored reviews the optimizer learnt from (fewer than `scored` where it is bounded)
    parameters: tuple[float, ...] | None  # None: too few reviews to fit
    log_loss_default: float | None
    log_loss_fitted: float | None

    @computed_field
    @property
    def needed(self) -> int:
        """Scored reviews the optimizer needs to fit anything."""
        return MIN_REVIEWS

    @property
    def better(self) -> bool:
        """Whether the fitted parameters predict this history at least as well as the defaults."""
        return (
            self.parameters is not None
            and self.log_loss_fitted is not None
            and self.log_loss_default is not None
            and self.log_loss_fitted <= self.log_loss_default
        )


def scored(histories: Sequence[ItemHistory]) -> int:
    """How many reviews follow an earlier review of their item on another day."""
    return sum(len({day for day, _button in history}) - 1 for history in histories if history)


def log_loss(histories: Sequence[ItemHistory], settings: FSRSSettings = DEFAULT) -> float | None:
    """The log loss of FSRS's recall predictions (with `settings`) over `histories` (None: nothing
    scored). Each prediction is fsrs_model.retrievability's, to the last bit, without its Card."""
    factor, decay = fsrs_model.forgetting_curve(settings)
    predicted: list[float] = []
    passed: list[bool] = []
    for history in histories:
        stability = difficulty = last = None
        for day, button in history:
            if day == last:
                continue
            elapsed = 0 if last is None else (day - last).days
            if stability is not None:
                predicted.append((1 + factor * elapsed / stability) ** -decay)
                passed.append(button > 1)
            stability, difficulty, _due = fsrs_model.step(stability, difficulty, last, day, button, settings)
            last = day
    return fit(predicted, passed).log_loss if predicted else None


def _quiet(message: str) -> None:
    """Say nothing."""


def fit_history(
    histories: Sequence[ItemHistory],
    announce: Callable[[str], None] = _quiet,
    progress: Callable[[str], None] | None = None,
) -> FitReport:
    """Fit FSRS to `histories` when they hold MIN_REVIEWS scored reviews, and score both parameter
    sets. `announce` is told the optimizer, what it learns from and the time it should take, before
    it starts; `progress`, when given, each step as it comes (and py-fsrs's optimizer draws its bar)."""
    reviews, count = sum(len(history) for history in histories), scored(histories)
    if count < MIN_REVIEWS:
        return FitReport(
            reviews=reviews,
            scored=count,
            optimizer=None,
            fitted_on=0,
            parameters=None,
            log_loss_default=log_loss(histories),
            log_loss_fitted=None,
        )
    training = fsrs_optimize.plan(histories)
    seconds = max(1, round(training.seconds + 2 * reviews / SCORED_PER_SECOND))
    announce(f"Fitting FSRS with {training.engine} on {training.describe(count)}: about {seconds} s.")
    started = time.monotonic()
    parameters = fsrs_optimize.fit(training, bar=progress is not None)
    if progress is not None:
        progress(f"Fitted in {time.monotonic() - started:.0f} s; scoring both parameter sets on every review…")
    return FitReport(
        reviews=reviews,
        scored=count,
        optimizer=training.engine,
        fitted_on=training.scored,
        parameters=parameters,
        log_loss_default=log_loss(histories),
        log_loss_fitted=log_loss(histories, FSRSSettings(parameters=parameters)),
    )
