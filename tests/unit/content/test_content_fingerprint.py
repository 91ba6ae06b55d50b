"""An unchanged library is not parsed and synced again on open; any change, or earlier errors, make it sync."""

import pytest
from helpers.content import write_deck

import drill.library
import drill.study.core
from drill.study import Study


@pytest.fixture
def loads(monkeypatch):
    """Counts how often the content files are parsed."""
    calls = []
    real = drill.library.load_library

    def counting(paths):
        calls.append(paths)
        return real(paths)

    monkeypatch.setattr(drill.study.core, "load_library", counting)  # where the study looks it up
    return calls


def reopen(paths, clock) -> Study:
    study = Study.open(paths, clock)
    study.close()
    return study


def test_an_unchanged_library_is_not_parsed_again(small_paths, clock, loads) -> None:
    first = reopen(small_paths, clock)
    assert len(loads) == 1 and first.last_sync.added == 6
    second = reopen(small_paths, clock)
    assert len(loads) == 1 and second.content_errors == []


def test_an_edited_deck_is_synced_even_at_the_same_size(small_paths, deck_dir, clock, loads) -> None:
    reopen(small_paths, clock)
    deck = deck_dir / "a.toml"
    deck.write_text(deck.read_text().replace("m-2", "m-3"))  # same size, likely the same mtime tick
    study = reopen(small_paths, clock)
    assert len(loads) == 2 and (study.last_sync.added, study.last_sync.retired) == (1, 1)


def test_a_new_user_deck_is_synced(small_paths, clock, loads) -> None:
    reopen(small_paths, clock)
    write_deck(small_paths.user_decks, "mine.toml", [("u-1", "training")])
    assert reopen(small_paths, clock).last_sync.added == 1 and len(loads) == 2


def test_content_with_errors_is_synced_on_every_open_until_fixed(small_paths, deck_dir, clock, loads) -> None:
    (deck_dir / "broken.toml").write_text("[[item]]\nid = \n")
    assert reopen(small_paths, clock).content_errors
    again = reopen(small_paths, clock)
    assert len(loads) == 2 and again.content_errors  # still reported, not skipped
    (deck_dir / "broken.toml").unlink()
    assert reopen(small_paths, clock).content_errors == []
    reopen(small_paths, clock)
    assert len(loads) == 3
