"""`drill import --history` of hostile files: every problem one `path:line:` line, at most 20 of
them and a count, exit 1, nothing stored, bounded memory; a good file with a BOM and CRLF imports."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import pytest
from helpers.measure import with_peak_memory
from sqlalchemy import text

from drill.cli import main
from drill.paths import Paths
from drill.study import Study

HEADER = "card_id,review_time,review_rating,review_duration"
NOW_MS = int(datetime.now(UTC).timestamp() * 1000)


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


@pytest.fixture
def card(drill_home: Path) -> int:
    """The card id of a shipped item, in a store opened once (so the import finds its items)."""
    study = Study.open(Paths.resolve())
    try:
        return card_id(study.reviews.queue()[0])
    finally:
        study.close()


def stored_reviews() -> int:
    study = Study.open(Paths.resolve())
    try:
        with study.engine.connect() as connection:
            return connection.execute(text("SELECT COUNT(*) FROM review")).scalar_one()
    finally:
        study.close()


def refused(capsys, source: Path) -> list[str]:
    """The stderr lines of an import of `source` that must fail with exit 1 and store nothing."""
    assert main(["import", "--history", str(source)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert stored_reviews() == 0
    return captured.err.splitlines()


@pytest.mark.parametrize(
    ("row", "complaint"),
    [
        ("{card},{now},3," + "7" * 20, "review_duration must be whole milliseconds from 0 to 86400000"),
        ("{card},{now},3,86400001", "review_duration must be whole milliseconds from 0 to 86400000"),
        ("{card},{now},3,-1", "review_duration must be whole milliseconds"),
        ("1" * 5000 + ",{now},3,0", "card_id 111111111111111111111111111111… (5000 characters) is out of range"),
        (
            "{card}," + "1" * 5000 + ",3,0",
            "review_time 111111111111111111111111111111… (5000 characters) is not between",
        ),
        (
            "{card},{now},3" + "1" * 5000 + ",0",
            "review_rating must be 1, 2, 3 or 4, not '31111111111111111111111111111",
        ),
        (str(2**53) + ",{now},3,0", f"card_id {2**53} is out of range (0 to 2^53 - 1"),
        ("-7,{now},3,0", "card_id -7 is out of range"),
        ("{card},-5,3,0", "review_time -5 is not between 2000-01-01 and tomorrow"),
        ("{card},99999999999999,3,0", "review_time 99999999999999 is not between"),
        ("{card},{now},-3,0", "review_rating must be 1, 2, 3 or 4, not '-3'"),
    ],
    ids=[
        "20-digit-duration",
        "duration-over-a-day",
        "negative-duration",
        "5000-digit-card",
        "5000-digit-time",
        "5000-digit-rating",
        "card-2^53",
        "negative-card",
        "negative-time",
        "time-in-5138",
        "negative-rating",
    ],
)
def test_every_number_is_range_checked(capsys, tmp_path: Path, card: int, row: str, complaint: str) -> None:
    source = tmp_path / "hostile.csv"
    source.write_text(f"{HEADER}\n{card},{NOW_MS - 5000},3,100\n{row.format(card=card, now=NOW_MS)}\n")
    lines = refused(capsys, source)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{source}:3: ") and complaint in lines[0]
    assert len(lines[0]) < 250  # a long value is cut short in its message
    assert lines[1] == f"drill: {source} was not imported (1 problem); nothing was changed"


def test_a_50_mb_line_is_one_problem_and_is_never_held_in_memory(capsys, tmp_path: Path, card: int) -> None:
    source = tmp_path / "huge.csv"
    with source.open("w") as out:
        out.write(f"{HEADER}\n{card},{NOW_MS},3,0\n{card},{NOW_MS + 1},3,")
        for _ in range(50):
            out.write("9" * 2**20)
        out.write(f"\n{card},{NOW_MS + 2},5,0\n")
    lines, peak = with_peak_memory(lambda: refused(capsys, source))
    source.unlink()
    assert peak < 20 * 2**20  # the 50 MB line was skipped, never read whole
    assert lines == [
        f"{source}:3: a line over 65536 bytes (a review-log row is a few numbers); not read",
        f"{source}:4: review_rating must be 1, 2, 3 or 4, not '5' (or 0: a forget)",
        f"drill: {source} was not imported (2 problems); nothing was changed",
    ]


def test_a_field_over_the_csv_limit_is_one_clear_line(capsys, tmp_path: Path, card: int) -> None:
    source = tmp_path / "quoted.csv"
    source.write_text(f'{HEADER}\n{card},{NOW_MS},3,0\n{card},{NOW_MS + 1},3,"' + "9\n" * 100_000 + '"\n')
    lines = refused(capsys, source)
    assert any(line.startswith(f"{source}:") and "bad CSV: field larger than field limit" in line for line in lines)
    assert lines[-1].startswith(f"drill: {source} was not imported (")


def test_a_million_bad_rows_print_twenty_problems_and_a_count(capsys, tmp_path: Path, card: int) -> None:
    rows = 50_000  # each with four bad values: 200,000 problems
    source = tmp_path / "bad.csv"
    source.write_text(HEADER + "\n" + "x,y,9,-1\n" * rows)
    lines = refused(capsys, source)
    assert len(lines) == 22
    assert lines[0] == f"{source}:2: card_id must be an integer, not 'x'"
    assert all(line.startswith(f"{source}:") for line in lines[:20])
    assert lines[20] == f"… and {4 * rows - 20} more problems"
    assert lines[21] == f"drill: {source} was not imported ({4 * rows} problems); nothing was changed"


def test_a_bad_byte_is_named_by_its_line(capsys, tmp_path: Path, card: int) -> None:
    source = tmp_path / "latin1.csv"
    source.write_bytes(f"{HEADER}\n{card},{NOW_MS},3,0\n".encode() + b"\xe9t\xe9\n")
    assert refused(capsys, source)[0] == f"{source}:3: not UTF-8 text (invalid continuation byte)"


def test_a_file_with_a_bom_and_windows_line_ends_imports(capsys, tmp_path: Path, card: int) -> None:
    source = tmp_path / "windows.csv"
    source.write_bytes(
        ("\ufeff" + f"{HEADER}\r\n{card},{NOW_MS - 2000},3,100\r\n{card},{NOW_MS - 1000},4,\r\n").encode()
    )
    assert main(["import", "--history", str(source)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{source}: 2 reviews read"
    assert stored_reviews() == 2


def test_an_unreadable_file_is_one_line(capsys, tmp_path: Path, card: int) -> None:
    lines = refused(capsys, tmp_path / "missing.csv")
    assert lines[0] == f"{tmp_path / 'missing.csv'}: cannot read: No such file or directory"


def test_progress_is_drawn_on_a_terminal_and_the_json_stays_the_same(
    capsys, monkeypatch, tmp_path: Path, card: int
) -> None:
    source = tmp_path / "history.csv"
    source.write_text(HEADER + "\n" + "".join(f"{card},{NOW_MS - 1000 * n},3,100\n" for n in range(1, 30_001)))
    report = {
        "path": str(source),
        "rows": 30_000,
        "added": 30_000,
        "skipped_duplicates": 0,
        "items_rebuilt": 1,
        "forgets_added": 0,
    }
    assert main(["import", "--history", str(source), "--json"]) == 0
    captured = capsys.readouterr()
    first = json.loads(captured.out)
    first_backup = first.pop("backup")
    assert first_backup.endswith(".sqlite")  # the database before the import, backed up
    assert first == report and captured.err == ""  # no terminal: no progress
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["import", "--history", str(source), "--json"]) == 0
    captured = capsys.readouterr()
    second = json.loads(captured.out)
    assert second.pop("backup") != first_backup
    assert second == {**report, "added": 0, "skipped_duplicates": 30_000, "items_rebuilt": 0}
    assert "checking" in captured.err and "importing" in captured.err


@pytest.fixture
def from_stdin(monkeypatch) -> Iterator[Callable[[bytes], None]]:
    """Makes standard input a pipe holding the bytes given (written whole: they fit its buffer)."""
    opened: list[TextIO] = []

    def holding(data: bytes) -> None:
        read, write = os.pipe()
        os.write(write, data)
        os.close(write)
        opened.append(os.fdopen(read, "r"))
        monkeypatch.setattr(sys, "stdin", opened[-1])

    yield holding
    for stdin in opened:
        stdin.close()


def test_dash_reads_the_log_from_standard_input(capsys, from_stdin, card: int) -> None:
    from_stdin(f"{HEADER}\n{card},{NOW_MS - 2000},3,100\n{card},{NOW_MS - 1000},0,0\n".encode())
    assert main(["import", "--history", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "-: 2 reviews read",
        "added 1 review and 1 forget to 1 item; their schedules were replayed from their whole history",
    ]
    assert stored_reviews() == 1


def test_a_bad_row_on_standard_input_is_named_by_its_line(capsys, from_stdin, card: int) -> None:
    from_stdin(f"{HEADER}\n{card},{NOW_MS},3,100\n{card},{NOW_MS},7,100\n".encode())
    assert main(["import", "--history", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "-:3: review_rating must be 1, 2, 3 or 4, not '7' (or 0: a forget)",
        "drill: - was not imported (1 problem); nothing was changed",
    ]
    assert stored_reviews() == 0


def test_a_closed_standard_input_is_one_line(capsys, monkeypatch, card: int) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python gives a process started without one
    assert main(["import", "--history", "-"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == "-: cannot read: standard input is closed"


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (Path("/proc/self/clear_refs"), "cannot read: "),  # write-only: refused on open, or on read for root
        (Path(__file__).parent, "cannot read: Is a directory"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_line(capsys, source: Path, reason: str, card: int) -> None:
    if not source.exists():
        pytest.skip(f"{source} is Linux's")
    lines = refused(capsys, source)
    assert lines[0].startswith(f"{source}") and reason in lines[0] and len(lines) == 2
