"""`drill check`: every content file validated, errors as path:line."""

from __future__ import annotations

from drill.content.decks import load_decks
from drill.content.errors import ContentError
from drill.paths import Paths


def check_all(paths: Paths) -> list[ContentError]:
    """All errors in decks (shipped and the user's), estimation problems and coding drills."""
    from drill import estimate
    from drill.coding.drills import check as check_kernels

    return load_decks(paths.deck_dirs()).errors + estimate.check(paths.problems) + check_kernels(paths.kernels)
