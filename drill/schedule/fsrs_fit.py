"""Fitting FSRS's parameters to the user's own reviews, with py-fsrs's Optimizer.

Pure: no SQL. The optimizer needs torch, which is imported only inside `optimize` — the one
place drill's own process loads it (`drill scheduler optimize`); the app never does.

The reviews fed are drill's counted reviews (one per item and study day), each at noon UTC of
its study day, as drill.schedule.fsrs_model gives them to FSRS. A review is *scored* when an
earlier review of the same item came on another day: there is a recall to predict. py-fsrs's
optimizer returns its defaults unfitted below one mini-batch of scored reviews (MIN_REVIEWS).
Both parameter sets are then scored the way `drill scheduler compare` scores models: the log
loss of FSRS's predicted recall against pass (above Again) or fail.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import computed_field

from drill.read_model import ReadModel
from drill.schedule import fsrs_model
from drill.schedule.fsrs_model import DEFAULT, FSRSSettings, FSRSState
from drill.schedule.memory import Rating
from drill.schedule.replay import PastReview, fit

MIN_REVIEWS = 512  # py-fsrs's optimizer mini-batch: below it compute_optimal_parameters returns the defaults


class FitReport(ReadModel):
    """What fitting found: the reviews used, the parameters and both log losses; its JSON is what
    `drill scheduler optimize --json` prints."""

    KEYS = ("reviews", "scored", "needed")

    reviews: int  # counted reviews fed to the optimizer
    scored: int  # of those, the ones with a recall to predict
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


def scored(history: Sequence[PastReview]) -> int:
    """How many of `history`'s reviews follow an earlier review of their item on another day."""
    last: dict[str, object] = {}
    count = 0
    for review in history:
        before = last.get(review.item_id)
        count += before is not None and before != review.day
        last[review.item_id] = review.day
    return count


def log_loss(history: Sequence[PastReview], settings: FSRSSettings = DEFAULT) -> float | None:
    """The log loss of FSRS's recall predictions (with `settings`) over `history` (None: nothing scored)."""
    states: dict[str, FSRSState] = {}
    predicted: list[float] = []
    passed: list[bool] = []
    for review in history:
        before = states.get(review.item_id, FSRSState())
        if before.last_day == review.day:
            continue
        if before.last_day is not None:
            predicted.append(fsrs_model.retrievability(before, review.day, settings))
            passed.append(review.button > Rating.AGAIN)
        states[review.item_id] = fsrs_model.review(before, review.button, review.day, settings)
    return fit(predicted, passed).log_loss if predicted else None


def optimize(history: Sequence[PastReview], progress: bool = False) -> tuple[float, ...]:
    """FSRS parameters fitted to `history` by py-fsrs's Optimizer (imports torch); with `progress`,
    the optimizer draws its own progress bar (tqdm, on stderr) over its epochs."""
    from fsrs import Rating as FSRSRating
    from fsrs import ReviewLog
    from fsrs.optimizer import Optimizer

    card_ids: dict[str, int] = {}
    logs = [
        ReviewLog(
            card_ids.setdefault(review.item_id, len(card_ids) + 1),
            FSRSRating(review.button),
            fsrs_model.moment(review.day),
            None,
        )
        for review in history
    ]
    return tuple(float(value) for value in Optimizer(logs).compute_optimal_parameters(verbose=progress))


def fit_history(history: Sequence[PastReview], progress: bool = False) -> FitReport:
    """Fit FSRS to `history` when it has MIN_REVIEWS scored reviews, and score both parameter sets;
    `progress` as for `optimize`."""
    count = scored(history)
    default_loss = log_loss(history)
    if count < MIN_REVIEWS:
        return FitReport(
            reviews=len(history), scored=count, parameters=None, log_loss_default=default_loss, log_loss_fitted=None
        )
    parameters = optimize(history, progress)
    fitted_loss = log_loss(history, FSRSSettings(parameters=parameters))
    return FitReport(
        reviews=len(history),
        scored=count,
        parameters=parameters,
        log_loss_default=default_loss,
        log_loss_fitted=fitted_loss,
    )
