"""Calibration: how well predicted recall matched what happened, over the last 30 study days.

Every counted review of an item that had an earlier counted review carries a prediction: the
recall the memory model in use gave it just before, from the item's state before that review
as the review row keeps it, the same model readiness uses; t is the days since the last review
before it (last_day_before), and both are aggregated in SQL:
- SM-2: the proxy 0.9^(t / interval) from interval_before;
- FSRS: the retrievability (1 + factor · t / S) ** -decay of the memory before the review, S its
  stability (fsrs_stability_before; drill.schedule.fsrs_model.forgetting_curve gives the curve).

The outcome is a pass when the button was above Again (button > 1), as true retention and
`drill scheduler compare` count it. The Brier score is the mean of (p − outcome)²: 0 is perfect,
0.25 is what always saying 50 % earns; the reliability table sets the mean prediction against
the pass rate per band of predictions.
"""

from __future__ import annotations

from datetime import date, timedelta

from pydantic import Field, computed_field
from sqlalchemy import Connection

from drill.read_model import ReadModel
from drill.schedule import memory
from drill.store.dialect import dialect
from drill.store.rounding import Rounded
from drill.store.stats.scope import Scope
from drill.store.stats.sql import MEMORY_BEFORE, counts, in_block, measures, predicted_recall, ratio, rows

CALIBRATION_DAYS = 30
BINS: tuple[tuple[float, float], ...] = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0))


class CalibrationBin(ReadModel):
    """Predictions in [low, high) (the last band includes 1): how many, their mean, the pass rate."""

    low: float
    high: float
    reviews: int
    predicted: Rounded  # mean prediction; None when the band is empty
    actual: Rounded  # share passed; None when the band is empty


class Calibration(ReadModel):
    """Predictions against outcomes; its JSON's brier is null when there is nothing to score."""

    KEYS = ("days", "since", "model", "reviews", "passed", "brier", "predicted", "actual", "bins")

    first_day: date = Field(serialization_alias="since")
    model: str  # the memory model's name ("sm2", "fsrs")
    reviews: int
    passed: int
    brier: Rounded  # None with no prediction to score
    predicted: Rounded  # the mean prediction
    bins: tuple[CalibrationBin, ...]

    @computed_field
    @property
    def days(self) -> int:
        """The study days the outcomes come from, today's included."""
        return CALIBRATION_DAYS

    @computed_field
    @property
    def actual(self) -> Rounded:
        return ratio(self.passed, self.reviews)


class Tally:
    """Sums per band, as the SQL gives them: count, predictions, passes, squared errors."""

    def __init__(self) -> None:
        self.count = [0] * len(BINS)
        self.predicted = [0.0] * len(BINS)
        self.passed = [0] * len(BINS)
        self.squares = [0.0] * len(BINS)

    def result(self, first_day: date, model: str) -> Calibration:
        reviews = sum(self.count)
        bins = tuple(
            CalibrationBin(low=low, high=high, reviews=n, predicted=None if not n else total / n, actual=ratio(good, n))
            for (low, high), n, total, good in zip(BINS, self.count, self.predicted, self.passed, strict=True)
        )
        return Calibration(
            first_day=first_day,
            model=model,
            reviews=reviews,
            passed=sum(self.passed),
            brier=None if not reviews else sum(self.squares) / reviews,
            predicted=None if not reviews else sum(self.predicted) / reviews,
            bins=bins,
        )


def band_sql() -> str:
    """SQL giving the index of the band that holds the prediction `p`."""
    cases = " ".join(f"WHEN p < {high!r} THEN {index}" for index, (_low, high) in enumerate(BINS[:-1]))
    return f"CASE {cases} ELSE {len(BINS) - 1} END"


def _predicted(connection: Connection, scope: Scope) -> tuple[str, str, dict[str, float]]:
    """The memory column a prediction needs, the SQL of a review's predicted recall from its row,
    and the curve's parameters."""
    sql = dialect(connection)
    curve = memory.get(scope.scheduler).curve()
    elapsed = sql.greatest(sql.days_between("study_day", "last_day_before"), "0")
    column = MEMORY_BEFORE[curve.memory]
    return (column, *predicted_recall(sql, curve, elapsed, column))


def calibration(connection: Connection, scope: Scope) -> Calibration:
    """Predictions against outcomes for the counted reviews of the last 30 study days (to today,
    whatever the period; the block filter applies)."""
    first_day = scope.today - timedelta(days=CALIBRATION_DAYS - 1)
    column, predicted, params = _predicted(connection, scope)
    predictions = f"""SELECT {predicted} AS p, CASE WHEN button > 1 THEN 1 ELSE 0 END AS y
        FROM review WHERE counted AND last_day_before IS NOT NULL AND {column} IS NOT NULL
            AND study_day >= :calibration_from AND study_day <= :today {in_block(scope)}"""
    tally = Tally()
    for band, count, total, passed, squares in rows(
        connection,
        f"""SELECT {band_sql()} AS band, COUNT(*), SUM(p), SUM(y), SUM((p - y) * (p - y))
        FROM ({predictions}) AS predictions GROUP BY 1""",
        scope,
        (*counts("band", "reviews"), *measures("predicted", "passed", "squares")),
        calibration_from=first_day.isoformat(),
        **params,
    ):
        tally.count[band] = int(count)
        tally.predicted[band] = float(total)
        tally.passed[band] = int(passed)
        tally.squares[band] = float(squares)
    return tally.result(first_day, scope.scheduler)
