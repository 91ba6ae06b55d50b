"""`drill import`: sources become a user deck without a byte of them changed, ids stay put across
edits (reviews follow), formats are told apart (Anki's own files included), bad files change nothing."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import sqlite3
import sys
import types
from pathlib import Path
from unittest.mock import ANY

import pytest
from helpers import hashcards
from helpers.anki_files import anki_profile

from drill.cli import main
from drill.content.decks import load_decks
from drill.interop.deck_import import import_deck
from drill.interop.errors import InteropError
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade

FIRST_ANSWER = "Keys and values of past tokens."
SECOND_ANSWER = "2 * layers * heads * head_dim * bytes"
NOTES = (
    f"# KV cache\n\nQ: What does the KV cache store?\nA: {FIRST_ANSWER}\n\nQ: Its size per token?\nA: {SECOND_ANSWER}\n"
)
HASHCARDS = Path(__file__).parent / "data" / "hashcards"


def rows(paths: Paths, sql: str) -> list[tuple]:
    with sqlite3.connect(paths.database) as connection:
        return connection.execute(sql).fetchall()


def ids_in(text: str) -> list[str]:
    return re.findall(r"<!-- drill-id: (\S+) -->", text)


def deck_ids(paths: Paths) -> list[str]:
    return [loaded.item.id for loaded in load_decks([paths.user_decks]).items]


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def counts(report) -> tuple[int, int, int, int, int]:
    return report.added, report.updated, report.unchanged, report.removed, report.ids_written


def grade(paths: Paths, clock, item_id: str, button: int) -> None:
    opened = Study.open(paths, clock)
    write_grade(opened, opened.reviews.grade(opened.reviews.cards([item_id])[0], button, 1200))
    opened.close()


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "kv-cache.md"
    path.parent.mkdir()
    path.write_text(NOTES)
    return path


def test_importing_never_changes_a_byte_of_the_file(small_paths, notes: Path) -> None:
    before = fingerprint(notes)
    report = import_deck(small_paths, notes, "inference", None)
    assert counts(report) == (2, 0, 0, 0, 0)
    assert fingerprint(notes) == before
    assert [path.name for path in notes.parent.iterdir()] == ["kv-cache.md"]  # no temporary file left either
    first = deck_ids(small_paths)
    assert all(re.fullmatch(r"md-[0-9a-f]{10}", item_id) for item_id in first)
    assert counts(import_deck(small_paths, notes, "inference", None)) == (0, 0, 2, 0, 0)
    assert deck_ids(small_paths) == first and fingerprint(notes) == before


def test_reimporting_an_edited_copy_updates_the_cards_in_place_and_keeps_their_reviews(
    small_paths, notes: Path, clock
) -> None:
    import_deck(small_paths, notes, "inference", None)
    first_id, second_id = deck_ids(small_paths)
    grade(small_paths, clock, first_id, 3)
    grade(small_paths, clock, second_id, 4)
    edited = notes.with_name("edited") / "kv-cache.md"
    edited.parent.mkdir()
    edited.write_text(
        NOTES.replace(FIRST_ANSWER, "K and V of every past token.").replace("Its size per token?", "Bytes per token?")
    )
    before = fingerprint(edited)
    report = import_deck(small_paths, edited, "inference", None)
    assert counts(report) == (0, 2, 0, 0, 0)
    assert deck_ids(small_paths) == [first_id, second_id]
    assert fingerprint(edited) == before
    Study.open(small_paths, clock).close()
    assert rows(small_paths, f"SELECT answer FROM item WHERE id='{first_id}'") == [("K and V of every past token.",)]
    assert rows(small_paths, f"SELECT prompt FROM item WHERE id='{second_id}'") == [("Bytes per token?",)]
    assert rows(small_paths, f"SELECT answer FROM item_revision WHERE item_id='{first_id}'") == [(FIRST_ANSWER,)]
    assert sorted(rows(small_paths, "SELECT item_id, button FROM review")) == sorted([(first_id, 3), (second_id, 4)])


def test_a_card_removed_from_the_file_is_retired_and_keeps_its_reviews(small_paths, notes: Path, clock) -> None:
    import_deck(small_paths, notes, "inference", None)
    first_id, second_id = deck_ids(small_paths)
    grade(small_paths, clock, second_id, 4)
    notes.write_text(NOTES[: NOTES.index("Q: Its size")])
    report = import_deck(small_paths, notes, "inference", None)
    assert (report.added, report.unchanged, report.removed) == (0, 1, 1)
    Study.open(small_paths, clock).close()
    assert rows(small_paths, f"SELECT retired FROM item WHERE id = '{first_id}'") == [(0,)]
    assert rows(small_paths, f"SELECT retired FROM item WHERE id = '{second_id}'") == [(1,)]
    assert rows(small_paths, "SELECT item_id FROM review") == [(second_id,)]


def test_the_written_deck_is_what_the_content_loader_reads(small_paths, notes: Path) -> None:
    report = import_deck(small_paths, notes, "memory", "KV")
    load = load_decks([small_paths.user_decks])
    assert load.errors == []
    assert [(loaded.item.block, loaded.item.topic, loaded.item.answer) for loaded in load.items] == [
        ("memory", "KV", FIRST_ANSWER),
        ("memory", "KV", SECOND_ANSWER),
    ]
    assert report.deck == small_paths.user_decks / "imported-kv-cache.toml"
    assert sorted(path.name for path in small_paths.user_decks.iterdir()) == ["imported-kv-cache.toml"]


@pytest.mark.parametrize("deck", sorted(HASHCARDS.glob("*.md")), ids=lambda path: path.name)
def test_hashcards_example_decks_import_whole_and_hashcards_still_reads_them(
    small_paths, tmp_path: Path, deck: Path
) -> None:
    source = tmp_path / deck.name
    shutil.copy(deck, source)
    before = fingerprint(source)
    expected = hashcards.parse(source.read_text())
    report = import_deck(small_paths, source, "memory", None)
    assert (report.added, report.warnings) == (len(expected), [])
    assert fingerprint(source) == before
    assert hashcards.parse(source.read_text()) == expected
    items = [loaded.item for loaded in load_decks([small_paths.user_decks]).items]
    assert [(item.prompt, item.answer) for item in items] == [hashcards.blanked(card) for card in expected]
    assert {item.topic for item in items} == {deck.stem}


def test_an_edited_cloze_text_keeps_the_ids_of_its_deletions(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "Geography.md"
    shutil.copy(HASHCARDS / "Geography.md", source)
    import_deck(small_paths, source, "memory", None)
    capital, berlin, germany = deck_ids(small_paths)
    source.write_text(source.read_text().replace("[Germany].", "[Germany], since [1990]."))
    report = import_deck(small_paths, source, "memory", None)
    assert (report.added, report.removed) == (1, 0)
    assert deck_ids(small_paths)[:3] == [capital, berlin, germany]
    siblings = {loaded.item.siblings for loaded in load_decks([small_paths.user_decks]).items[1:]}
    assert len(siblings) == 1 and None not in siblings


def test_write_ids_writes_the_ids_drill_already_gave_keeping_line_ends_and_mode(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "windows.md"
    source.write_bytes(b"Q: one\r\nA: 1\r\n\r\nC: [two]\r\n")
    source.chmod(0o640)
    import_deck(small_paths, source, "memory", None)
    given = deck_ids(small_paths)
    report = import_deck(small_paths, source, "memory", None, write_ids=True)
    assert counts(report) == (0, 0, 2, 0, 1)
    assert source.read_bytes() == f"<!-- drill-id: {given[0]} -->\r\nQ: one\r\nA: 1\r\n\r\nC: [two]\r\n".encode()
    assert source.stat().st_mode & 0o777 == 0o640
    written = fingerprint(source)
    assert counts(import_deck(small_paths, source, "memory", None, write_ids=True)) == (0, 0, 2, 0, 0)
    assert fingerprint(source) == written and deck_ids(small_paths) == given


def test_an_anki_export_without_guids_keeps_its_ids_without_a_guid_column(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "anki.txt"
    source.write_text(
        "#separator:tab\n#html:true\n#tags column:3\n"
        "What is <b>HBM</b>?\tHigh-bandwidth memory\tmemory hardware\nRoofline?\tFLOPs vs bytes\tcompute\n"
    )
    before = fingerprint(source)
    assert counts(import_deck(small_paths, source, None, None)) == (2, 0, 0, 0, 0)
    assert fingerprint(source) == before
    ids = deck_ids(small_paths)
    assert all(re.fullmatch(r"anki-[0-9a-f]{10}", item_id) for item_id in ids)
    source.write_text(source.read_text().replace("FLOPs vs bytes", "FLOPs per byte against the ridge point"))
    assert counts(import_deck(small_paths, source, None, None)) == (0, 1, 1, 0, 0)
    items = load_decks([small_paths.user_decks]).items
    assert [item.item.id for item in items] == ids
    assert [(item.item.block, item.item.topic) for item in items] == [("memory", "hardware"), ("compute", "anki")]
    assert counts(import_deck(small_paths, source, None, None, write_ids=True)) == (0, 0, 2, 0, 2)
    assert "#guid column:4" in source.read_text()
    assert counts(import_deck(small_paths, source, None, None)) == (0, 0, 2, 0, 0)
    assert deck_ids(small_paths) == ids


def test_a_cards_in_plain_text_export_from_anki_imports_without_the_repeated_question(
    small_paths, tmp_path: Path
) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import CardIdsLimit, Collection

    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        basic = collection.models.by_name("Basic")
        basic["tmpls"][0]["afmt"] = '{{FrontSide}}\n\n<hr id="answer">\n\n{{Back}}'  # a common custom template
        collection.models.update_dict(basic)
        for front, back in [("What is <b>HBM</b>?", "High-bandwidth memory"), ("Roofline?", "FLOPs vs bytes")]:
            note = collection.new_note(basic)
            note["Front"], note["Back"] = front, back
            collection.add_note(note, collection.decks.id("Default"))
        cloze = collection.new_note(collection.models.by_name("Cloze"))  # its back does not repeat the front
        cloze["Text"] = "The {{c1::KV}} cache"
        collection.add_note(cloze, collection.decks.id("Default"))
        for html in (True, False):
            collection.export_card_csv(
                out_path=str(tmp_path / f"cards-{str(html).lower()}.txt"),
                limit=CardIdsLimit(card_ids=collection.find_cards("")),
                with_html=html,
            )
    finally:
        collection.close()
    for html in ("true", "false"):
        source = tmp_path / f"cards-{html}.txt"
        report = import_deck(small_paths, source, "memory", None)
        assert report.added == 3
        items = load_decks([small_paths.user_decks]).items
        assert sorted(
            (item.item.prompt, item.item.answer) for item in items if item.deck.endswith(f"imported-cards-{html}.toml")
        ) == [
            ("Roofline?", "FLOPs vs bytes"),
            ("The [...] cache", "The KV cache"),
            ("What is **HBM**?" if html == "true" else "What is HBM?", "High-bandwidth memory"),
        ]


def test_a_bad_row_is_reported_by_line_and_nothing_is_written_anywhere(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "bad.md"
    source.write_text("Q: fine\nA: fine\n\nQ: no answer here\n\nQ: also fine\nA: yes\n\nA: stray\n")
    before = source.read_bytes()
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, source, "memory", None)
    assert raised.value.problems == [f"{source}:4: Q: without an A:", f"{source}:9: A: without a Q:"]
    assert source.read_bytes() == before
    assert not small_paths.home.exists()  # no deck file, no database, not even the state folder


def test_a_file_of_unknown_format_or_without_cards_is_refused(small_paths, tmp_path: Path) -> None:
    prose = tmp_path / "prose.txt"
    prose.write_text("no cards here\n")
    with pytest.raises(InteropError, match=re.escape("prose.txt:1: not a deck drill can import; supported: a")):
        import_deck(small_paths, prose, "memory", None)
    empty = tmp_path / "empty.md"
    empty.write_text("# Just a heading\n")
    with pytest.raises(InteropError, match=re.escape("empty.md:1: no cards found")):
        import_deck(small_paths, empty, "memory", None)
    latin = tmp_path / "latin.csv"
    latin.write_bytes("caf\xe9,coffee\n".encode("latin-1"))
    with pytest.raises(InteropError, match=re.escape("latin.csv:1: not UTF-8 text")):
        import_deck(small_paths, latin, "memory", None)
    assert not small_paths.home.exists()


def test_a_file_whose_every_card_is_skipped_says_why(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "clozes.txt"
    source.write_text("#separator:tab\n#notetype:Cloze\nThe {{c1::KV}} cache\t\n")
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, source, "memory", None)
    assert raised.value.problems == [
        f"{source}:1: no cards found",
        f"{source}:3: a cloze note: skipped (only front/back notes import)",
    ]


@pytest.mark.parametrize("name", ["flashcards.md", "flashcards.txt"])
def test_an_obsidian_spaced_repetition_deck_is_named(small_paths, tmp_path: Path, name: str) -> None:
    source = tmp_path / name
    source.write_text("#flashcards\n\nWhat is HBM::High-bandwidth memory\n\nRoofline\n?\nFLOPs against bytes\n")
    with pytest.raises(InteropError, match=re.escape(f"{name}:3: Obsidian spaced-repetition format is not supported")):
        import_deck(small_paths, source, "memory", None)


def test_without_block_every_card_lacking_one_is_named(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "mixed.csv"
    source.write_text("#separator:comma\n#tags column:3\na,b,memory\nc,d,\ne,f,misc\n")
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, source, None, None)
    assert [problem.split(": ")[0] for problem in raised.value.problems] == [f"{source}:4", f"{source}:5"]
    assert all("--block" in problem for problem in raised.value.problems)
    markdown = tmp_path / "plain.md"
    markdown.write_text(NOTES)
    with pytest.raises(InteropError, match="no card names a block: pass --block"):
        import_deck(small_paths, markdown, None, None)


def test_an_id_already_used_by_another_deck_is_refused(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "clash.md"
    source.write_text("<!-- drill-id: m-1 -->\nQ: clash\nA: with a shipped card\n")
    with pytest.raises(InteropError, match=r"clash.md:2: id `m-1` already belongs to a card in .*a.toml"):
        import_deck(small_paths, source, "memory", None)


def test_another_file_of_the_same_name_does_not_replace_an_imported_deck(small_paths, notes, tmp_path) -> None:
    import_deck(small_paths, notes, "memory", None)
    other = tmp_path / "elsewhere" / "kv-cache.md"
    other.parent.mkdir()
    other.write_text("Q: different\nA: deck\n")
    with pytest.raises(InteropError, match="rename this file"):
        import_deck(small_paths, other, "memory", None)
    moved = tmp_path / "moved" / "kv-cache.md"
    moved.parent.mkdir()
    notes.rename(moved)
    assert import_deck(small_paths, moved, "memory", None).unchanged == 2


def test_cli_imports_and_syncs_then_reports(capsys, notes: Path) -> None:
    before = fingerprint(notes)
    assert main(["import", str(notes), "--block", "inference", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["format"], report["added"], report["ids_written"], report["warnings"]) == ("markdown", 2, 0, [])
    assert rows(Paths.resolve(), "SELECT COUNT(*) FROM item WHERE id LIKE 'md-%' AND retired = 0") == [(2,)]
    assert main(["import", str(notes), "--block", "inference"]) == 0
    assert "0 added, 0 updated, 2 unchanged, 0 removed" in capsys.readouterr().out
    assert fingerprint(notes) == before


def test_cli_prints_the_warnings_of_the_cards_it_skipped(capsys, tmp_path: Path) -> None:
    source = tmp_path / "mixed.txt"
    source.write_text("#separator:tab\n#notetype column:1\nCloze\t{{c1::KV}} cache\t\nBasic\tfront\tback\n")
    assert main(["import", str(source), "--block", "memory"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "1 added, 0 updated, 0 unchanged, 0 removed",
        f"{source}:3: a cloze note: skipped (only front/back notes import)",
    ]


def test_cli_reads_a_deck_from_stdin_named_after_its_topic(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"#separator:tab\nq1\ta1\nq2\ta2\n")))
    assert main(["import", "-", "--block", "memory", "--topic", "From phone", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["source"], report["format"], report["added"]) == ("-", "anki", 2)
    assert Path(report["deck"]).name == "imported-from-phone.toml"
    items = load_decks([Paths.resolve().user_decks]).items
    assert {(loaded.item.topic, loaded.item.source) for loaded in items} == {("From phone", "imported from stdin")}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"#separator:tab\nq1\ta1\n")))
    assert main(["import", "-", "--block", "memory", "--topic", "From phone", "--write-ids"]) == 1
    assert "--write-ids writes the ids into the file: it needs a file" in capsys.readouterr().err


def test_cli_never_calls_an_anki_file_not_utf8(capsys, tmp_path: Path) -> None:
    anki = anki_profile(tmp_path / "profile")
    for path in (anki, anki / "collection.anki2", anki / "deck.apkg", anki / "phone.colpkg"):
        main(["import", str(path), "--block", "memory"])
        err = capsys.readouterr().err
        assert "UTF-8" not in err and "Traceback" not in err, err


def test_cli_bad_file_exits_1_with_one_error_per_line_on_stderr(capsys, tmp_path: Path) -> None:
    source = tmp_path / "bad.md"
    source.write_text("A: stray\n\nQ: lonely\n")
    assert main(["import", str(source), "--block", "memory"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"{source}:1: A: without a Q:",
        f"{source}:3: Q: without an A:",
        f"drill: {source} was not imported (2 problems); nothing was changed",
    ]
    assert not Paths.resolve().database.exists()


def test_cli_history_import_hands_the_file_to_the_history_importer(capsys, monkeypatch, tmp_path: Path) -> None:
    seen = []

    class Report:
        def lines(self) -> list[str]:
            return ["3 reviews imported"]

        def model_dump(self, mode: str) -> dict:
            return {"imported": 3}

    def import_history(study, path, progress):
        seen.append((type(study).__name__, path))
        progress("checking", 1, 2)  # silent: stderr is no terminal here
        if path.name == "bad.csv":
            raise InteropError([f"{path}:2: bad rating"])
        return Report()

    monkeypatch.setitem(sys.modules, "drill.interop.history_csv", types.SimpleNamespace(import_history=import_history))
    assert main(["import", "--history", str(tmp_path / "log.csv")]) == 0
    assert capsys.readouterr().out.startswith("3 reviews imported\nbackup before the import: ")
    assert main(["import", "--history", str(tmp_path / "log.csv"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"imported": 3, "backup": ANY}
    assert main(["import", "--history", str(tmp_path / "bad.csv")]) == 1
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'bad.csv'}:2: bad rating\n")
    assert seen == [("Study", tmp_path / "log.csv")] * 2 + [("Study", tmp_path / "bad.csv")]
    assert main(["import", "--history", str(tmp_path / "log.csv"), "--block", "memory"]) == 2
    assert main(["import", "--history", str(tmp_path / "log.csv"), "--write-ids"]) == 2
