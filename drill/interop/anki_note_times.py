"""When each exported note last changed, so that an unchanged re-export changes nothing in Anki.

Anki's package import replaces a note it already has only when the package's copy is newer (its
modification time, in whole seconds). So drill stamps each note with the time it first exported
the note as it is now: DRILL_HOME/anki-notes.json keeps, per note GUID, a hash of what the note
carries (note type, fields, tags) and that time, and is rewritten after each export. A note whose
hash changed is stamped with the export's time (later than its last stamp): importing the package
replaces Anki's copy, edits made in Anki included. An unchanged note keeps its stamp, and Anki
keeps its copy as it is, edits included. The note type is stamped the same way. A record drill
cannot read is started afresh (every note counts as changed) and the export's report says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from drill.interop.atomic import writing

RECORD_NAME = "anki-notes.json"
Stamps = dict[str, tuple[str, int]]  # GUID (or "notetype:<id>") → (hash of the content, modification time)
_STAMPS = TypeAdapter(Stamps)


def content_hash(*parts: str) -> str:
    """A hash of the parts, in order."""
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


@dataclass
class NoteTimes:
    """The stamps of past exports, and the ones this export gives (counted as new, changed or unchanged)."""

    path: Path
    now: int  # this export's time, Unix seconds
    stamps: Stamps = field(default_factory=dict)
    unreadable: bool = False  # the record existed but could not be read: every note counts as changed
    new: int = 0
    changed: int = 0
    unchanged: int = 0

    @classmethod
    def load(cls, home: Path, now: int) -> NoteTimes:
        """The record in `home` (none yet: empty)."""
        path = home / RECORD_NAME
        try:
            return cls(path, now, _STAMPS.validate_json(path.read_bytes()))
        except FileNotFoundError:
            return cls(path, now)
        except (OSError, ValidationError):
            return cls(path, now, unreadable=True)

    def stamp(self, key: str, digest: str, counted: bool = True) -> int:
        """The modification time of the note (or note type) `key` whose content hashes to `digest`:
        its last stamp while the content is unchanged, else now (a second after its last stamp, at
        the earliest); `counted`: tallied as new, changed or unchanged."""
        past = self.stamps.get(key)
        if past is not None and past[0] == digest:
            self.unchanged += counted
            return past[1]
        self.new += counted and past is None
        self.changed += counted and past is not None
        time = self.now if past is None else max(self.now, past[1] + 1)
        self.stamps[key] = (digest, time)
        return time

    def save(self) -> None:
        """Write the record (its folder made if needed), whole or not at all."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with writing(self.path) as out:
            out.write(json.dumps(self.stamps, indent=0, sort_keys=True).encode())
