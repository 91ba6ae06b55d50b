"""`drill scheduler optimize` shows py-fsrs's own progress bar over its epochs on a terminal, and
nothing when stderr is a pipe or a file."""

from __future__ import annotations

import sys
import types
from datetime import date, timedelta

from drill.cli import main
from drill.schedule import fsrs_fit
from drill.schedule.fsrs_fit import FitReport
from drill.schedule.replay import PastReview


def test_the_optimizer_is_asked_for_its_progress_bar_only_on_a_terminal(capsys, monkeypatch) -> None:
    asked = []

    def fit_history(history, progress=False):
        asked.append(progress)
        return FitReport(reviews=len(history), scored=0, parameters=None, log_loss_default=None, log_loss_fitted=None)

    monkeypatch.setattr(fsrs_fit, "fit_history", fit_history)
    assert main(["scheduler", "optimize"]) == 0
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["scheduler", "optimize", "--json"]) == 0
    assert asked == [False, True]


def test_progress_reaches_py_fsrs_as_its_verbose_flag(monkeypatch) -> None:
    asked = []

    class Optimizer:
        def __init__(self, logs) -> None:
            self.logs = logs

        def compute_optimal_parameters(self, verbose: bool = False) -> list[float]:
            asked.append(verbose)
            return [0.5] * 21

    monkeypatch.setitem(sys.modules, "fsrs.optimizer", types.SimpleNamespace(Optimizer=Optimizer))
    history = [PastReview("m-1", date(2026, 1, 1) + timedelta(days=day), 3, 4) for day in (0, 1, 4)]
    assert fsrs_fit.optimize(history, progress=True) == (0.5,) * 21
    assert fsrs_fit.optimize(history) == (0.5,) * 21
    assert asked == [True, False]
