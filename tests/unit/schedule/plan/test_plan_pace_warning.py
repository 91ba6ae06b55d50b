"""`drill plan` warns when the interview needs more new items a day than new_per_day sets aside."""

import json
import math

from drill.cli import main
from drill.library import load_library
from drill.paths import Paths

WARNING = "Warning: the plan needs {needed} new items a day, more than new_per_day = {pace} in config.toml"


def reviewable() -> int:
    return sum(1 for loaded in load_library(Paths.resolve()).items if loaded.item.kind != "coding")


def test_a_plan_beyond_the_daily_pace_says_so(capsys, drill_home) -> None:
    assert main(["--today", "2027-03-01", "plan", "--interview", "2027-03-06"]) == 0
    needed = math.ceil(reviewable() / 5)
    assert needed > 15  # the shipped content in five days: far more than the default 15 a day
    out = capsys.readouterr().out
    assert WARNING.format(needed=needed, pace=15) in out
    assert main(["--today", "2027-03-01", "plan", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warning"].startswith(WARNING.format(needed=needed, pace=15))


def test_a_plan_within_the_daily_pace_says_nothing(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True, exist_ok=True)
    (drill_home / "config.toml").write_text(f"new_per_day = {reviewable()}\n")
    assert main(["--today", "2027-03-01", "plan", "--interview", "2027-03-06"]) == 0
    assert "Warning" not in capsys.readouterr().out
    assert main(["--today", "2027-03-01", "plan", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warning"] is None
