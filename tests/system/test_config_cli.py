"""`drill config`: every setting in effect, defaults included, and where config.toml is; `--json`
says the same."""

import json
import tomllib

from drill.cli import main
from drill.config import Config


def test_without_a_file_every_default_is_printed(capsys, drill_home) -> None:
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"# {drill_home / 'config.toml'} (no such file: every setting is its default)"
    assert "# interview_date is not set" in lines and "# theme is not set" in lines
    assert tomllib.loads(out) == Config().model_dump(mode="json", exclude_none=True)  # what it prints is TOML
    assert set(Config().by_key()) == {line.split(" = ")[0] for line in lines if " = " in line} | {
        "interview_date",
        "theme",
    }
    assert not (drill_home / "config.toml").exists()


def test_the_file_s_settings_and_the_defaults_together(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    (drill_home / "config.toml").write_text(
        '# mine\nnew_mix = { card = 5, estimate = 3 }\ninterview_date = 2026-12-15\ntheme = "nord"\n'
        "mock_round_minutes = 5\n[mock_interview]\ncoding = true\n"
    )
    assert main(["config"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"# {drill_home / 'config.toml'}"
    for line in (
        "new_per_day = 8",
        "new_mix = {card = 5, estimate = 3}",
        "max_reviews_per_day = 200",
        "interview_date = 2026-12-15",
        'theme = "nord"',
        "mock_round.minutes = 5",
        "mock_round.problems = 10",
        'mock_round.blocks = ["memory", "compute", "inference", "training", "communication"]',
        "mock_interview.coding = true",
        "mock_interview.pitch_seconds = 120",
    ):
        assert line in lines
    assert main(["config", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["path"] == str(drill_home / "config.toml") and shown["exists"] is True
    settings = shown["settings"]
    assert settings["new_per_day"] == 8 and settings["interview_date"] == "2026-12-15" and settings["theme"] == "nord"
    assert settings["mock_round"] == {
        "problems": 10,
        "minutes": 5,
        "blocks": ["memory", "compute", "inference", "training", "communication"],
        "grade_at_end": True,
    }
    assert settings["mock_interview"]["coding"] is True and settings["desired_retention"] == 0.9
    assert set(settings) == set(Config.model_fields)


def test_a_broken_file_is_said_as_every_command_says_it(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    (drill_home / "config.toml").write_text("fuzz = 1\n[mock_round]\nminuts = 5\n")
    assert main(["config", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"drill: {drill_home / 'config.toml'}:1: fuzz must be true or false, not 1",
        f"{drill_home / 'config.toml'}:3: unknown key `mock_round.minuts`; did you mean `mock_round.minutes`?",
    ]
