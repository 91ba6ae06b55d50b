"""Everything a user can practise, gathered for the store: deck items, estimation families, drills."""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.decks import DeckLoad, Override, load_decks
from drill.content.errors import ContentError
from drill.content.models import LoadedItem
from drill.paths import Paths


def load_library(paths: Paths) -> DeckLoad:
    """Deck items, then one item per estimation family and per coding drill; errors as path:line."""
    from drill import estimate
    from drill.coding.drills import load_drills
    from drill.coding.items import drill_item
    from drill.estimate.items import family_item

    load = load_decks(paths.deck_dirs())
    families, errors = estimate.load(paths.problem_dirs())
    for family in families:
        load.items.append(LoadedItem(item=family_item(family), deck=str(family._path), position=len(load.items)))
    load.errors.extend(errors)
    for drill in load_drills(paths.kernel_dirs()):
        load.items.append(LoadedItem(item=drill_item(drill), deck=str(drill.folder), position=len(load.items)))
    return load


@dataclass(frozen=True)
class ContentCheck:
    """What `drill check` reports: every content error, and the shipped cards your overrides replace."""

    errors: list[ContentError]
    overrides: list[Override]


def check_all(paths: Paths) -> ContentCheck:
    """`drill check`: every error in decks (shipped and the user's), estimation problems and
    coding drills, as path:line; and the overrides."""
    from drill import estimate
    from drill.coding.drills import check as check_kernels

    decks = load_decks(paths.deck_dirs())
    errors = decks.errors + estimate.check(paths.problem_dirs()) + check_kernels(paths.kernel_dirs())
    return ContentCheck(errors, decks.overrides)
