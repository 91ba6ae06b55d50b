"""`drill stats` and `drill stats --json`, byte for byte, over the hand-built history.

The JSON files under golden/ were written by `drill stats --json` as it was before the figures
became dataclasses with `as_json()` (issue 14); the JSON must not change by a byte. Into a pipe
the command prints compact JSON (drill.commands.output), which must be the golden file's compact
rendering byte for byte; the file keeps the indented rendering a terminal shows, so a change reads
as a diff line by line. The text files pin `drill stats` alike. A deliberate change of the output
rewrites them: `DRILL_WRITE_GOLDEN=1 pytest tests/unit/stats/test_stats_output_pinned.py`.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from helpers.interview import run_interview
from helpers.stats_history import make_history, open_history

from drill.cli import main
from drill.commands.output import COMPACT
from drill.interview.settings import InterviewSettings

GOLDEN = Path(__file__).parent / "golden"
RUNS = {  # golden file -> the arguments after `drill stats`
    "default.json": ("--json",),
    "default.txt": (),
    "all-memory.json": ("--json", "--period", "all", "--block", "memory"),
    "all-memory.txt": ("--period", "all", "--block", "memory"),
}
PLANNED_RUNS = {  # with an interview date ahead and two mock interviews behind
    "planned.json": ("--json",),
    "planned.txt": (),
    "planned-7-inference.json": ("--json", "--period", "7", "--block", "inference"),
}
FSRS_RUNS = {"fsrs.json": ("--json", "--period", "365"), "fsrs.txt": ("--period", "365")}  # FSRS predicts recall


def _study_open_over(paths, clock, monkeypatch) -> None:
    """`drill stats` opens the study itself: give it the history's content folders and clock."""
    import drill.study

    real_open = drill.study.Study.open.__func__
    monkeypatch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: real_open(cls, paths, clock)))


@pytest.fixture
def history(drill_home, tmp_path, clock, monkeypatch):
    paths = make_history(drill_home, tmp_path, clock)
    _study_open_over(paths, clock, monkeypatch)
    return paths


@pytest.fixture
def planned_history(drill_home, tmp_path, clock, monkeypatch):
    paths = make_history(drill_home, tmp_path, clock)
    (drill_home / "config.toml").write_text("interview_date = 2026-12-02\n")
    study = open_history(paths, clock)
    study.rng = random.Random(4)
    try:
        run_interview(study, InterviewSettings(grill=2, pitch_seconds=30, estimates=1))
        run_interview(study, InterviewSettings(grill=1, pitch_seconds=0, estimates=0), ended="abandoned")
    finally:
        study.close()
    _study_open_over(paths, clock, monkeypatch)
    return paths


@pytest.fixture
def fsrs_history(history, drill_home):
    (drill_home / "config.toml").write_text('scheduler = "fsrs"\n')
    return history


def _check(name: str, argv: tuple[str, ...], capsys) -> None:
    assert main(["stats", *argv]) == 0
    out = capsys.readouterr().out
    path = GOLDEN / name
    if os.environ.get("DRILL_WRITE_GOLDEN"):
        written = _indented(out) if path.suffix == ".json" else out
        path.write_text(written, encoding="utf-8")
    pinned = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        pinned = json.dumps(json.loads(pinned), separators=COMPACT, ensure_ascii=False) + "\n"
    assert out == pinned, f"drill stats {' '.join(argv)} differs from {path}"


def _indented(out: str) -> str:
    """The indented rendering of one compact JSON document (its keys, values and floats unchanged)."""
    assert out.count("\n") == 1, "into a pipe, `drill stats --json` prints one compact line"
    return json.dumps(json.loads(out), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("name", RUNS)
def test_stats_output_is_unchanged(history, capsys, name: str) -> None:
    _check(name, RUNS[name], capsys)


@pytest.mark.slow
@pytest.mark.parametrize("name", PLANNED_RUNS)
def test_stats_output_with_a_plan_and_interviews_is_unchanged(planned_history, capsys, name: str) -> None:
    _check(name, PLANNED_RUNS[name], capsys)


@pytest.mark.parametrize("name", FSRS_RUNS)
def test_stats_output_under_fsrs_is_unchanged(fsrs_history, capsys, name: str) -> None:
    _check(name, FSRS_RUNS[name], capsys)
