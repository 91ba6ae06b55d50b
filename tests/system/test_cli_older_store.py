"""A command on a store an older drill wrote says the upgrade once, on stderr; stdout keeps only
what the command prints (`--json` parses)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.older_store import older_store

from drill.cli import main

UPGRADE_LINE = "drill: upgrading your store for this drill (one time)…"


def test_stats_json_on_an_older_store_says_the_upgrade_on_stderr_only(capsys, drill_home: Path) -> None:
    older_store(drill_home / "drill.db")
    assert main(["stats", "--json"]) == 0
    first = capsys.readouterr()
    assert json.loads(first.out)["reviews_total"] == 0
    assert first.err.splitlines() == [UPGRADE_LINE]
    assert main(["stats", "--json"]) == 0
    again = capsys.readouterr()
    assert json.loads(again.out) == json.loads(first.out)
    assert again.err == ""
