"""Settings from config.toml under DRILL_HOME, typed and defaulted."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from datetime import date
from pathlib import Path


class ConfigError(Exception):
    """config.toml exists but cannot be used."""


@dataclass(frozen=True)
class Config:
    """User settings; every field has a default so a missing file is fine."""

    new_per_day: int = 15
    max_reviews_per_day: int = 200
    rollover_hour: int = 4
    interview_date: date | None = None

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
        config = cls(**data)
        config._validate(path)
        return config

    def _validate(self, path: Path) -> None:
        for name in ("new_per_day", "max_reviews_per_day", "rollover_hour"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ConfigError(f"{path}: {name} must be a non-negative integer, not {value!r}")
        if self.rollover_hour > 23:
            raise ConfigError(f"{path}: rollover_hour must be 0–23, not {self.rollover_hour}")
        if self.interview_date is not None and not isinstance(self.interview_date, date):
            raise ConfigError(f"{path}: interview_date must be a date like 2026-12-01")
