"""Settings from config.toml under DRILL_HOME, typed and defaulted."""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from drill.content.vocabulary import BLOCKS
from drill.errors import UserFacingError
from drill.schedule import memory
from drill.schedule.leech import ACTIONS
from drill.schedule.queue import DEFAULT_NEW_MIX, KINDS

if TYPE_CHECKING:
    from drill.paths import Paths


MOST_PER_DAY = 9999  # the most new items or reviews a day (Anki's limit too)
# Every integer setting with the range it must lie in (ends included).
WHOLE_NUMBERS: dict[str, tuple[int, int]] = {
    "new_per_day": (0, MOST_PER_DAY),
    "max_reviews_per_day": (0, MOST_PER_DAY),
    "rollover_hour": (0, 23),
    "plan_window_days": (1, 365),
    "backups_keep": (1, 1000),
    "backups_keep_manual": (1, 1000),
    "mock_interview_minutes": (0, 600),
    "mock_interview_grill": (0, 600),
    "mock_interview_estimates": (0, 600),
    "mock_round_problems": (1, 600),
    "mock_round_minutes": (1, 600),
    "leech_threshold": (1, 1000),
}


class ConfigError(UserFacingError):
    """config.toml exists but cannot be used."""


@dataclass(frozen=True)
class Config:
    """User settings; every field has a default so a missing file is fine."""

    new_per_day: int = 15  # all kinds together; when only new_mix is set, its sum
    new_mix: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_NEW_MIX))  # new items a day per kind
    max_reviews_per_day: int = 200
    rollover_hour: int = 4
    interview_date: date | None = None
    plan_window_days: int = 7  # the interview plan brings items forward into this many final days
    scheduler: str = "sm2"  # the memory model that sets due days: a name in drill.schedule.memory.names()
    fuzz: bool = True  # spread passed items' due days over the least loaded nearby days (drill.schedule.load_balance)
    desired_retention: float = 0.9  # the recall FSRS schedules for: higher means shorter intervals
    backups_keep: int = 7  # daily backups kept in DRILL_HOME/backups
    backups_keep_manual: int = 10  # `drill backup` copies kept there
    mock_interview_minutes: int = 45  # the mock interview's setup, as last chosen (drill.interview.settings)
    mock_interview_grill: int = 3
    mock_interview_pitch: int = 120  # the pitch rung in seconds (30, 120, 300); 0: no pitch
    mock_interview_estimates: int = 3
    mock_interview_coding: bool = False
    mock_round_problems: int = 10  # the mock estimation round's setup, as last chosen (drill.estimate.rounds)
    mock_round_minutes: int = 15
    mock_round_blocks: list[str] = field(default_factory=lambda: list(BLOCKS))
    mock_round_grade_at_end: bool = True
    leech_threshold: int = 8  # lapses that make a card a leech (as Anki); flagged again every half threshold
    leech_action: str = "suspend"  # what a new leech gets: "suspend" (as Anki) or "tag" (only flagged)

    @classmethod
    def load(cls, path: Path) -> "Config":
        if not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise ConfigError(f"{path}: {error}") from None
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"{path}: unknown setting(s): {', '.join(unknown)}")
        if "new_mix" in data and "new_per_day" not in data and isinstance(data["new_mix"], dict):
            data["new_per_day"] = sum(value for value in data["new_mix"].values() if isinstance(value, int))
        config = cls(**data)
        config._validate(path)
        return config

    def _validate(self, path: Path) -> None:
        mix = self.new_mix
        if not isinstance(mix, dict) or any(
            kind not in KINDS or not _whole(number, 0, MOST_PER_DAY) for kind, number in mix.items()
        ) or sum(mix.values()) > MOST_PER_DAY:
            raise ConfigError(
                f"{path}: new_mix must map kinds ({', '.join(KINDS)}) to non-negative integers adding up to "
                f"at most {MOST_PER_DAY}, e.g. new_mix = {{ card = 10, pitch = 2, estimate = 2, coding = 1 }}; "
                f"not {mix!r}"
            )
        for name, (low, high) in WHOLE_NUMBERS.items():
            value = getattr(self, name)
            if not _whole(value, low, high):
                kind = {0: "a non-negative integer", 1: "a positive integer"}.get(low, "an integer")
                raise ConfigError(f"{path}: {name} must be {kind} from {low} to {high}, not {value!r}")
        if self.interview_date is not None and (
            not isinstance(self.interview_date, date) or isinstance(self.interview_date, datetime)
        ):
            raise ConfigError(f"{path}: interview_date must be a date like 2026-12-01, not {self.interview_date!r}")
        if not isinstance(self.scheduler, str) or self.scheduler not in memory.names():
            raise ConfigError(f"{path}: scheduler must be {memory.listed()}, not {self.scheduler!r}")
        retention = self.desired_retention
        if not isinstance(retention, (int, float)) or isinstance(retention, bool) or not 0.7 <= retention <= 0.97:
            raise ConfigError(f"{path}: desired_retention must be a number from 0.7 to 0.97, not {retention!r}")
        if not _whole(self.mock_interview_pitch, 0, 300) or self.mock_interview_pitch not in (0, 30, 120, 300):
            raise ConfigError(f"{path}: mock_interview_pitch must be 0, 30, 120 or 300, not {self.mock_interview_pitch!r}")
        if self.leech_action not in ACTIONS:
            raise ConfigError(f"{path}: leech_action must be \"suspend\" or \"tag\", not {self.leech_action!r}")
        for name in ("fuzz", "mock_interview_coding", "mock_round_grade_at_end"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{path}: {name} must be true or false, not {getattr(self, name)!r}")
        if (not isinstance(self.mock_round_blocks, list) or not self.mock_round_blocks
                or any(block not in BLOCKS for block in self.mock_round_blocks)):
            raise ConfigError(f"{path}: mock_round_blocks must list blocks ({', '.join(BLOCKS)}), "
                              f"not {self.mock_round_blocks!r}")


def _whole(value: object, low: int, high: int) -> bool:
    """Whether `value` is an int (TOML's true and false are not) from `low` to `high`."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, date)):
        return value.isoformat() if isinstance(value, date) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} to config.toml")


def write_setting(path: Path, name: str, value: object) -> Config:
    """Set (or, with None, remove) one top-level setting in config.toml, keeping every other
    line, comment included; return the settings as they now read. A broken file is refused."""
    if name not in {f.name for f in fields(Config)}:
        raise ValueError(f"unknown setting {name!r}")
    Config.load(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    assignment = re.compile(rf"^\s*{re.escape(name)}\s*=")
    new_line = None if value is None else f"{name} = {_toml_value(value)}\n"
    out: list[str] = []
    for line in lines:
        if assignment.match(line):
            if new_line is not None:
                out.append(new_line)
                new_line = None
        else:
            out.append(line)
    if new_line is not None:
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out.append(new_line)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(out), encoding="utf-8")
    os.replace(temporary, path)
    return Config.load(path)


def set_interview_date(paths: "Paths", day: date | None) -> Config:
    """Set the interview date in config.toml (None removes it); return the new settings."""
    return write_setting(paths.config, "interview_date", day)
