"""`drill stats --json` names how many leeches there are and the TOP_LEECHES worst of them, while
`drill list --leech --json` lists them all; JSON into a pipe is one compact line, indented on a
terminal."""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import timedelta

import pytest
from helpers.content import TestPaths, write_deck

from drill.cli import main
from drill.store.stats.steering import TOP_LEECHES
from drill.study import Study

LEECHES = TOP_LEECHES + 5


@pytest.fixture
def leeches(drill_home, deck_dir, clock, monkeypatch) -> TestPaths:
    """A store whose LEECHES cards each lapsed 1 to 4 times (leech_threshold 1), and one card that
    never lapsed."""
    write_deck(deck_dir, "a.toml", [(f"m-{n:02d}", "memory") for n in range(LEECHES + 1)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    paths.config.write_text('leech_threshold = 1\nleech_action = "tag"\n')
    Study.open(paths, clock).close()
    rows = []
    for n in range(LEECHES):
        for lapse in range(1 + n % 4):
            when = clock.now - timedelta(days=10 + lapse)
            rows.append((f"m-{n:02d}", when.isoformat(), when.date().isoformat()))
    with sqlite3.connect(paths.database) as connection:
        connection.executemany(
            """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
            reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
            VALUES (?, ?, ?, 1, 2, 1000, 1, 2, 6, 2.5, 0, 1, 2.3)""",
            rows,
        )
    import drill.study

    real_open = drill.study.Study.open.__func__
    monkeypatch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: real_open(cls, paths, clock)))
    return paths


def test_stats_json_counts_every_leech_and_names_the_worst(leeches, capsys) -> None:
    assert main(["stats", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and '":' in out and '": ' not in out  # one compact line into a pipe
    steering = json.loads(out)["steering"]
    assert list(steering) == ["cram_reviews", "cram_rescheduled", "leech_count", "leeches"]
    assert steering["leech_count"] == LEECHES
    named = steering["leeches"]
    assert len(named) == TOP_LEECHES
    assert [leech["lapses"] for leech in named] == sorted((1 + n % 4 for n in range(LEECHES)), reverse=True)[
        :TOP_LEECHES
    ]
    assert main(["list", "--leech", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == LEECHES and all(row["state"]["leech"] for row in listed)
    assert {leech["id"] for leech in named} < {row["id"] for row in listed}
    assert f"m-{LEECHES:02d}" not in {row["id"] for row in listed}


def test_json_is_indented_on_a_terminal(leeches, capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["stats", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('{\n  "today": ') and json.loads(out)["steering"]["leech_count"] == LEECHES
