"""config.toml as one typed model: every problem said at once at its line, a near miss of a key
gets the key it meant, and writes keep the user's comments, key order and layout."""

from datetime import date
from pathlib import Path

import pytest

from drill.config import Config, ConfigError, MockInterview, MockRound, write_setting
from drill.estimate.rounds import RoundSettings
from drill.interview.settings import InterviewSettings


def problems(path: Path, text: str) -> list[str]:
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        Config.load(path)
    assert str(refused.value) == "\n".join(map(str, refused.value.problems))
    return [f"{problem.line}: {problem.message}" for problem in refused.value.problems]


def test_a_missing_file_is_every_default(tmp_path) -> None:
    config = Config.load(tmp_path / "config.toml")
    assert config == Config() and config.mock_round == MockRound() and config.mock_interview == MockInterview()
    assert config.by_key()["mock_round.minutes"] == 15 and config.by_key()["theme"] is None


def test_every_problem_is_reported_at_once_at_its_line(tmp_path) -> None:
    path = tmp_path / "config.toml"
    assert problems(
        path,
        """# my settings
new_per_day = -1
scheduler = "anki"   # wrong
interview_date = 2026-12-01T09:00:00

[mock_round]
minutes = 0
blocks = ["memory", "gpus"]

[mock_interview]
pitch_seconds = 45
coding = "yes"
""",
    ) == [
        "2: new_per_day must be a non-negative integer from 0 to 9999, not -1",
        '3: scheduler must be "sm2" or "fsrs", not \'anki\'',
        "4: interview_date must be a date like 2026-12-01, not datetime.datetime(2026, 12, 1, 9, 0)",
        "7: mock_round.minutes must be a positive integer from 1 to 600, not 0",
        "8: mock_round.blocks must list blocks (memory, compute, inference, training, communication), "
        "not ['memory', 'gpus']",
        "11: mock_interview.pitch_seconds must be 0, 30, 120 or 300, not 45",
        "12: mock_interview.coding must be true or false, not 'yes'",
    ]


def test_an_unknown_key_gets_the_key_it_meant(tmp_path) -> None:
    path = tmp_path / "config.toml"
    assert problems(
        path,
        'new_per_dya = 3\nleech_treshold = 5\ncolour = "red"\nmock_round_minute = 5\n'
        "[mock_interview]\ngril = 2\n[mock_rund]\nminutes = 5\n",
    ) == [
        "1: unknown key `new_per_dya`; did you mean `new_per_day`?",
        "2: unknown key `leech_treshold`; did you mean `leech_threshold`?",
        "3: unknown key `colour`",
        "4: unknown key `mock_round_minute`; did you mean `mock_round.minutes`?",  # the table's key, not the old one
        "6: unknown key `mock_interview.gril`; did you mean `mock_interview.grill`?",
        "7: unknown key `mock_rund`; did you mean `mock_round`?",
    ]


def test_tables_can_be_written_inline_or_dotted(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('mock_round = { minutes = 5, blocks = ["training", "memory"] }\nmock_interview.grill = 0\n')
    config = Config.load(path)
    assert config.mock_round == MockRound(minutes=5, blocks=("memory", "training"))  # the vocabulary's order
    assert config.mock_interview.grill == 0
    assert problems(path, "mock_interview.grill = 0\nmock_round = { minutes = 5, blocks = [] }\n") == [
        "2: mock_round.blocks must list blocks (memory, compute, inference, training, communication), not []"
    ]


def test_the_flat_keys_of_older_files_are_read_into_their_tables(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'mock_round_minutes = 12\nmock_round_blocks = ["compute"]\nmock_interview_pitch = 30\n'
        "mock_interview_coding = true\n"
    )
    config = Config.load(path)
    assert config.mock_round == MockRound(minutes=12, blocks=("compute",))
    assert config.mock_interview == MockInterview(pitch_seconds=30, coding=True)


def test_only_a_mix_sets_the_daily_total() -> None:
    assert Config(new_mix={"card": 5, "pitch": 6}).new_per_day == 11
    assert Config(new_mix={"card": 5}, new_per_day=20).new_per_day == 20


def test_a_write_keeps_comments_order_and_layout(tmp_path) -> None:
    path = tmp_path / "config.toml"
    text = """# my settings, by hand
rollover_hour = 5     # I study late
scheduler = "fsrs"

[mock_round]  # rounds
minutes = 10  # short ones
problems = 10
"""
    path.write_text(text)
    config = write_setting(path, "interview_date", date(2026, 12, 15))
    assert config.interview_date == date(2026, 12, 15) and config.rollover_hour == 5
    config = write_setting(path, "mock_round", RoundSettings(minutes=5, problems=10, blocks=("memory",)))
    assert RoundSettings.from_config(config) == RoundSettings(minutes=5, blocks=("memory",))
    config = write_setting(path, "theme", "nord")
    assert (
        path.read_text()
        == """# my settings, by hand
rollover_hour = 5     # I study late
scheduler = "fsrs"
interview_date = 2026-12-15
theme = "nord"

[mock_round]  # rounds
minutes = 5  # short ones
problems = 10
blocks = ["memory"]
grade_at_end = true
"""
    )
    assert Config.load(path) == config and config.theme == "nord"
    write_setting(path, "interview_date", None)
    write_setting(path, "theme", None)
    write_setting(path, "mock_round", RoundSettings(minutes=10, blocks=("memory",)))
    assert path.read_text() == text + 'blocks = ["memory"]\ngrade_at_end = true\n'  # the other keys as they were


def test_remembering_a_setup_moves_the_flat_keys_into_its_table(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("new_per_day = 5  # a few\nmock_interview_grill = 4  # old style\nmock_interview_coding = true\n")
    settings = InterviewSettings.from_config(Config.load(path))
    assert settings == InterviewSettings(grill=4, coding=True)
    config = write_setting(path, "mock_interview", settings.model_copy(update={"estimates": 1}))
    assert path.read_text() == (
        "new_per_day = 5  # a few\n\n[mock_interview]\nminutes = 45\ngrill = 4\n"
        "pitch_seconds = 120\nestimates = 1\ncoding = true\n"
    )
    assert InterviewSettings.from_config(config) == InterviewSettings(grill=4, estimates=1, coding=True)


def test_a_write_that_changes_nothing_leaves_the_file_alone(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = 'nord'  # literal string\n")
    before = path.stat().st_mtime_ns
    assert write_setting(path, "theme", "nord").theme == "nord"
    assert path.stat().st_mtime_ns == before and path.read_text() == "theme = 'nord'  # literal string\n"


def test_a_broken_file_or_a_refused_value_is_not_written(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("fuzz = 1\n")
    with pytest.raises(ConfigError, match="fuzz must be true or false"):
        write_setting(path, "theme", "nord")
    path.write_text("fuzz = false\n")
    with pytest.raises(ConfigError, match=":2: theme must be the name of a theme"):
        write_setting(path, "theme", "")
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        write_setting(path, "colour", "red")
    assert path.read_text() == "fuzz = false\n"


def test_a_settings_class_reads_its_table_and_round_trips_through_pydantic() -> None:
    settings = InterviewSettings(minutes=30, grill=2, pitch_seconds=30, estimates=4, coding=True)
    assert InterviewSettings.from_config(Config(mock_interview=settings)) == settings
    assert InterviewSettings.model_validate(settings.model_dump()) == settings
    assert RoundSettings.from_config(Config(mock_round=MockRound(problems=7))) == RoundSettings(problems=7)
    assert RoundSettings(blocks=()).blocks == ()  # the setup screen says to pick one; config.toml refuses it
