"""`drill import`: sources become a user deck, ids stay put, history follows edits, bad files change nothing."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import pytest

from drill.cli import main
from drill.content.decks import load_decks
from drill.interop.deck_import import detect_format, import_deck
from drill.interop.errors import InteropError
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade

FIRST_ANSWER = "Keys and values of past tokens."
SECOND_ANSWER = "2 * layers * heads * head_dim * bytes"
NOTES = (
    f"# KV cache\n\nQ: What does the KV cache store?\nA: {FIRST_ANSWER}\n\nQ: Its size per token?\nA: {SECOND_ANSWER}\n"
)


def rows(paths: Paths, sql: str) -> list[tuple]:
    with sqlite3.connect(paths.database) as connection:
        return connection.execute(sql).fetchall()


def ids_in(text: str) -> list[str]:
    return re.findall(r"<!-- drill-id: (\S+) -->", text)


def study(paths: Paths, clock) -> Study:
    return Study.open(paths, clock)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "kv-cache.md"
    path.parent.mkdir()
    path.write_text(NOTES)
    return path


def test_import_edit_and_reimport_keeps_ids_history_and_reviews(small_paths, notes: Path, clock) -> None:
    report = import_deck(small_paths, notes, "inference", None)
    assert (report.added, report.updated, report.unchanged, report.removed, report.ids_written) == (2, 0, 0, 0, 2)
    first_id, second_id = ids_in(notes.read_text())
    opened = study(small_paths, clock)
    card = opened.reviews.cards([first_id])[0]
    write_grade(opened, opened.reviews.grade(card, 3, 1200))
    opened.close()
    assert rows(small_paths, f"SELECT block, topic, prompt FROM item WHERE id='{first_id}'") == [
        ("inference", "kv-cache", "What does the KV cache store?")
    ]

    notes.write_text(notes.read_text().replace(FIRST_ANSWER, "K and V of every past token."))
    report = import_deck(small_paths, notes, "inference", None)
    assert (report.added, report.updated, report.unchanged, report.removed, report.ids_written) == (0, 1, 1, 0, 0)
    assert ids_in(notes.read_text()) == [first_id, second_id]
    study(small_paths, clock).close()
    assert rows(small_paths, f"SELECT answer FROM item WHERE id='{first_id}'") == [("K and V of every past token.",)]
    assert rows(small_paths, f"SELECT answer FROM item_revision WHERE item_id='{first_id}'") == [(FIRST_ANSWER,)]
    assert rows(small_paths, "SELECT item_id, button FROM review") == [(first_id, 3)]


def test_a_card_removed_from_the_file_is_retired_and_keeps_its_reviews(small_paths, notes: Path, clock) -> None:
    import_deck(small_paths, notes, "inference", None)
    first_id, second_id = ids_in(notes.read_text())
    opened = study(small_paths, clock)
    write_grade(opened, opened.reviews.grade(opened.reviews.cards([second_id])[0], 4, 900))
    opened.close()
    text = notes.read_text()
    notes.write_text(text[: text.index(f"<!-- drill-id: {second_id}")])
    report = import_deck(small_paths, notes, "inference", None)
    assert (report.added, report.unchanged, report.removed) == (0, 1, 1)
    study(small_paths, clock).close()
    assert rows(small_paths, f"SELECT retired FROM item WHERE id = '{first_id}'") == [(0,)]
    assert rows(small_paths, f"SELECT retired FROM item WHERE id = '{second_id}'") == [(1,)]
    assert rows(small_paths, "SELECT item_id FROM review") == [(second_id,)]


def test_the_written_deck_is_what_the_content_loader_reads(small_paths, notes: Path) -> None:
    report = import_deck(small_paths, notes, "memory", "KV")
    load = load_decks([small_paths.user_decks])
    assert load.errors == []
    assert [(loaded.item.id, loaded.item.block, loaded.item.topic, loaded.item.answer) for loaded in load.items] == [
        (item_id, "memory", "KV", answer)
        for item_id, answer in zip(ids_in(notes.read_text()), [FIRST_ANSWER, SECOND_ANSWER], strict=True)
    ]
    assert report.deck == small_paths.user_decks / "imported-kv-cache.toml"
    assert sorted(path.name for path in small_paths.user_decks.iterdir()) == ["imported-kv-cache.toml"]


def test_a_bad_row_is_reported_by_line_and_nothing_is_written_anywhere(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "bad.md"
    source.write_text("Q: fine\nA: fine\n\nQ: no answer here\n\nQ: also fine\nA: yes\n\nA: stray\n")
    before = source.read_bytes()
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, source, "memory", None)
    assert raised.value.problems == [f"{source}:4: Q: without an A:", f"{source}:9: A: without a Q:"]
    assert source.read_bytes() == before
    assert not small_paths.home.exists()  # no deck file, no database, not even the state folder


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("deck.md", "#separator:tab\n", "markdown"),
        ("deck.markdown", "", "markdown"),
        ("export.txt", "#separator:comma\na,b\n", "anki"),
        ("export.txt", "front\tback\n", "anki"),
        ("export.tsv", "#html:true\n#columns:Front\tBack\n", "anki"),
        ("cards.csv", "front,back\n", "anki"),
        ("notes.txt", "# Title\n\nQ: one\nA: 1\n", "markdown"),
        ("notes.txt", "just some prose\n", None),
        ("photo.png", "front,back\n", None),
    ],
)
def test_the_format_comes_from_the_extension_and_the_contents(name: str, text: str, kind: str | None) -> None:
    assert detect_format(Path(name), text) == kind


def test_a_file_of_unknown_format_or_without_cards_is_refused(small_paths, tmp_path: Path) -> None:
    prose = tmp_path / "prose.txt"
    prose.write_text("no cards here\n")
    with pytest.raises(InteropError, match=re.escape("prose.txt:1: neither a Markdown deck")):
        import_deck(small_paths, prose, "memory", None)
    empty = tmp_path / "empty.md"
    empty.write_text("# Just a heading\n")
    with pytest.raises(InteropError, match=re.escape("empty.md:1: no cards found")):
        import_deck(small_paths, empty, "memory", None)
    assert not small_paths.home.exists()


def test_reimporting_an_unchanged_file_leaves_it_untouched(small_paths, notes: Path) -> None:
    import_deck(small_paths, notes, "memory", None)
    written = notes.read_bytes()
    stamp = notes.stat().st_mtime_ns
    report = import_deck(small_paths, notes, "memory", None)
    assert (report.unchanged, report.ids_written) == (2, 0)
    assert notes.read_bytes() == written and notes.stat().st_mtime_ns == stamp


def test_write_back_keeps_crlf_line_ends_and_the_file_mode(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "windows.md"
    source.write_bytes(b"Q: one\r\nA: 1\r\n")
    source.chmod(0o640)
    import_deck(small_paths, source, "memory", None)
    assert re.fullmatch(rb"<!-- drill-id: md-[0-9a-f]{8} -->\r\nQ: one\r\nA: 1\r\n", source.read_bytes())
    assert source.stat().st_mode & 0o777 == 0o640


def test_an_anki_export_without_guids_gets_a_guid_column_and_keeps_its_ids(small_paths, tmp_path: Path) -> None:
    source = tmp_path / "anki.txt"
    source.write_text(
        "#separator:tab\n#html:true\n#tags column:3\n"
        "What is <b>HBM</b>?\tHigh-bandwidth memory\tmemory hardware\nRoofline?\tFLOPs vs bytes\tcompute\n"
    )
    first = import_deck(small_paths, source, None, None)
    assert (first.added, first.ids_written) == (2, 2)
    assert "#guid column:4" in source.read_text()
    ids = [loaded.item.id for loaded in load_decks([small_paths.user_decks]).items]
    source.write_text(source.read_text().replace("FLOPs vs bytes", "FLOPs per byte against the ridge point"))
    second = import_deck(small_paths, source, None, None)
    assert (second.updated, second.unchanged, second.ids_written) == (1, 1, 0)
    items = load_decks([small_paths.user_decks]).items
    assert [item.item.id for item in items] == ids
    assert [(item.item.block, item.item.topic) for item in items] == [("memory", "hardware"), ("compute", "anki")]


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
    assert main(["import", str(notes), "--block", "inference", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["format"], report["added"], report["ids_written"]) == ("markdown", 2, 2)
    assert rows(Paths.resolve(), "SELECT COUNT(*) FROM item WHERE id LIKE 'md-%' AND retired = 0") == [(2,)]
    assert main(["import", str(notes), "--block", "inference"]) == 0
    assert "0 added, 0 updated, 2 unchanged, 0 removed" in capsys.readouterr().out


def test_cli_bad_file_exits_1_with_one_error_per_line_on_stderr(capsys, tmp_path: Path) -> None:
    source = tmp_path / "bad.md"
    source.write_text("A: stray\n\nQ: lonely\n")
    assert main(["import", str(source), "--block", "memory"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"{source}:1: A: without a Q:",
        f"{source}:3: Q: without an A:",
        f"drill: {source} was not imported (2 problem(s)); nothing was changed",
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
    assert capsys.readouterr().out == "3 reviews imported\n"
    assert main(["import", "--history", str(tmp_path / "log.csv"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"imported": 3}
    assert main(["import", "--history", str(tmp_path / "bad.csv")]) == 1
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'bad.csv'}:2: bad rating\n")
    assert seen == [("Study", tmp_path / "log.csv")] * 2 + [("Study", tmp_path / "bad.csv")]
    assert main(["import", "--history", str(tmp_path / "log.csv"), "--block", "memory"]) == 2


@pytest.mark.slow
def test_python_m_drill_import(notes: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "drill", "import", str(notes), "--block", "memory"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "2 added, 0 updated, 0 unchanged, 0 removed" in done.stdout
    assert len(ids_in(notes.read_text())) == 2
