"""Everything a user can practise, gathered for the store: deck items and estimation families."""

from __future__ import annotations

from drill.content.decks import DeckLoad, load_decks
from drill.content.models import LoadedItem
from drill.paths import Paths


def load_library(paths: Paths) -> DeckLoad:
    """Deck items then one item per estimation family; errors from both, as path:line."""
    from drill import estimate
    from drill.estimate.items import family_item

    load = load_decks(paths.deck_dirs())
    families, errors = estimate.load(paths.problems)
    for family in families:
        load.items.append(LoadedItem(item=family_item(family), deck=str(family._path), position=len(load.items)))
    load.errors.extend(errors)
    return load
