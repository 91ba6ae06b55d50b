"""A config.toml with values out of range or of the wrong type: every command exits 2 with one
line per problem, naming the file, the key's line, the key and what it allows, and the database is
not written."""

import hashlib
from pathlib import Path

import pytest

from drill.cli import main
from drill.config import WHOLE_NUMBERS, Config, ConfigError, Settings

HUGE = "73786976294838206464"  # 2**66: too big for SQLite's integers

BAD = [
    (f"max_reviews_per_day = {HUGE}", "max_reviews_per_day must be a non-negative integer from 0 to 9999"),
    (f"new_per_day = {HUGE}", "new_per_day must be a non-negative integer from 0 to 9999"),
    ("new_per_day = -1", "new_per_day must be a non-negative integer from 0 to 9999, not -1"),
    ("new_per_day = true", "new_per_day must be a non-negative integer from 0 to 9999, not True"),
    ("new_per_day = 10.0", "new_per_day must be a non-negative integer from 0 to 9999, not 10.0"),
    ('new_per_day = "10"', "new_per_day must be a non-negative integer from 0 to 9999, not '10'"),
    (f"new_mix = {{ card = {HUGE} }}", "new_mix must map kinds"),
    ("new_mix = { card = true }", "new_mix must map kinds"),
    (
        "new_mix = { card = 9000, pitch = 1000 }",
        "new_mix must map kinds (card, pitch, estimate, coding) to non-negative integers adding up to at most 9999",
    ),
    ("rollover_hour = 24", "rollover_hour must be a non-negative integer from 0 to 23, not 24"),
    ("rollover_hour = true", "rollover_hour must be a non-negative integer from 0 to 23, not True"),
    ("plan_window_days = 1.5", "plan_window_days must be a positive integer from 1 to 365"),
    (f"plan_window_days = {HUGE}", "plan_window_days must be a positive integer from 1 to 365"),
    ("backups_keep = 0", "backups_keep must be a positive integer from 1 to 1000, not 0"),
    ("backups_keep = true", "backups_keep must be a positive integer from 1 to 1000, not True"),
    ("backups_keep_manual = 100000", "backups_keep_manual must be a positive integer from 1 to 1000"),
    ("leech_threshold = 9223372036854775808", "leech_threshold must be a positive integer from 1 to 1000"),
    ("leech_threshold = true", "leech_threshold must be a positive integer from 1 to 1000, not True"),
    ("mock_round_minutes = 1e9", "mock_round_minutes must be a positive integer from 1 to 600"),
    ("mock_interview_grill = -5", "mock_interview_grill must be a non-negative integer from 0 to 600"),
    ("mock_interview_pitch = 120.0", "mock_interview_pitch must be 0, 30, 120 or 300, not 120.0"),
    ("desired_retention = nan", "desired_retention must be a number from 0.7 to 0.97, not nan"),
    ("desired_retention = inf", "desired_retention must be a number from 0.7 to 0.97, not inf"),
    ("readiness_target = 80", "readiness_target must be a share from 0.05 to 1, like 0.8, not 80"),
    ("readiness_target = true", "readiness_target must be a share from 0.05 to 1, like 0.8, not True"),
    ("readiness_target = nan", "readiness_target must be a share from 0.05 to 1, like 0.8, not nan"),
    ("interview_date = 2026-12-01T10:00:00", "interview_date must be a date like 2026-12-01"),
    ("fuzz = 1", "fuzz must be true or false, not 1"),
    ('leech_action = "delete"', 'leech_action must be "suspend" or "tag", not \'delete\''),
    ("theme = 5", 'theme must be the name of a theme, like "nord", not 5'),
    ("[mock_round]\nminutes = 1e9", "mock_round.minutes must be a positive integer from 1 to 600"),
    ("# mine\n[mock_round]\nproblems = 10\nblocks = []", "mock_round.blocks must list blocks (memory, compute,"),
    ("mock_interview.pitch_seconds = 45", "mock_interview.pitch_seconds must be 0, 30, 120 or 300, not 45"),
    ("mock_interview = { grill = -1 }", "mock_interview.grill must be a non-negative integer from 0 to 600"),
    ("mock_round = 3", "mock_round must be a table of settings, not 3"),
    ("new_per_day = 5\nmock_rond.minutes = 5", "unknown key `mock_rond`; did you mean `mock_round`?"),
    ("[mock_round]\nminute = 5", "unknown key `mock_round.minute`; did you mean `mock_round.minutes`?"),
]  # the offending key is each text's last line


def digest(home: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in home.glob("drill.db*")}


@pytest.mark.parametrize(("text", "message"), BAD, ids=[text for text, _ in BAD])
def test_a_bad_value_is_one_line_and_exit_2_before_the_database_opens(text, message, capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    (drill_home / "config.toml").write_text(text + "\n")
    assert main(["queue"]) == 2
    err = capsys.readouterr().err
    line = text.count("\n") + 1
    assert err.startswith(f"drill: {drill_home / 'config.toml'}:{line}: {message}") and err.count("\n") == 1, err
    assert not (drill_home / "drill.db").exists()


def test_every_problem_is_said_at_once_in_file_order(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    config = drill_home / "config.toml"
    config.write_text("# mine\nfuzz = 1\nrollover_hour = 24\nnew_per_dya = 3\n\n[mock_round]\nminutes = 0\n")
    assert main(["stats"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"drill: {config}:2: fuzz must be true or false, not 1",
        f"{config}:3: rollover_hour must be a non-negative integer from 0 to 23, not 24",
        f"{config}:4: unknown key `new_per_dya`; did you mean `new_per_day`?",
        f"{config}:7: mock_round.minutes must be a positive integer from 1 to 600, not 0",
    ]
    assert not (drill_home / "drill.db").exists()


def test_keys_from_before_the_tables_are_named_as_written(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    config = drill_home / "config.toml"
    config.write_text("new_per_day = 5\nmock_round_minutes = 0\nmock_interview_pitch = 45\n")
    assert main(["queue"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"drill: {config}:2: mock_round_minutes must be a positive integer from 1 to 600, not 0",
        f"{config}:3: mock_interview_pitch must be 0, 30, 120 or 300, not 45",
    ]


def test_a_file_that_is_not_toml_is_said_at_its_line(capsys, drill_home) -> None:
    drill_home.mkdir(parents=True)
    (drill_home / "config.toml").write_text("new_per_day = 5\nfuzz = \n")
    assert main(["queue"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"drill: {drill_home / 'config.toml'}:2: bad TOML: ") and err.count("\n") == 1, err
    assert not (drill_home / "drill.db").exists()


def test_an_existing_database_is_not_written(capsys, drill_home) -> None:
    assert main(["queue"]) == 0
    before = digest(drill_home)
    (drill_home / "config.toml").write_text(f"max_reviews_per_day = {HUGE}\n")
    for command in (["queue"], ["stats"], ["plan"], ["backup"]):
        assert main(command) == 2
    assert digest(drill_home) == before


def integer_keys(settings: type[Settings], table: str = "") -> set[str]:
    """The dotted key of every int setting, the tables' included."""
    keys = set()
    for name, field in settings.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, Settings):
            keys |= integer_keys(field.annotation, f"{table}{name}.")
        elif field.annotation is int:
            keys.add(table + name)
    return keys


def test_every_integer_setting_is_range_checked(tmp_path) -> None:
    config = tmp_path / "config.toml"
    for name, (low, high) in WHOLE_NUMBERS.items():
        for value in (low - 1, high + 1, "true"):
            config.write_text(f"{name} = {value}\n")
            with pytest.raises(ConfigError, match=f"{name} must be .* from {low} to {high}"):
                Config.load(config)
        config.write_text(f"{name} = {high}\n")
        assert Config.load(config).by_key()[name] == high
    assert integer_keys(Config) - {"mock_interview.pitch_seconds"} == set(WHOLE_NUMBERS)
