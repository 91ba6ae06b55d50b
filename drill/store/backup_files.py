"""The backup files in a backups folder, by name only (no database is opened here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

_NAME = re.compile(r"drill-(\d{8}-\d{6})(?:-(\d+))?\.sqlite")


@dataclass(frozen=True)
class Backup:
    """One backup file; `taken_at` is the local time in its name."""

    path: Path
    taken_at: datetime
    sequence: int  # 0, or 2, 3… for further backups within the same second

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def list_backups(backups_dir: Path) -> list[Backup]:
    """The backups in `backups_dir`, oldest first (names only: no file is opened)."""
    found = []
    for path in backups_dir.glob("drill-*.sqlite"):
        match = _NAME.fullmatch(path.name)
        if match:
            taken_at = datetime.strptime(match[1], "%Y%m%d-%H%M%S")
            found.append(Backup(path, taken_at, int(match[2] or 0)))
    return sorted(found, key=lambda backup: (backup.taken_at, backup.sequence))
