"""`drill scheduler optimize` says on stderr which optimizer fits what and how long it should take
before it starts; on a terminal it also says each step as it comes (and py-fsrs's optimizer draws
its bar over its epochs), and nothing more when stderr is a pipe or a file."""

from __future__ import annotations

import sys
import types

from drill.cli import main
from drill.schedule import fsrs_optimize
from drill.schedule.fsrs_fit import MIN_REVIEWS, fit_history
from drill.schedule.fsrs_optimize import RUST, TORCH, Training


def test_the_expected_time_always_and_the_steps_only_on_a_terminal(fit_store, capsys, monkeypatch) -> None:
    assert main(["scheduler", "optimize", "--json"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"Fitting FSRS with {RUST} on all 540 of your scored reviews: about ")
    assert err[0].endswith(" s.")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["scheduler", "optimize"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "Reading your reviews…" and err[1].startswith(f"Fitting FSRS with {RUST} on all 540")
    assert err[2].startswith("Fitted in ") and err[2].endswith(" s; scoring both parameter sets on every review…")
    assert len(err) == 3


def test_the_bar_reaches_py_fsrs_as_its_verbose_flag_on_a_terminal_only(histories, monkeypatch) -> None:
    asked = []

    class Optimizer:
        def __init__(self, logs) -> None:
            self.logs = logs

        def compute_optimal_parameters(self, verbose: bool = False) -> list[float]:
            asked.append((verbose, len(self.logs)))
            return [0.5] * 21

    monkeypatch.setitem(sys.modules, "fsrs.optimizer", types.SimpleNamespace(Optimizer=Optimizer))
    monkeypatch.setattr(fsrs_optimize, "installed", lambda: TORCH)
    history = histories(60, 10)
    said: list[str] = []
    report = fit_history(history, announce=said.append, progress=said.append)
    assert report.optimizer == TORCH and report.fitted_on == report.scored == 540 >= MIN_REVIEWS
    assert said[0].startswith(f"Fitting FSRS with {TORCH} on all 540 of your scored reviews: about ")
    assert said[1].startswith("Fitted in ")
    fit_history(history)
    assert asked == [(True, 600), (False, 600)]


def test_a_larger_history_than_its_window_says_what_py_fsrs_learns_from(histories, monkeypatch) -> None:
    monkeypatch.setattr(fsrs_optimize, "TORCH_REVIEWS", 100)
    training = fsrs_optimize.plan(histories(60, 10), TORCH)
    assert training == Training(TORCH, training.histories, None, 90, 100 / fsrs_optimize.TORCH_REVIEWS_PER_SECOND)
    assert training.describe(540) == (
        "90 of your 540 scored reviews, those of the items you started most recently "
        "(with drill's fsrs-rs extra, `pip install 'drill[fsrs-rs]'`, it learns from far more, in seconds)"
    )
