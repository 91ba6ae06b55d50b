"""Messages that say what is true and what to do: an out-of-range --ahead, and where FSRS schedules."""

from __future__ import annotations

import pytest

from drill.cli import main
from drill.commands.review import MAX_AHEAD_DAYS
from drill.paths import Paths


@pytest.mark.parametrize("days", ["99999999", str(MAX_AHEAD_DAYS + 1), "0", "-3", "two"])
def test_review_ahead_out_of_range_is_an_argument_error(capsys, days) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["review", "--ahead", days])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --ahead: must be a whole number of days from 1 to {MAX_AHEAD_DAYS}, not '{days}'" in err
    assert "Could not read" not in err and "out of range" not in err


def test_the_longest_ahead_still_builds_a_session() -> None:
    from datetime import date, timedelta

    from drill.commands.review import days_ahead

    assert days_ahead(str(MAX_AHEAD_DAYS)) == MAX_AHEAD_DAYS
    assert date(2100, 1, 1) + timedelta(days=MAX_AHEAD_DAYS) < date.max  # the horizon stays a date


@pytest.fixture
def fitted(monkeypatch, small_paths):
    """`drill scheduler optimize` finds parameters better than the defaults (the fit itself is tested elsewhere)."""
    from drill.schedule import fsrs_fit

    report = fsrs_fit.FitReport(
        reviews=600,
        scored=500,
        optimizer="fsrs-rs",
        fitted_on=500,
        parameters=tuple(0.1 * n for n in range(1, 22)),
        log_loss_default=0.40,
        log_loss_fitted=0.35,
    )
    monkeypatch.setattr(fsrs_fit, "fit_history", lambda *_args, **_kwargs: report)
    small_paths.ensure()
    return small_paths


def test_optimize_under_sm2_says_how_to_switch(capsys, fitted) -> None:
    assert main(["scheduler", "optimize"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == (
        f'Stored for FSRS; SM-2 still schedules your reviews. To switch, set scheduler = "fsrs" in '
        f"{Paths.resolve().config} (`drill config` shows the setting; `drill scheduler compare` shows both)."
    )


def test_optimize_under_fsrs_says_it_now_schedules(capsys, fitted) -> None:
    Paths.resolve().config.write_text('scheduler = "fsrs"\n')
    assert main(["scheduler", "optimize"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "Stored: FSRS now schedules with them (`drill scheduler compare` shows both)."
