"""`drill scheduler compare`: an empty history, a small one, and a bad setting; the history queries
both commands read."""

import itertools
import json
import math
from datetime import timedelta

import pytest

from drill.cli import main
from drill.config import Config
from drill.schedule.replay import compare
from drill.store.history import DAYS_AND_BUTTONS, days_and_buttons, item_reviews, review_counts, review_history
from drill.study import Study
from drill.study.writes import write_grade


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(["scheduler", "compare", *argv])
    return code, capsys.readouterr().out


def test_empty_history(capsys) -> None:
    code, out = run(capsys, "--json")
    body = json.loads(out)
    assert code == 0
    assert body["reviews_stored"] == 0 and body["reviews"] == 0 and body["compared"] == 0
    assert body["models"] == {
        "sm2": {"log_loss": None, "rmse": None, "mean_prediction": None},
        "fsrs": {"log_loss": None, "rmse": None, "mean_prediction": None},
    }
    assert body["better"] is None and body["scheduler"] == "sm2"
    code, out = run(capsys)
    assert code == 0
    assert out.splitlines()[0].startswith("0 reviews stored, 0 counted")
    assert out.splitlines()[-1].startswith("Nothing to compare yet")


@pytest.fixture
def small_history(small_paths, clock) -> Study:
    """m-1: Good, Good a day later (plus a same-day repeat), Again six days later; c-1: Good once."""
    small_paths.ensure()
    study = Study(small_paths, Config(), clock)
    study.sync()
    for button in (3, 1):
        write_grade(
            study, study.reviews.grade(study.reviews.cards(["m-1"])[0], button, 1000)
        )  # the Again is a repeat: not counted
    write_grade(study, study.reviews.grade(study.reviews.cards(["c-1"])[0], 3, 1000))
    clock.now += timedelta(days=1)
    write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 3, 1000))
    clock.now += timedelta(days=6)
    write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 1, 1000))
    yield study
    study.close()


def test_history_queries(small_history) -> None:
    assert review_counts(small_history.engine) == (5, 4)
    days = [day for day, _ in item_reviews(small_history.engine, "m-1")]
    assert [button for _, button in item_reviews(small_history.engine, "m-1")] == [3, 3, 1]
    assert [(b - a).days for a, b in itertools.pairwise(days)] == [1, 6]
    assert [r.item_id for r in review_history(small_history.engine)] == ["c-1", "m-1", "m-1", "m-1"]
    history = [(r.day, r.button) for r in review_history(small_history.engine)]
    assert days_and_buttons(small_history.engine) == [history[:1], history[1:]]  # item by item, counted only


def test_fitting_reads_days_and_buttons_from_an_index_alone(small_history) -> None:
    from sqlalchemy import text
    from sqlalchemy.dialects import sqlite

    query = str(DAYS_AND_BUTTONS.compile(dialect=sqlite.dialect()))
    with small_history.engine.connect() as connection:
        plan = connection.execute(text(f"EXPLAIN QUERY PLAN {query}")).all()
    assert [row[-1] for row in plan] == ["SCAN review USING COVERING INDEX ix_review_stats_item"]


def test_small_history(capsys, small_history) -> None:
    code, out = run(capsys, "--json")
    body = json.loads(out)
    assert code == 0
    assert (body["reviews_stored"], body["reviews"], body["items"], body["compared"], body["passed"]) == (5, 4, 2, 2, 1)
    # SM-2: 0.9^(1/1) then 0.9^(6/6); a pass then a lapse.
    assert body["models"]["sm2"]["log_loss"] == pytest.approx(-(math.log(0.9) + math.log(0.1)) / 2)
    assert body["models"]["sm2"]["rmse"] == pytest.approx(math.sqrt((0.01 + 0.81) / 2))
    assert body == {
        "scheduler": "sm2",
        "reviews_stored": 5,
        **compare(review_history(small_history.engine)).model_dump(mode="json"),
    }
    code, out = run(capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("5 reviews stored, 4 counted (one per item and day) over 2 items; 2 have an earlier")
    assert any(line.split()[:2] == ["SM-2", f"{body['models']['sm2']['log_loss']:.4f}"] for line in lines)
    assert any(line.split()[:2] == ["FSRS", f"{body['models']['fsrs']['log_loss']:.4f}"] for line in lines)
    assert lines[-1] == body["verdict"]


def test_a_bad_scheduler_setting_is_one_clear_error(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True, exist_ok=True)
    (drill_home / "config.toml").write_text('scheduler = "leitner"\n')
    assert main(["scheduler", "compare"]) == 2
    assert 'scheduler must be "sm2" or "fsrs"' in capsys.readouterr().err


def test_compare_needs_an_action(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["scheduler"])
