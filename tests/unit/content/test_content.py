"""Deck loading: valid items, and path:line errors for every kind of breakage."""

import hashlib
import json
from pathlib import Path

import pytest
from helpers.content import CARD, PITCH, write_deck

from drill.content.decks import load_decks


def test_valid_decks_load_in_file_then_item_order(deck_dir: Path) -> None:
    write_deck(deck_dir, "b.toml", [("b-1", "memory")])
    write_deck(deck_dir, "a.toml", [("a-1", "compute"), ("a-2", "inference")])
    (deck_dir / "c.toml").write_text(PITCH)
    load = load_decks([deck_dir])
    assert load.errors == []
    assert [loaded.item.id for loaded in load.items] == ["a-1", "a-2", "b-1", "p-1"]
    pitch = load.items[-1].item
    assert pitch.target_seconds == 30 and pitch.points == ["shards optimizer state", "FSDP is ZeRO-3"]


def errors_for(deck_dir: Path, text: str) -> list[str]:
    (deck_dir / "bad.toml").write_text(text)
    return [str(error) for error in load_decks([deck_dir]).errors]


def test_bad_toml_names_file_and_line(deck_dir: Path) -> None:
    text = CARD.format(id="x-1", block="memory") + '\n[[item]]\nid = "x-2\n'
    [error] = errors_for(deck_dir, text)
    assert error.startswith(f"{deck_dir / 'bad.toml'}:12: bad TOML")


def test_unknown_block_points_at_its_line(deck_dir: Path) -> None:
    [error] = errors_for(deck_dir, CARD.format(id="x-1", block="kitchen"))
    assert error.startswith(f"{deck_dir / 'bad.toml'}:5: `block`")
    assert "memory" in error  # the message lists what is allowed


def test_empty_answer_and_missing_key(deck_dir: Path) -> None:
    text = CARD.format(id="x-1", block="memory").replace('answer = "Answer of x-1."', 'answer = "   "')
    text += '\n[[item]]\nid = "x-2"\nkind = "card"\nblock = "memory"\ntopic = "T"\nprompt = "P"\nsource = "s"\n'
    errors = errors_for(deck_dir, text)
    assert errors == [
        f"{deck_dir / 'bad.toml'}:8: `answer`: must not be empty",
        f"{deck_dir / 'bad.toml'}:11: missing required key `answer`",
    ]


def test_duplicate_id_across_files_names_both(deck_dir: Path) -> None:
    write_deck(deck_dir, "a.toml", [("dup", "memory")])
    write_deck(deck_dir, "b.toml", [("ok", "memory"), ("dup", "compute")])
    load = load_decks([deck_dir])
    [error] = load.errors
    assert str(error).startswith(f"{deck_dir / 'b.toml'}:12: duplicate id `dup` (first at {deck_dir / 'a.toml'}:3)")
    assert [loaded.item.id for loaded in load.items] == ["dup", "ok"]


@pytest.mark.parametrize(
    "change, message",
    [
        (('kind = "card"', 'kind = "pitch"'), "a pitch needs target_seconds"),
        (('source = "seed 000 §10"', 'source = "s"\ntarget_seconds = 30'), "target_seconds is only for pitches"),
        (('id = "x-1"', 'id = "Bad Id"'), "`id`"),
        (('source = "seed 000 §10"', 'source = "s"\ncolour = "red"'), "unknown key `colour`"),
    ],
)
def test_item_rules(deck_dir: Path, change: tuple[str, str], message: str) -> None:
    [error] = errors_for(deck_dir, CARD.format(id="x-1", block="memory").replace(*change))
    assert message in error


def test_broken_file_does_not_stop_the_others(deck_dir: Path) -> None:
    write_deck(deck_dir, "good.toml", [("g-1", "memory")])
    (deck_dir / "broken.toml").write_bytes(b"\xff\xfe not utf-8")
    load = load_decks([deck_dir])
    assert [loaded.item.id for loaded in load.items] == ["g-1"]
    assert [str(error) for error in load.errors] == [
        f"{deck_dir / 'broken.toml'}:1: not UTF-8 text (invalid start byte)"
    ]


def test_errata_is_optional_kept_apart_and_part_of_the_fingerprint(deck_dir: Path) -> None:
    (deck_dir / "c.toml").write_text(PITCH)
    plain = load_decks([deck_dir]).items[0].item
    # An item without errata keeps the fingerprint it had before the field existed (no resync of every card).
    legacy = plain.model_dump(exclude={"id", "errata", "siblings"})
    assert plain.content_hash() == hashlib.sha256(json.dumps(legacy, sort_keys=True).encode()).hexdigest()[:16]
    (deck_dir / "c.toml").write_text(
        PITCH + 'errata = "The notes say ZeRO-1 shards weights; it shards optimizer state."\n'
    )
    with_errata = load_decks([deck_dir]).items[0].item
    assert with_errata.errata.startswith("The notes say") and with_errata.answer == plain.answer
    assert with_errata.content_hash() != plain.content_hash()
    assert "errata" in errors_for(deck_dir, PITCH + 'errata = "  "\n')[0]
