"""fsrs-rs (fsrs-rs-python, the Rust optimizer Anki uses) fits the parameters drill stores: its 21
are py-fsrs's in the same order, its model steps a memory as drill's FSRS does, it learns from a
bounded window of the latest reviews, and its fit predicts a learner's log as well as py-fsrs's."""

from __future__ import annotations

import sys
import types
from collections import Counter
from datetime import date, timedelta

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS
from fsrs_rs_python import DEFAULT_PARAMETERS as RUST_DEFAULTS
from fsrs_rs_python import FSRS, FSRSItem, FSRSReview
from helpers.content import TestPaths, write_deck
from helpers.simulated_learner import TRUE_MEMORY, learn

from drill.cli import main
from drill.config import Config
from drill.schedule import fsrs_model, fsrs_optimize
from drill.schedule.fsrs_fit import log_loss
from drill.schedule.fsrs_model import FSRSSettings
from drill.schedule.fsrs_optimize import RUST, TORCH, FitError
from drill.store.fsrs_parameters import read_parameters
from drill.store.history import days_and_buttons
from drill.study import Study

DAY = date(2026, 1, 1)
BUTTONS_AND_GAPS = [(3, 0), (1, 2), (1, 1), (3, 1), (2, 4), (3, 9), (4, 20), (1, 61), (3, 2), (4, 5)]


def test_its_defaults_are_py_fsrs_21_in_the_same_order() -> None:
    assert len(RUST_DEFAULTS) == len(DEFAULT_PARAMETERS) == 21
    assert pytest.approx(DEFAULT_PARAMETERS, rel=1e-6) == RUST_DEFAULTS  # fsrs-rs keeps float32


@pytest.mark.parametrize("settings", [fsrs_model.DEFAULT, TRUE_MEMORY], ids=["defaults", "other parameters"])
def test_its_memory_after_each_review_is_drills(settings: FSRSSettings) -> None:
    """Every parameter reaches the same place in both models: stability and difficulty after each
    review agree (to float32), for the defaults and for a set with other stabilities and decay."""
    rust = FSRS(list(settings.parameters or DEFAULT_PARAMETERS))
    reviews: list[FSRSReview] = []
    stability = difficulty = last = None
    day = DAY
    for button, gap in BUTTONS_AND_GAPS:
        day += timedelta(days=gap)
        reviews.append(FSRSReview(button, gap))
        stability, difficulty, _due = fsrs_model.step(stability, difficulty, last, day, button, settings)
        last = day
        memory = rust.memory_state(FSRSItem(reviews))
        assert (memory.stability, memory.difficulty) == pytest.approx((stability, difficulty), rel=2e-5)


def test_it_learns_from_every_first_review_and_the_latest_within_its_budget(histories, monkeypatch) -> None:
    """Each scored review the plan counts is one training item, oldest first: every item's first,
    and the others from the plan's first day on, whose items hold at most RUST_STEPS reviews."""
    given: list[list[tuple[int, int]]] = []

    class Rust:
        def __init__(self, parameters) -> None:
            assert list(parameters) == list(RUST_DEFAULTS)

        def compute_parameters(self, items, enable_short_term=True):
            given.extend(item.reviews for item in items)
            return list(DEFAULT_PARAMETERS)

    fake = types.SimpleNamespace(
        FSRS=Rust,
        DEFAULT_PARAMETERS=RUST_DEFAULTS,
        FSRSItem=lambda reviews: types.SimpleNamespace(reviews=list(reviews)),
        FSRSReview=lambda rating, delta_t: (rating, delta_t),
    )
    monkeypatch.setitem(sys.modules, "fsrs_rs_python", fake)
    monkeypatch.setattr(fsrs_optimize, "RUST_STEPS", 2_000)
    # Item i is reviewed on days 3n + i % 3 (n = 0…9): its scored review n holds n + 1 reviews, and
    # each later day holds 20 of them. Newest first, days 29 to 20 fill 1,760 of the 2,000 reviews
    # left after the 60 first ones (120); day 19 would pass 2,000.
    history = histories(60, 10)
    training = fsrs_optimize.plan(history, RUST)
    assert (training.since, training.scored) == (DAY + timedelta(days=20), 260)
    assert fsrs_optimize.fit(training) == tuple(DEFAULT_PARAMETERS)
    lengths = [len(reviews) for reviews in given]
    assert Counter(lengths) == {2: 60, 7: 20, 8: 60, 9: 60, 10: 60} and sum(lengths) == 1_880
    assert lengths == sorted(lengths)  # oldest first: here a later day's reviews are longer
    assert all(reviews[0] == (3, 0) and all(step == (3, 3) for step in reviews[1:]) for reviews in given)
    # Unbounded, every scored review is an item.
    monkeypatch.setattr(fsrs_optimize, "RUST_STEPS", 10**9)
    assert fsrs_optimize.plan(history, RUST).scored == 540 and fsrs_optimize.plan(history, RUST).since is None


def test_a_fit_outside_py_fsrs_bounds_is_brought_within_them(monkeypatch) -> None:
    """fsrs-rs fits in float32: 0.8 comes back as 0.800000011920929, above py-fsrs's bound for w20."""
    outside = [high + 0.5 for high in UPPER_BOUNDS_PARAMETERS[:10]]
    outside += [low - 0.5 for low in LOWER_BOUNDS_PARAMETERS[10:]]
    monkeypatch.setattr(fsrs_optimize, "_rust", lambda training: outside)
    fitted = fsrs_optimize.fit(fsrs_optimize.Training(RUST, [], None, 0, 0.0))
    assert fitted == (*UPPER_BOUNDS_PARAMETERS[:10], *LOWER_BOUNDS_PARAMETERS[10:])
    fsrs_model.scheduler(FSRSSettings(parameters=fitted))  # py-fsrs takes them
    assert fsrs_optimize.within_bounds(DEFAULT_PARAMETERS) == tuple(DEFAULT_PARAMETERS)


def test_what_fsrs_rs_cannot_fit_is_said_and_changes_nothing(fit_store, capsys, monkeypatch) -> None:
    def refuse(training):
        raise FitError("fsrs-rs could not fit these reviews (NotEnoughData)")

    monkeypatch.setattr(fsrs_optimize, "_rust", refuse)
    assert main(["scheduler", "optimize"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err.splitlines()[-1] == "drill: fsrs-rs could not fit these reviews (NotEnoughData); nothing changed"
    )
    study = Study.open(fit_store)
    try:
        assert read_parameters(study.engine) is None
    finally:
        study.close()


@pytest.mark.slow
def test_its_fit_predicts_a_learners_log_as_well_as_py_fsrs(drill_home, deck_dir, clock) -> None:
    """The simulated learner's log (tests/helpers/simulated_learner.py: 80 cards over 100 days),
    fitted by each optimizer and scored on the whole log: fsrs-rs within 1 % of py-fsrs's log loss."""
    write_deck(deck_dir, "a.toml", [(f"m-{n}", "memory") for n in range(80)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    study = Study(paths, Config(new_per_day=20), clock)
    try:
        study.sync()
        learn(study, clock, days=100)
        history = days_and_buttons(study.engine)
    finally:
        study.close()
    losses = {}
    for engine in (RUST, TORCH):
        training = fsrs_optimize.plan(history, engine)
        assert training.scored == sum(len(reviews) - 1 for reviews in history) >= 512  # all of it
        losses[engine] = log_loss(history, FSRSSettings(parameters=fsrs_optimize.fit(training)))
    default = log_loss(history)
    assert losses[RUST] < default and losses[TORCH] < default
    assert losses[RUST] <= 1.01 * losses[TORCH], losses
