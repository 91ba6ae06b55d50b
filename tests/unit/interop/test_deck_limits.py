"""`drill import` of decks too big to be cards: a question or answer over 65,536 characters is
refused by line, a file over 16 MiB before it is read; nothing is written either way."""

from __future__ import annotations

import time
from pathlib import Path

from helpers.measure import with_peak_memory

from drill.cli import main
from drill.paths import Paths


def refused(capsys, source: Path) -> list[str]:
    before = source.read_bytes() if source.stat().st_size < 2**20 else None
    assert main(["import", str(source), "--block", "memory"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert not list(Paths.resolve().user_decks.glob("imported-*"))
    if before is not None:
        assert source.read_bytes() == before  # no ids written into it
    return captured.err.splitlines()


def test_a_markdown_card_over_the_limit_is_refused_by_line(capsys, tmp_path: Path) -> None:
    source = tmp_path / "notes.md"
    source.write_text("Q: Short?\nA: Yes.\n\nQ: Long?\nA: " + "x" * 70_000 + "\n")
    assert refused(capsys, source) == [
        (
            f"{source}:4: the answer has 70,000 characters; an imported card's question and answer hold at most "
            "65,536 each"
        ),
        f"drill: {source} was not imported (1 problem); nothing was changed",
    ]


def test_an_anki_note_over_the_limit_is_refused_by_line(capsys, tmp_path: Path) -> None:
    source = tmp_path / "export.txt"
    source.write_text("#separator:tab\n#html:false\n" + "y" * 100_000 + "\tanswer\nshort\tanswer\n")
    assert refused(capsys, source)[0] == (
        f"{source}:3: the question has 100,000 characters; an imported card's question and answer hold at most "
        "65,536 each"
    )


def test_a_50_mb_markdown_card_is_refused_at_once_unread(capsys, tmp_path: Path) -> None:
    source = tmp_path / "huge.md"
    with source.open("w") as out:
        out.write("Q: Huge?\nA: ")
        for _ in range(50):
            out.write("z" * 2**20)
    started = time.monotonic()
    lines, peak = with_peak_memory(lambda: refused(capsys, source))
    source.unlink()
    assert time.monotonic() - started < 5
    assert peak < 10 * 2**20
    assert (
        lines[0] == f"{source}: 50.0 MiB is more than drill imports from one file (16 MiB); split it into smaller files"
    )
