"""The command-line contracts other tools rely on."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.content import write_deck

from drill.cli import main
from drill.library import load_library
from drill.paths import Paths


def run_json(capsys, *argv: str):
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_list_json_has_one_object_per_content_item(capsys) -> None:
    code, rows = run_json(capsys, "list", "--json")
    shipped = load_library(Paths.resolve()).items
    assert code == 0
    assert [row["id"] for row in rows] == [loaded.item.id for loaded in shipped]
    assert all(set(row) == {"id", "kind", "block", "topic", "prompt", "answer", "source", "state"} for row in rows)


@pytest.mark.slow
def test_user_decks_under_drill_home_are_listed_and_checked(capsys, drill_home: Path) -> None:
    write_deck(drill_home / "decks", "mine.toml", [("my-own-card", "memory")])
    _, rows = run_json(capsys, "list", "--json")
    assert [row["id"] for row in rows if row["kind"] in ("card", "pitch")][-1] == "my-own-card"
    assert main(["check"]) == 0
    (drill_home / "decks" / "mine.toml").write_text('[[item]]\nid = "x"\nblock = "kitchen"\n')
    code, report = run_json(capsys, "check", "--json")
    assert code == 1 and report["ok"] is False
    assert {error["path"] for error in report["errors"]} == {str(drill_home / "decks" / "mine.toml")}
    assert all(error["line"] >= 1 for error in report["errors"])


def test_stats_json_contract(capsys) -> None:
    code, stats = run_json(capsys, "stats", "--json")
    items = len(load_library(Paths.resolve()).items)
    assert code == 0
    assert stats["items"] == items and stats["reviews_total"] == 0 and stats["due_today"] == 0
    assert stats["new_available"] == min(15, items)
    assert set(stats["by_block"]) == {"memory", "compute", "inference", "training", "communication"}
    assert sum(block["items"] for block in stats["by_block"].values()) == items
    assert all({"items", "due", "reviews"} <= set(block) for block in stats["by_block"].values())


def test_locate_honours_drill_home(capsys, drill_home: Path) -> None:
    assert main(["locate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"database       {drill_home / 'drill.db'}" in lines
    assert f"user_decks     {drill_home / 'decks'}" in lines
    assert f"user_problems  {drill_home / 'problems'}" in lines
    assert f"backups        {drill_home / 'backups'}" in lines
    assert len({line.index(" /") for line in lines}) == 1  # every path starts in the same column


@pytest.mark.slow
def test_unwritable_home_gives_one_clear_message(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = {**os.environ, "DRILL_HOME": str(blocker / "home")}
    result = subprocess.run([sys.executable, "-m", "drill", "stats"], capture_output=True, text=True, env=env)
    assert result.returncode == 2
    assert result.stderr.startswith(f"drill: cannot write drill's state folder {blocker / 'home'}")
    assert "Traceback" not in result.stderr


def test_bad_config_gives_one_clear_message(capsys, drill_home: Path) -> None:
    drill_home.mkdir(parents=True)
    (drill_home / "config.toml").write_text("new_per_day = -3\n")
    assert main(["stats"]) == 2
    assert "new_per_day must be a non-negative integer" in capsys.readouterr().err
