"""`drill plan`: setting and clearing the date in config.toml, the printed plan and its JSON."""

import json
import math
import subprocess
import sys
from datetime import date, timedelta

import pytest

from drill.cli import main
from drill.config import Config, ConfigError, set_interview_date
from drill.days import study_day, utc_now
from drill.library import load_library
from drill.paths import Paths


def today() -> date:
    return study_day(utc_now(), Config().rollover_hour)


def plan_json(capsys, *argv: str) -> dict:
    assert main(["plan", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_plan_json_with_a_date_set(capsys, drill_home) -> None:
    interview = today() + timedelta(days=5)
    assert main(["plan", "--interview", interview.isoformat()]) == 0
    out = capsys.readouterr().out
    assert "5 days left" in out and "/day needed" in out
    assert Config.load(drill_home / "config.toml").interview_date == interview
    figures = plan_json(capsys)
    reviewable = sum(1 for loaded in load_library(Paths.resolve()).items if loaded.item.kind != "coding")
    assert figures["active"] is True and figures["days_left"] == 5 and figures["brought_forward"] == 0
    assert figures["unseen"] == reviewable
    assert figures["new_per_day_needed"] == math.ceil(reviewable / 5)
    days = [(today() + timedelta(days=n)).isoformat() for n in range(5)]
    assert [row["day"] for row in figures["daily_load"]] == days
    assert sum(row["new"] for row in figures["daily_load"]) == reviewable
    assert all(set(row) == {"day", "reviews", "brought_forward", "new", "total"} for row in figures["daily_load"])


def test_plan_clear_and_no_date(capsys, drill_home) -> None:
    (drill_home).mkdir(parents=True, exist_ok=True)
    (drill_home / "config.toml").write_text("# my settings\nnew_per_day = 9\n")
    assert main(["plan", "--interview", (today() + timedelta(days=30)).isoformat()]) == 0
    assert main(["plan", "--clear"]) == 0
    capsys.readouterr()
    assert (drill_home / "config.toml").read_text() == "# my settings\nnew_per_day = 9\n"
    figures = plan_json(capsys)
    assert figures["interview_date"] is None and figures["active"] is False and figures["daily_load"] == []
    assert main(["plan"]) == 0
    assert "No interview date set" in capsys.readouterr().out


def test_plan_refuses_past_and_malformed_dates(capsys, drill_home) -> None:
    assert main(["plan", "--interview", (today() - timedelta(days=1)).isoformat()]) == 2
    assert "after today" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["plan", "--interview", "next tuesday"])
    assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["plan", "--clear", "--interview", "2030-01-01"])
    assert not (drill_home / "config.toml").exists()


def test_a_date_that_has_passed_means_normal_scheduling(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True, exist_ok=True)
    (drill_home / "config.toml").write_text(f"interview_date = {(today() - timedelta(days=2)).isoformat()}\n")
    figures = plan_json(capsys)
    assert figures["active"] is False and figures["days_left"] == -2 and figures["brought_forward"] == 0
    assert main(["plan"]) == 0
    assert "normal scheduling" in capsys.readouterr().out


def test_set_interview_date_keeps_other_settings_and_comments(drill_home) -> None:
    paths = Paths(drill_home)
    paths.ensure()
    paths.config.write_text("# comment\nnew_per_day = 20\ninterview_date = 2030-01-01\nrollover_hour = 5")
    config = set_interview_date(paths, date(2031, 2, 3))
    assert config.interview_date == date(2031, 2, 3) and config.new_per_day == 20 and config.rollover_hour == 5
    assert paths.config.read_text() == "# comment\nnew_per_day = 20\ninterview_date = 2031-02-03\nrollover_hour = 5"
    config = set_interview_date(paths, None)
    assert config.interview_date is None
    assert paths.config.read_text() == "# comment\nnew_per_day = 20\nrollover_hour = 5"
    assert set_interview_date(paths, date(2031, 2, 3)).interview_date == date(2031, 2, 3)
    assert paths.config.read_text().endswith("rollover_hour = 5\ninterview_date = 2031-02-03\n")
    paths.config.write_text("new_per_day = [")
    with pytest.raises(ConfigError):
        set_interview_date(paths, None)
    assert paths.config.read_text() == "new_per_day = ["  # a broken file is left alone


def test_plan_modules_never_import_textual() -> None:
    code = (
        "import sys, drill.schedule.plan, drill.commands.plan, drill.config\n"
        "print(','.join(sorted(m for m in ('textual', 'sympy', 'torch', 'sqlalchemy') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_days_with_nothing_planned_are_one_line_per_run() -> None:
    from drill.commands.plan import load_lines
    from drill.schedule.plan import DayLoad

    start = date(2026, 11, 23)
    loads = [(3, 0, 2), (0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 0), (0, 0, 0), (0, 2, 0)]
    days = [
        DayLoad(day=start + timedelta(days=n), reviews=reviews, brought_forward=brought, new=new)
        for n, (reviews, brought, new) in enumerate(loads)
    ]
    assert load_lines(days)[1:] == [
        "Mon 23 Nov         3       0     2      5",
        "Tue 24 Nov … Thu 26 Nov  nothing planned (3 days)",
        "Fri 27 Nov         1       0     0      1",
        "Sat 28 Nov  nothing planned (1 day)",
        "Sun 29 Nov         0       2     0      2",
    ]
    quiet = [DayLoad(day=start + timedelta(days=n), reviews=0, brought_forward=0, new=0) for n in range(70)]
    assert load_lines(quiet)[1:] == ["Mon 23 Nov … Sun 31 Jan  nothing planned (70 days)"]


def test_the_printed_plan_has_no_row_of_zeros(capsys, drill_home) -> None:
    assert main(["plan", "--interview", (today() + timedelta(days=70)).isoformat()]) == 0
    out = capsys.readouterr().out
    assert "70 days left" in out and "(s)" not in out
    rows = out.split("\n\n", 1)[1].splitlines()[1:]
    assert rows and not [row for row in rows if row.split()[-1] == "0"]
