"""`drill check`: every content file validated, errors as path:line."""

from __future__ import annotations

from drill.content.decks import load_decks
from drill.content.errors import ContentError
from drill.paths import Paths


def check_all(paths: Paths) -> list[ContentError]:
    """All errors in decks (shipped and the user's) and estimation problems."""
    from drill import estimate

    return load_decks(paths.deck_dirs()).errors + estimate.check(paths.problems)
