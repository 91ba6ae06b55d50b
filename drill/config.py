"""Settings from config.toml under DRILL_HOME: one pydantic model (every key optional, the mock
round's and the mock interview's setups in their own tables), every problem of a file reported at
once as `path:line: key …`, and writes through tomlkit that keep the user's comments and layout."""

from __future__ import annotations

import contextlib
import difflib
import os
import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from drill.content.errors import ContentError
from drill.content.locate import toml_lines
from drill.content.toml_file import read_toml
from drill.content.vocabulary import BLOCKS
from drill.errors import UserFacingError
from drill.schedule import memory
from drill.schedule.leech import ACTIONS
from drill.schedule.queue import DEFAULT_NEW_MIX, KINDS

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

    from drill.paths import Paths


MOST_PER_DAY = 9999  # the most new items or reviews a day (Anki's limit too)
# Every integer setting, by its dotted key, with the range it must lie in (ends included).
WHOLE_NUMBERS: dict[str, tuple[int, int]] = {
    "new_per_day": (0, MOST_PER_DAY),
    "max_reviews_per_day": (0, MOST_PER_DAY),
    "rollover_hour": (0, 23),
    "plan_window_days": (1, 365),
    "backups_keep": (1, 1000),
    "backups_keep_manual": (1, 1000),
    "leech_threshold": (1, 1000),
    "mock_interview.minutes": (0, 600),
    "mock_interview.grill": (0, 600),
    "mock_interview.estimates": (0, 600),
    "mock_round.problems": (1, 600),
    "mock_round.minutes": (1, 600),
}
PITCH_RUNGS = (0, 30, 120, 300)  # the pitch ladder's targets in seconds; 0 leaves the pitch out
# The top-level keys drill wrote before the tables, still read: the next write of their table
# moves them into it.
FLAT_KEYS = {
    "mock_interview_minutes": "mock_interview.minutes",
    "mock_interview_grill": "mock_interview.grill",
    "mock_interview_pitch": "mock_interview.pitch_seconds",
    "mock_interview_estimates": "mock_interview.estimates",
    "mock_interview_coding": "mock_interview.coding",
    "mock_round_problems": "mock_round.problems",
    "mock_round_minutes": "mock_round.minutes",
    "mock_round_blocks": "mock_round.blocks",
    "mock_round_grade_at_end": "mock_round.grade_at_end",
}


class ConfigError(UserFacingError):
    """config.toml exists but cannot be used: every problem found in it, one a line."""

    def __init__(self, problems: list[ContentError]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def _whole(value: object, low: int, high: int) -> bool:
    """Whether `value` is an int (TOML's true and false are not) from `low` to `high`."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _checked(allowed: str, ok: Callable[[object], bool]) -> BeforeValidator:
    """A validator that lets through what `ok` accepts and names what the key allows otherwise."""

    def check(value: object) -> object:
        if not ok(value):
            raise ValueError(f"must be {allowed}, not {value!r}")
        return value

    return BeforeValidator(check)


def _blocks(value: object) -> tuple[str, ...]:
    """The listed blocks in the vocabulary's order."""
    if not isinstance(value, (list, tuple)) or not value or any(block not in BLOCKS for block in value):
        raise ValueError(f"must list blocks ({', '.join(BLOCKS)}), not {value!r}")
    return tuple(block for block in BLOCKS if block in value)


def _new_mix(value: object) -> dict[str, int]:
    """A daily mix of new items: kinds to counts, at most MOST_PER_DAY together."""
    if (
        not isinstance(value, dict)
        or any(kind not in KINDS or not _whole(number, 0, MOST_PER_DAY) for kind, number in value.items())
        or sum(value.values()) > MOST_PER_DAY
    ):
        raise ValueError(
            f"must map kinds ({', '.join(KINDS)}) to non-negative integers adding up to at most {MOST_PER_DAY}, "
            f"e.g. new_mix = {{ card = 10, pitch = 2, estimate = 2, coding = 1 }}; not {value!r}"
        )
    return value


def _scheduler(value: object) -> str:
    if not isinstance(value, str) or value not in memory.names():
        raise ValueError(f"must be {memory.listed()}, not {value!r}")
    return value


Flag = Annotated[bool, _checked("true or false", lambda value: isinstance(value, bool))]


class Settings(BaseModel):
    """Keys of config.toml, at its top or in one of its tables: none unknown, each whole number
    within its WHOLE_NUMBERS range."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    TABLE: ClassVar[str] = ""  # the table's name and a dot, as WHOLE_NUMBERS writes its keys

    @field_validator("*", mode="before")
    @classmethod
    def _in_range(cls, value: object, info: ValidationInfo) -> object:
        limits = WHOLE_NUMBERS.get(cls.TABLE + str(info.field_name))
        if limits is not None and not _whole(value, *limits):
            low, high = limits
            kind = {0: "a non-negative integer", 1: "a positive integer"}.get(low, "an integer")
            raise ValueError(f"must be {kind} from {low} to {high}, not {value!r}")
        return value


class MockRound(Settings):
    """[mock_round]: the mock estimation round's setup, as last chosen on its screen."""

    TABLE = "mock_round."
    problems: int = 10
    minutes: int = 15
    blocks: Annotated[tuple[str, ...], BeforeValidator(_blocks)] = BLOCKS
    grade_at_end: Flag = True  # false: the worked solution after each answer


class MockInterview(Settings):
    """[mock_interview]: the mock interview's setup, as last chosen on its screen."""

    TABLE = "mock_interview."
    minutes: int = 45
    grill: int = 3
    pitch_seconds: Annotated[
        int, _checked("0, 30, 120 or 300", lambda value: _whole(value, 0, max(PITCH_RUNGS)) and value in PITCH_RUNGS)
    ] = 120
    estimates: int = 3
    coding: Flag = False


class Config(Settings):
    """User settings; every key has a default so a missing file is fine."""

    new_per_day: int = 15  # all kinds together; when only new_mix is set, its sum
    new_mix: Annotated[dict[str, int], BeforeValidator(_new_mix)] = Field(
        default_factory=lambda: dict(DEFAULT_NEW_MIX)
    )  # new items a day per kind
    max_reviews_per_day: int = 200
    rollover_hour: int = 4
    interview_date: Annotated[
        date | None,
        _checked(
            "a date like 2026-12-01",
            lambda value: value is None or (isinstance(value, date) and not isinstance(value, datetime)),
        ),
    ] = None
    plan_window_days: int = 7  # the interview plan brings items forward into this many final days
    scheduler: Annotated[str, BeforeValidator(_scheduler)] = "sm2"  # a name in drill.schedule.memory.names()
    fuzz: Flag = True  # spread passed items' due days over the least loaded nearby days (drill.schedule.load_balance)
    desired_retention: Annotated[
        float,
        _checked(
            "a number from 0.7 to 0.97",
            lambda value: isinstance(value, (int, float)) and not isinstance(value, bool) and 0.7 <= value <= 0.97,
        ),
    ] = 0.9  # the recall FSRS schedules for: higher means shorter intervals
    readiness_target: Annotated[
        float,
        _checked(
            "a share from 0.05 to 1, like 0.8",
            lambda value: isinstance(value, (int, float)) and not isinstance(value, bool) and 0.05 <= value <= 1,
        ),
    ] = 0.8  # the interview score the plan aims at (drill plan: the pace it takes)
    backups_keep: int = 7  # daily backups kept in DRILL_HOME/backups
    backups_keep_manual: int = 10  # `drill backup` copies kept there
    leech_threshold: int = 8  # lapses that make a card a leech (as Anki); flagged again every half threshold
    leech_action: Annotated[str, _checked('"suspend" or "tag"', lambda value: value in ACTIONS)] = "suspend"
    theme: Annotated[
        str | None,
        _checked(
            'the name of a theme, like "nord"',
            lambda value: value is None or (isinstance(value, str) and value != ""),
        ),
    ] = None  # the TUI's theme as last picked in the command palette; none: Textual's default
    mock_round: MockRound = Field(default_factory=MockRound)
    mock_interview: MockInterview = Field(default_factory=MockInterview)

    @model_validator(mode="before")
    @classmethod
    def _mix_sets_the_total(cls, data: object) -> object:
        """Without new_per_day, a new_mix sets the day's total: its sum (a broken mix is said as such)."""
        if isinstance(data, dict) and "new_mix" in data and "new_per_day" not in data:
            with contextlib.suppress(ValueError):
                return data | {"new_per_day": sum(_new_mix(data["new_mix"]).values())}
        return data

    @classmethod
    def load(cls, path: Path) -> Config:
        """The settings `path` holds (the defaults when there is no such file); ConfigError names
        every problem in it."""
        if not path.exists():
            return cls()
        read = read_toml(path)
        if isinstance(read, ContentError):
            raise ConfigError([read])
        return _validated(path, read.text, read.data)

    def by_key(self) -> dict[str, Any]:
        """Every setting, defaults included, by its dotted key ("mock_round.minutes")."""
        keys: dict[str, Any] = {}
        for name, value in self:
            if isinstance(value, Settings):
                keys |= {f"{name}.{key}": item for key, item in value}
            else:
                keys[name] = value
        return keys


def _validated(path: Path, text: str, data: dict[str, Any]) -> Config:
    """The settings in `data` (parsed from `text`, read from `path`), flat keys of older files
    moved into their tables; ConfigError names every problem, at its line."""
    nested, written_as = dict(data), {}
    for flat, dotted in FLAT_KEYS.items():
        if flat in nested:
            table, key = dotted.split(".")
            value = nested.pop(flat)
            if isinstance(nested.setdefault(table, {}), dict):
                nested[table] = {key: value} | nested[table]  # the table's own key wins
            written_as[dotted] = flat
    try:
        return Config.model_validate(nested)
    except ValidationError as error:
        lines = _key_lines(text)
        problems = []
        for detail in error.errors():
            dotted = ".".join(map(str, detail["loc"]))
            where = written_as.get(dotted, dotted)
            problems.append(ContentError(path, _line(lines, where), _problem(where, detail)))
        raise ConfigError(sorted(problems, key=lambda problem: problem.line)) from None


def _problem(where: str, detail: Any) -> str:
    """What is wrong with the key `where`, as pydantic's `detail` says it."""
    if detail["type"] == "extra_forbidden":
        return f"unknown key `{where}`{_did_you_mean(where)}"
    if detail["type"] == "model_type":
        return f"{where} must be a table of settings, not {detail['input']!r}"
    return f"{where} {detail['msg'].removeprefix('Value error, ')}"


def _did_you_mean(where: str) -> str:
    """ "; did you mean `key`?" naming the known key closest to the unknown `where`, if one is close."""
    *table, name = where.split(".")
    if table:
        keys: type[Settings] = Config.model_fields[table[0]].annotation  # type: ignore[assignment]
        known = {key: f"{table[0]}.{key}" for key in keys.model_fields}
    else:
        known = {key: key for key in Config.model_fields} | FLAT_KEYS
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean `{known[close[0]]}`?" if close else ""


HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
KEY = re.compile(r"^\s*([A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*=")


def _key_lines(text: str) -> dict[str, int]:
    """The line each key (dotted, "mock_round.minutes") and table is first written on."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(toml_lines(text), start=1):
        if match := HEADER.match(line):
            table = match.group(1) + "."
            lines.setdefault(match.group(1), number)
        elif match := KEY.match(line):
            parts = (table + re.sub(r"\s", "", match.group(1))).split(".")
            for end in range(1, len(parts) + 1):
                lines.setdefault(".".join(parts[:end]), number)
    return lines


def _line(lines: dict[str, int], where: str) -> int:
    """The line of the key `where`, else of the nearest table around it, else 1."""
    parts = where.split(".")
    return next((lines[key] for end in range(len(parts), 0, -1) if (key := ".".join(parts[:end])) in lines), 1)


def write_setting(path: Path, name: str, value: object) -> Config:
    """Set one top-level setting in config.toml, keeping every other line, comment included, where
    it was: None removes it; a table's settings (MockRound, or RoundSettings built on it) set the
    keys of that [table], taking in the flat keys older files keep. Return the settings as they
    now read. A broken file, or a value config.toml would refuse, leaves the file as it is."""
    import tomlkit

    if name not in Config.model_fields:
        raise ValueError(f"unknown setting {name!r}")
    Config.load(path)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    document = tomlkit.parse(text)
    if isinstance(value, Settings):
        _set_table(document, name, value)
    elif value is None:
        document.pop(name, None)
    elif document.get(name) != value:
        document[name] = value
    written = document.as_string()
    config = _validated(path, written, document.unwrap())
    if written != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(written, encoding="utf-8")
        os.replace(temporary, path)
    return config


def _set_table(document: TOMLDocument, name: str, settings: Settings) -> None:
    """Give each key of the [name] table its value in `settings` (only the keys that change are
    rewritten), and drop the flat keys older files keep for it."""
    import tomlkit

    for flat, dotted in FLAT_KEYS.items():
        if dotted.startswith(name + "."):
            document.pop(flat, None)
    table = document.get(name)
    if table is None:
        table = document[name] = tomlkit.table()
    for key, value in settings.model_dump().items():
        value = list(value) if isinstance(value, tuple) else value
        if table.get(key) != value:
            table[key] = value


def set_interview_date(paths: Paths, day: date | None) -> Config:
    """Set the interview date in config.toml (None removes it); return the new settings."""
    return write_setting(paths.config, "interview_date", day)
