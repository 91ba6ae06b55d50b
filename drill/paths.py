"""Where drill keeps its state and finds its content.

State lives under DRILL_HOME when it is set, else the platformdirs user data dir. Content
(decks/, problems/, kernels/) comes from the installed wheel (drill/_content) or, in a source
checkout, from the repository root; the user's own decks, problems and kernels under the state
folder load after it.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from drill.errors import UserFacingError

PACKAGE_DIR = Path(__file__).resolve().parent


class StateDirError(UserFacingError):
    """DRILL_HOME (or the default data dir) cannot be created or written."""


def content_root() -> Path:
    """The folder holding decks/, problems/ and kernels/ (wheel first, then checkout)."""
    packaged = PACKAGE_DIR / "_content"
    return packaged if (packaged / "decks").is_dir() else PACKAGE_DIR.parent


def content_is_installed() -> bool:
    """Whether the shipped content is the installed package's (read-only: an edit of a shipped
    card goes to the override deck) rather than a source checkout's, edited in place."""
    return content_root() == PACKAGE_DIR / "_content"


@dataclass(frozen=True)
class Paths:
    """Every path drill reads or writes."""

    home: Path

    @classmethod
    def resolve(cls) -> Paths:
        env = os.environ.get("DRILL_HOME")
        if env:
            return cls(Path(env).expanduser())
        import platformdirs

        return cls(Path(platformdirs.user_data_dir("drill", appauthor=False)))

    @property
    def database(self) -> Path:
        return self.home / "drill.db"

    @property
    def config(self) -> Path:
        return self.home / "config.toml"

    @property
    def user_decks(self) -> Path:
        return self.home / "decks"

    @property
    def overrides(self) -> Path:
        """The override deck: your edits of shipped cards (drill/content/overrides.py)."""
        return self.user_decks / "overrides.toml"

    @property
    def user_problems(self) -> Path:
        return self.home / "problems"

    @property
    def user_kernels(self) -> Path:
        return self.home / "kernels"

    @property
    def workspaces(self) -> Path:
        return self.home / "workspaces"

    @property
    def decks(self) -> Path:
        return content_root() / "decks"

    @property
    def problems(self) -> Path:
        return content_root() / "problems"

    @property
    def kernels(self) -> Path:
        return content_root() / "kernels"

    def deck_dirs(self) -> list[Path]:
        """Shipped decks first, then the user's own."""
        return [self.decks, self.user_decks]

    def problem_dirs(self) -> list[Path]:
        """Shipped estimation problems first, then the user's own."""
        return [self.problems, self.user_problems]

    def kernel_dirs(self) -> list[Path]:
        """Shipped coding drills first, then the user's own."""
        return [self.kernels, self.user_kernels]

    @property
    def pending_writes(self) -> Path:
        """Journals of writes not yet made (drill.store.journal), one per running drill."""
        return self.home / "pending-writes"

    @property
    def backups(self) -> Path:
        return self.home / "backups"

    def ensure(self) -> None:
        """Create the state folders, or raise StateDirError with a readable reason."""
        try:
            for folder in (self.home, self.user_decks, self.workspaces, self.backups):
                folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.home):
                pass
        except OSError as error:
            reason = error.strerror or str(error)
            raise StateDirError(f"cannot write drill's state folder {self.home}: {reason}") from None

    def as_dict(self) -> dict[str, str]:
        return {
            "home": str(self.home),
            "database": str(self.database),
            "config": str(self.config),
            "user_decks": str(self.user_decks),
            "user_problems": str(self.user_problems),
            "user_kernels": str(self.user_kernels),
            "workspaces": str(self.workspaces),
            "backups": str(self.backups),
            "decks": str(self.decks),
            "problems": str(self.problems),
            "kernels": str(self.kernels),
        }
