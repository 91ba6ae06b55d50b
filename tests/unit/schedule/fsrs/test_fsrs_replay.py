"""Scoring SM-2 and FSRS on a history: log loss and RMSE, checked by hand."""

import math
from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest

from drill.schedule.replay import CLIP, PastReview, compare, fit, predictions, sm2_recall
from drill.schedule.sm2 import BUTTON_QUALITY

D1 = date(2026, 3, 1)


def day(n: int) -> date:
    return D1 + timedelta(days=n - 1)


def past(item_id: str, n: int, button: int) -> PastReview:
    return PastReview(item_id, day(n), button, BUTTON_QUALITY[button])


# Item a: Good on day 1, Good on day 2, Again on day 8, Hard on day 10. Item b: Easy once.
HISTORY = [past("a", 1, 3), past("b", 1, 4), past("a", 2, 3), past("a", 8, 1), past("a", 10, 2)]
PASSED = [True, False, True]
# SM-2 by hand: day 1 → interval 1; day 2 is 1 day later (0.9^(1/1)), → interval 6;
# day 8 is 6 days later (0.9^(6/6)), a lapse → interval 1; day 10 is 2 days later (0.9^(2/1)).
SM2 = [0.9, 0.9, 0.81]


def fsrs_by_the_package() -> list[float]:
    """FSRS's retrievability just before each of a's later reviews, straight from fsrs."""
    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card, out = fsrs.Card(card_id=1), []
    for n, button in ((1, 3), (2, 3), (8, 1), (10, 2)):
        moment = datetime(2026, 3, n, 12, tzinfo=UTC)
        if card.last_review is not None:
            out.append(scheduler.get_card_retrievability(card, moment))
        card, _ = scheduler.review_card(card, fsrs.Rating(button), moment)
    return out


def log_loss(predicted: list[float], passed: list[bool]) -> float:
    return -sum(math.log(p if y else 1 - p) for p, y in zip(predicted, passed, strict=True)) / len(passed)


def rmse(predicted: list[float], passed: list[bool]) -> float:
    return math.sqrt(sum((p - y) ** 2 for p, y in zip(predicted, passed, strict=True)) / len(passed))


def test_sm2_proxy() -> None:
    assert sm2_recall(6, 6) == pytest.approx(0.9)
    assert sm2_recall(0, 6) == 1.0
    assert sm2_recall(12, 6) == pytest.approx(0.81)
    with pytest.raises(ValueError):
        sm2_recall(3, 0)


def test_fit_by_hand() -> None:
    result = fit([0.9, 0.5, 0.8], [True, False, False])
    assert result.log_loss == pytest.approx((0.105360516 + 0.693147181 + 1.609437912) / 3)
    assert result.rmse == pytest.approx(math.sqrt((0.01 + 0.25 + 0.64) / 3))
    assert result.mean_prediction == pytest.approx(2.2 / 3)
    assert fit([1.0], [False]).log_loss == pytest.approx(-math.log(CLIP))  # clipped, finite
    assert fit([], []).log_loss is None


def test_predictions_on_a_tiny_history() -> None:
    scored = predictions(HISTORY)
    assert [(p.item_id, p.day, p.elapsed_days, p.passed) for p in scored] == [
        ("a", day(2), 1, True),
        ("a", day(8), 6, False),
        ("a", day(10), 2, True),
    ]
    assert [p.sm2 for p in scored] == pytest.approx(SM2)
    by_package = fsrs_by_the_package()
    assert [p.fsrs for p in scored] == pytest.approx(by_package, rel=1e-12)
    # The first one by hand: one day after a first Good, S = w2 = 2.3065.
    decay = 0.1542
    assert by_package[0] == pytest.approx((1 + (0.9 ** (-1 / decay) - 1) * 1 / 2.3065) ** -decay)


def test_compare_on_a_tiny_history() -> None:
    result = compare(HISTORY)
    assert (result.reviews, result.items, result.compared, result.passed) == (5, 2, 3, 2)
    assert result.sm2.log_loss == pytest.approx(-(3 * math.log(0.9) + math.log(0.1)) / 3)
    assert result.sm2.rmse == pytest.approx(math.sqrt((0.01 + 0.81 + 0.19**2) / 3))
    fsrs_r = fsrs_by_the_package()
    assert result.fsrs.log_loss == pytest.approx(log_loss(fsrs_r, PASSED))
    assert result.fsrs.rmse == pytest.approx(rmse(fsrs_r, PASSED))
    better = "sm2" if result.sm2.log_loss < result.fsrs.log_loss else "fsrs"
    assert result.better == better
    assert result.verdict.startswith({"sm2": "SM-2", "fsrs": "FSRS"}[better] + " fits your history better")
    assert "only 3 reviews scored" in result.verdict
    body = result.model_dump(mode="json")
    assert set(body) == {"reviews", "items", "compared", "passed", "models", "better", "verdict"}
    assert set(body["models"]) == {"sm2", "fsrs"}


def test_the_order_of_items_does_not_matter() -> None:
    by_item = sorted(HISTORY, key=lambda r: (r.item_id, r.day))
    assert compare(by_item) == compare(HISTORY)


def test_an_empty_history() -> None:
    result = compare([])
    assert (result.reviews, result.items, result.compared, result.passed) == (0, 0, 0, 0)
    assert result.sm2.log_loss is None and result.fsrs.rmse is None and result.better is None
    assert result.verdict.startswith("Nothing to compare yet")


def test_single_reviews_are_counted_but_not_scored() -> None:
    result = compare([past("x", 1, 3), past("y", 4, 1)])
    assert (result.reviews, result.items, result.compared) == (2, 2, 0)
    assert result.verdict.startswith("Nothing to compare yet")
