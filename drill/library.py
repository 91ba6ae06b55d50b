"""Everything a user can practise, gathered for the store: deck items, estimation families, drills."""

from __future__ import annotations

from pydantic import computed_field

from drill.coding.drills import check as check_drills
from drill.coding.drills import drill_item, load_drills
from drill.content.decks import DeckLoad, Override, load_decks
from drill.content.errors import ContentError
from drill.content.models import LoadedItem
from drill.estimate.items import family_item
from drill.estimate.schema import load_dir
from drill.estimate.validate import check as check_problems
from drill.paths import Paths
from drill.read_model import ReadModel


def load_library(paths: Paths) -> DeckLoad:
    """Deck items, then one item per estimation family and per coding drill; errors as path:line."""
    load = load_decks(paths.deck_dirs())
    families, _, errors = load_dir(paths.problem_dirs())
    for family in families:
        load.items.append(LoadedItem(item=family_item(family), deck=str(family._path), position=len(load.items)))
    load.errors.extend(errors)
    for drill in load_drills(paths.kernel_dirs()):
        load.items.append(LoadedItem(item=drill_item(drill), deck=str(drill.folder), position=len(load.items)))
    return load


class ContentCheck(ReadModel):
    """What `drill check` reports: every content error, and the shipped cards your overrides replace;
    its JSON is `drill check --json`."""

    KEYS = ("ok",)

    errors: list[ContentError]
    overrides: list[Override]

    @computed_field
    @property
    def ok(self) -> bool:
        return not self.errors


def check_all(paths: Paths) -> ContentCheck:
    """`drill check`: every error in decks (shipped and the user's), estimation problems and
    coding drills, as path:line; and the overrides."""
    decks = load_decks(paths.deck_dirs())
    errors = decks.errors + check_problems(paths.problem_dirs()) + check_drills(paths.kernel_dirs())
    return ContentCheck(errors=errors, overrides=decks.overrides)
