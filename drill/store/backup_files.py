"""The backup files in a backups folder, by name only (no database is opened here).

A backup is named drill-NNNNNN-KIND-YYYYMMDD-HHMMSS.sqlite: NNNNNN counts up (the highest in the
folder plus one), so the order backups were made in survives the clock or time zone going back;
the time is local and only informs. Names from before kinds (drill-YYYYMMDD-HHMMSS[-N].sqlite)
read as daily backups older than every numbered one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path


class Kind(StrEnum):
    """Why a backup was made; each kind is pruned on its own."""

    DAILY = "daily"  # the TUI's first start of a day
    MANUAL = "manual"  # `drill backup`
    PRE_RESTORE = "pre-restore"  # the database as it was before `drill restore`
    PRE_MIGRATION = "pre-migration"  # the database as it was before a schema upgrade


_TIME = "%Y%m%d-%H%M%S"
_NAME = re.compile(rf"drill-(\d+)-({'|'.join(Kind)})-(\d{{8}}-\d{{6}})\.sqlite")
_LEGACY_NAME = re.compile(r"drill-(\d{8}-\d{6})(?:-(\d+))?\.sqlite")


@dataclass(frozen=True)
class Backup:
    """One backup file: its kind, its place in the order made (0: before numbering) and the
    local time in its name."""

    path: Path
    kind: Kind
    number: int
    taken_at: datetime

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def backup_name(number: int, kind: Kind, taken_at: datetime) -> str:
    """The file name of backup `number` of `kind`, made at local time `taken_at`."""
    return f"drill-{number:06d}-{kind}-{taken_at:{_TIME}}.sqlite"


def list_backups(backups_dir: Path) -> list[Backup]:
    """The backups in `backups_dir`, in the order they were made (names only: no file is opened)."""
    found = [parsed for path in backups_dir.glob("drill-*.sqlite") if (parsed := _parse(path))]
    return [backup for _order, backup in sorted(found, key=lambda pair: pair[0])]


def _parse(path: Path) -> tuple[tuple[int, datetime, int], Backup] | None:
    """(its sort key, the backup) for a backup's name; None for any other name."""
    new, legacy = _NAME.fullmatch(path.name), _LEGACY_NAME.fullmatch(path.name)
    try:
        if new:
            number, taken_at = int(new[1]), datetime.strptime(new[3], _TIME)  # noqa: DTZ007  local, as named
            return (number, taken_at, 0), Backup(path, Kind(new[2]), number, taken_at)
        if legacy:
            taken_at = datetime.strptime(legacy[1], _TIME)  # noqa: DTZ007  local time, as the name gives it
            return (0, taken_at, int(legacy[2] or 0)), Backup(path, Kind.DAILY, 0, taken_at)
    except ValueError:  # digits that are no date, as in drill-20261399-…
        pass
    return None
