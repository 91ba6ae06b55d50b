"""The interview forecast, pure: each question's expected score from its section's record, sections
and the whole weighed as the scorecard weighs them, the range, the recalibration of predicted recall."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import date, timedelta

import pytest

from drill.interview.forecast import (
    GOOD,
    LIFT_PRIOR,
    MODEL_SPREAD,
    RANGE_Z,
    Expectation,
    Forecast,
    Lift,
    Moments,
    Recalibration,
    Record,
    expectation,
    forecast,
    lift,
    recalibration,
)
from drill.schedule import memory
from drill.schedule.records import Card
from drill.schedule.state import ItemState

DAY = date(2026, 11, 22)
SM2 = memory.get("sm2")


def card(item_id: str, kind: str = "card", state: ItemState | None = None) -> Card:
    return Card(item_id, kind, "memory", "Topic", "Prompt?", "Answer.", "", [], None, state or ItemState())


def due_today(interval: int = 6) -> ItemState:
    """Reviewed `interval` days ago with that interval: SM-2's proxy predicts 0.9 today."""
    return ItemState(repetitions=2, interval=interval, last_review_day=DAY - timedelta(days=interval))


def test_a_self_graded_question_scores_its_recall_times_what_a_recalled_answer_scores() -> None:
    record = Record(passed=Moments(0.5, 0.3))
    got = expectation("grill", card("grill-1", state=due_today()), DAY, SM2, {"grill": record})
    assert got.mean == pytest.approx(0.9 * 0.5)
    assert got.variance == pytest.approx(0.9 * 0.3 - 0.45**2)  # E[x²] − E[x]², a miss scoring 0


def test_an_unseen_question_is_recalled_as_often_as_first_tries_were() -> None:
    got = expectation("grill", card("grill-2"), DAY, SM2, {"grill": Record(first_try=0.25)})
    assert got.mean == pytest.approx(0.25 * 2 / 3)  # recalled, a Good: 2/3


def test_an_estimate_mixes_what_recalled_and_forgotten_answers_scored() -> None:
    record = Record(passed=Moments(1.0, 1.0), failed=Moments(0.3, 0.1))
    got = expectation("estimate", card("estimate:kv", "estimate", due_today()), DAY, SM2, {"estimate": record})
    assert got.mean == pytest.approx(0.9 * 1.0 + 0.1 * 0.3)
    assert got.variance == pytest.approx(0.9 + 0.1 * 0.1 - 0.93**2)


def test_recall_is_recalibrated_before_it_is_used() -> None:
    record = Record(recall=Recalibration(shift=-math.log(9)))  # odds of 9 to 1 become 1 to 1
    got = expectation("pitch", card("p-1", "pitch", due_today()), DAY, SM2, {"pitch": record})
    assert got.mean == pytest.approx(0.5 * 2 / 3)


def test_a_recalled_answer_scores_more_the_likelier_its_recall() -> None:
    # Passes at 0.9 scored 2/3 on average; each point of chance above that adds 0.5 points of score.
    record = Record(passed=Moments(GOOD, GOOD**2 + 0.01), passed_lift=Lift(0.5, 0.8))
    got = expectation("grill", card("grill-1", state=due_today()), DAY, SM2, {"grill": record})
    passed = GOOD + 0.5 * (0.9 - 0.8)
    assert got.mean == pytest.approx(0.9 * passed)
    assert got.variance == pytest.approx(0.9 * (passed**2 + 0.01) - got.mean**2)  # the passes' own spread kept
    missed = Record(failed=Moments(0.3, 0.1), failed_lift=Lift(1.0, 0.5))  # a near miss scores more, too
    estimate = expectation("estimate", card("estimate:kv", "estimate", due_today()), DAY, SM2, {"estimate": missed})
    assert estimate.mean == pytest.approx(0.9 * GOOD + 0.1 * (0.3 + 1.0 * (0.9 - 0.5)))
    first = expectation("grill", card("grill-2"), DAY, SM2, {"grill": replace(record, first_try=0.25)})
    assert first.mean == pytest.approx(0.25 * GOOD)  # a first try is no predicted review: no lift
    capped = Record(passed_lift=Lift(10.0, 0.0))
    assert expectation("grill", card("grill-1", state=due_today()), DAY, SM2, {"grill": capped}).mean == pytest.approx(
        0.9
    )  # a pass never over 1


def test_the_lift_is_a_least_squares_slope_held_near_none() -> None:
    assert lift([]) == Lift()
    assert lift([(0.5, 0.2)] * 10) == Lift(0.0, 0.5)  # chances all alike: nothing to see
    answers = [(0.6, 1 / 3), (0.8, GOOD), (1.0, 1.0)] * 100  # 5/3 points of score per point of chance
    fitted = lift(answers)
    assert fitted.center == pytest.approx(0.8)
    spread = 200 * 0.2**2
    assert fitted.slope == pytest.approx(spread * 5 / 3 / (spread + LIFT_PRIOR))
    assert lift(answers[:3]).slope < fitted.slope / 2  # three answers move it less than half as far


def test_the_forecast_weighs_sections_as_the_scorecard_does() -> None:
    drawn = [
        Expectation("grill", 0.6, 0.04),
        Expectation("grill", 0.3, 0.05),
        Expectation("pitch", 0.9, 0.09),
        Expectation("estimate", 0.5, 0.25),
    ]
    result = forecast(drawn)
    assert [(section.section, section.questions) for section in result.sections] == [
        ("grill", 2),
        ("pitch", 1),
        ("estimate", 1),
    ]
    assert [section.score for section in result.sections] == pytest.approx([0.45, 0.9, 0.5])
    assert result.score == pytest.approx((0.45 + 0.9 + 0.5) / 3)
    spreads = [math.sqrt(0.09 / 4), 0.3, 0.5]  # a section's variance: the sum of its questions' over n²
    assert [section.spread for section in result.sections] == pytest.approx(spreads)
    spread = math.sqrt(sum(s * s for s in spreads) / 9 + MODEL_SPREAD**2)  # with the prediction's own error
    assert (result.low, result.high) == pytest.approx(
        (result.score - RANGE_Z * spread, result.score + RANGE_Z * spread)
    )


def test_a_pool_forecast_counts_how_far_its_items_differ_and_how_many_are_drawn() -> None:
    pool = [Expectation("grill", 0.2, 0.0), Expectation("grill", 0.6, 0.0), Expectation("coding", 1.0, 0.0)]
    result = forecast(pool, {"grill": 1, "pitch": 1, "coding": 5})
    grill, coding = result.sections  # no pitch in the pool: no pitch is drawn
    assert (grill.questions, grill.score, grill.spread) == (1, pytest.approx(0.4), pytest.approx(0.2))
    assert coding.questions == 1  # as many as there are
    spread = math.sqrt(0.1**2 + MODEL_SPREAD**2)
    assert (result.low, result.high) == pytest.approx((0.7 - RANGE_Z * spread, 0.7 + RANGE_Z * spread))
    assert forecast([Expectation("coding", 0.95, 0.25)]).high == 1.0  # a score never goes over 100 %


def test_the_forecast_reads_back_from_the_json_it_writes() -> None:
    result = forecast([Expectation("grill", 0.61234, 0.02), Expectation("estimate", 0.5, 0.1)])
    written = json.loads(result.model_dump_json())
    assert list(written) == ["score", "low", "high", "sections"]
    assert written["sections"]["grill"] == {"questions": 1, "score": 0.6123, "spread": round(math.sqrt(0.02), 4)}
    back = Forecast.model_validate(written)
    assert back.score == pytest.approx(result.score, abs=1e-4)
    assert [s.section for s in back.sections] == ["grill", "estimate"]


def test_the_forecast_says_its_range_unless_it_has_none() -> None:
    assert forecast([Expectation("grill", 0.5, 0.04)]).said() == "50% (24–76%)"  # 0.5 ± 1.28 · √(0.04 + 0.05²)
    assert forecast([Expectation("grill", 1.0, 0.0)]).said() == "100% (94–100%)"  # never over 100 %
    assert forecast([]).said() == "0%"  # nothing asked: nothing to spread


def test_recalibration_finds_how_the_predictions_came_true() -> None:
    outcomes = [(0.9, n % 5 < 3) for n in range(2000)] + [(0.6, n % 10 < 3) for n in range(1000)]
    fitted = recalibration(outcomes)
    assert fitted(0.9) == pytest.approx(0.6, abs=0.01)  # said 90 %, passed 60 %
    assert fitted(0.6) == pytest.approx(0.3, abs=0.01)


def test_recalibration_holds_to_the_predictions_until_there_is_a_record() -> None:
    assert recalibration([]) == Recalibration()
    assert recalibration([])(0.9) == pytest.approx(0.9)
    few = recalibration([(0.9, False)] * 3)
    assert 0.8 < few(0.9) < 0.9  # three misses move it, a little
    many = recalibration([(0.95, n % 10 < 7) for n in range(500)])
    assert many(0.95) == pytest.approx(0.7, abs=0.05)  # a record this long speaks for itself


def test_recalibration_learns_how_far_an_items_own_record_moves_it() -> None:
    # At the same prediction, items whose earlier tries beat the fit (offset +1) pass four times in
    # five, those whose tries missed it (offset −1) once in five.
    outcomes = [(0.5, n % 5 < 4, 1.0) for n in range(1000)] + [(0.5, n % 5 < 1, -1.0) for n in range(1000)]
    fitted = recalibration(outcomes)
    assert fitted.item == pytest.approx(math.log(4), rel=0.05)  # the prior holds it back a little
    assert (fitted(0.5, 1.0), fitted(0.5), fitted(0.5, -1.0)) == pytest.approx((0.8, 0.5, 0.2), abs=0.01)
    record = Record(recall=fitted, offsets={"grill-1": 1.0})
    assert expectation("grill", card("grill-1", state=due_today()), DAY, SM2, {"grill": record}).mean == pytest.approx(
        fitted(0.9, 1.0) * GOOD
    )
    assert recalibration([(0.5, True, 1.0)] * 3).item < 0.2  # three tries hardly move it


def test_the_range_widens_with_the_doubt_a_short_record_leaves() -> None:
    few, many = recalibration([(0.9, True), (0.9, False)] * 5), recalibration([(0.9, True), (0.9, False)] * 500)
    assert few.doubt > 3 * many.doubt > 0  # the shift's standard error falls as the reviews grow
    assert many.doubt == pytest.approx(1 / math.sqrt(1000 * 0.25 + 10), rel=0.01)  # 1/√(information + prior)
    record = Record(recall=few)
    got = expectation("grill", card("grill-1", state=due_today()), DAY, SM2, {"grill": record})
    chance = few(0.9)
    assert got.doubt == pytest.approx(chance * (1 - chance) * GOOD * few.doubt)  # d score / d logit · doubt
    unsure = forecast([got, Expectation("grill", got.mean, got.variance)])
    (grill,) = unsure.sections
    assert grill.spread == pytest.approx(math.sqrt(2 * got.variance / 4 + (got.doubt / 2) ** 2))
