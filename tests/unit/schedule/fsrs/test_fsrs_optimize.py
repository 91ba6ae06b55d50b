"""`drill scheduler optimize`: FSRS's parameters fitted to the user's own reviews, stored, used by the
next grade and scored by `drill scheduler compare`; `desired_retention` sets FSRS's intervals."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from helpers.content import TestPaths, write_deck
from helpers.simulated_learner import learn

from drill.cli import main
from drill.config import Config, ConfigError
from drill.schedule import fsrs_model
from drill.schedule.fsrs_fit import MIN_REVIEWS, log_loss, scored
from drill.schedule.fsrs_model import FSRSSettings
from drill.schedule.fsrs_optimize import RUST
from drill.schedule.grading import ItemState
from drill.schedule.replay import FITTED
from drill.store.fsrs_parameters import read_parameters
from drill.study import Study
from drill.study.writes import write_grade


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(["scheduler", *argv])
    return code, capsys.readouterr().out


def test_too_few_reviews_say_how_many_are_needed_and_change_nothing(capsys, small_paths, clock) -> None:
    small_paths.ensure()
    study = Study(small_paths, Config(), clock)
    study.sync()
    for _ in range(3):
        for card in study.reviews.cards(["m-1", "m-2"]):
            write_grade(study, study.reviews.grade(card, 3, 1000))
        clock.now += timedelta(days=7)
    study.close()
    code, out = run(capsys, "optimize")
    assert code == 0
    assert out.strip() == (
        f"Fitting FSRS needs at least {MIN_REVIEWS} reviews that follow an earlier review of the "
        "same item on another day; you have 4. Nothing changed."
    )
    code, out = run(capsys, "optimize", "--json")
    body = json.loads(out)
    assert code == 0
    assert body == {
        "reviews": 6,
        "scored": 4,
        "needed": MIN_REVIEWS,
        "optimizer": None,
        "fitted_on": 0,
        "parameters": None,
        "log_loss_default": body["log_loss_default"],
        "log_loss_fitted": None,
        "stored": False,
    }
    assert body["log_loss_default"] > 0
    reopened = Study(small_paths, Config(), clock)
    try:
        assert read_parameters(reopened.engine) is None and not reopened.fsrs_settings.fitted
    finally:
        reopened.close()
    assert "fsrs-fitted" not in json.loads(run(capsys, "compare", "--json")[1])["models"]


@pytest.mark.slow
def test_a_simulated_learners_history_is_fitted_stored_used_and_compared(
    capsys, drill_home: Path, deck_dir: Path, clock
) -> None:
    write_deck(deck_dir, "a.toml", [(f"m-{n}", "memory") for n in range(80)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    study = Study(paths, Config(new_per_day=20), clock)
    study.sync()
    learn(study, clock, days=100)
    study.close()

    code, out = run(capsys, "optimize", "--json")
    body = json.loads(out)
    assert code == 0
    assert body["scored"] >= MIN_REVIEWS and body["reviews"] > body["scored"]
    assert body["optimizer"] == RUST and body["fitted_on"] == body["scored"]  # a small history: all of it
    assert len(body["parameters"]) == 21 and body["stored"] is True
    assert body["log_loss_fitted"] <= body["log_loss_default"]

    # The next grade's FSRS memory moves with the stored parameters.
    study = Study(paths, Config(scheduler="fsrs"), clock)
    try:
        fitted = FSRSSettings(0.9, tuple(body["parameters"]))
        assert study.fsrs_settings == fitted
        card = study.reviews.cards(["m-0"])[0]
        grade = study.reviews.grade(card, 3, 1000)
        expected = fsrs_model.review(card.state.memory, 3, study.today, fitted)
        default = fsrs_model.review(card.state.memory, 3, study.today)
        assert grade.after.fsrs_stability == pytest.approx(expected.stability)
        assert grade.after.fsrs_stability != pytest.approx(default.stability)
    finally:
        study.close()

    code, out = run(capsys, "compare", "--json")
    compared = json.loads(out)
    assert list(compared["models"]) == ["sm2", "fsrs", FITTED]
    assert compared["models"][FITTED]["log_loss"] == pytest.approx(body["log_loss_fitted"])
    assert compared["models"]["fsrs"]["log_loss"] == pytest.approx(body["log_loss_default"])
    code, out = run(capsys, "compare")
    assert any(line.split()[:3] == ["FSRS", "(fitted)", f"{body['log_loss_fitted']:.4f}"] for line in out.splitlines())


def test_scored_and_log_loss_count_only_reviews_with_an_earlier_day() -> None:
    day = date(2026, 11, 1)
    history = [
        [(day, 3), (day + timedelta(days=3), 1), (day + timedelta(days=3), 3), (day + timedelta(days=4), 3)],
        [(day, 3)],
    ]
    assert scored(history) == 2
    first = fsrs_model.review(fsrs_model.FSRSState(), 3, day)
    recall = fsrs_model.retrievability(first, day + timedelta(days=3))
    lapsed = fsrs_model.review(first, 1, day + timedelta(days=3))
    recall_after = fsrs_model.retrievability(lapsed, day + timedelta(days=4))
    assert log_loss(history) == pytest.approx(-(math.log(1 - recall) + math.log(recall_after)) / 2)
    assert log_loss(history[1:]) is None


def test_desired_retention_shortens_or_lengthens_fsrs_intervals(small_paths, clock) -> None:
    small_paths.ensure()
    intervals = {}
    for retention in (0.8, 0.9, 0.97):
        study = Study(small_paths, Config(scheduler="fsrs", desired_retention=retention, fuzz=False), clock)
        try:
            study.sync()
            card = study.reviews.cards(["m-1"])[0]
            learnt = fsrs_model.replay([(study.today - timedelta(days=10), 3), (study.today - timedelta(days=4), 3)])
            state = ItemState(
                repetitions=2,
                interval=6,
                due_day=study.today,
                last_review_day=learnt.last_day,
                fsrs_stability=learnt.stability,
                fsrs_difficulty=learnt.difficulty,
                fsrs_due_day=learnt.due_day,
            )
            card = replace(card, state=state)
            intervals[retention] = (study.reviews.grade(card, 3, 1000).after.due_day - study.today).days
        finally:
            study.close()
    assert intervals[0.8] > intervals[0.9] > intervals[0.97] >= 1


@pytest.mark.parametrize("value", ["0.5", "0.99", '"0.9"', "true"])
def test_desired_retention_is_a_number_from_0_7_to_0_97(drill_home: Path, value: str) -> None:
    drill_home.mkdir(parents=True, exist_ok=True)
    config = drill_home / "config.toml"
    config.write_text(f"desired_retention = {value}\n")
    with pytest.raises(ConfigError, match=re.escape("desired_retention must be a number from 0.7 to 0.97")):
        Config.load(config)
    config.write_text("desired_retention = 0.85\n")
    assert Config.load(config).desired_retention == 0.85


@pytest.mark.slow
def test_torch_stays_out_of_the_app_and_of_compare(drill_home: Path) -> None:
    code = (
        "import sys\n"
        "from drill.cli import main\n"
        "from drill.study import Study\n"
        "Study.open().close()\n"
        "main(['scheduler', 'compare', '--json'])\n"
        "main(['scheduler', 'optimize', '--json'])\n"  # too few reviews: no optimizer is even loaded
        "print(*(name in sys.modules for name in ('torch', 'fsrs.optimizer', 'fsrs_rs_python')), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stderr.strip().splitlines()[-1] == "False False False"
