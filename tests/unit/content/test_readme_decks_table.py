"""The README's content table states how many items each shipped deck holds: read it and compare
every row with the decks, so a card added or split without updating the table fails here."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from drill.content.decks import load_decks

ROOT = Path(__file__).resolve().parents[3]
HEADER = "| deck | items |"
DECKS_OF = re.compile(r"^(\d\d)(?:–(\d\d))?\s")  # "30 chapter questions", "10–18 grill"


def table_rows(readme: str) -> list[tuple[list[str], list[int]]]:
    """Each row of the content table as (the deck numbers it covers, per part), (its counts)."""
    lines = readme.split("\n")
    start = lines.index(HEADER) + 2  # the header and its |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        description, counts = (cell.strip() for cell in line.strip("|").split("|"))
        parts = []
        for part in description.split(" · "):
            match = DECKS_OF.match(part)
            assert match, f"a table row part names no deck number: {part!r}"
            first, last = int(match.group(1)), int(match.group(2) or match.group(1))
            parts.append([f"{number:02d}" for number in range(first, last + 1)])
        numbers = [int(count) for count in counts.split(" · ")]
        assert len(parts) == len(numbers), f"{line!r}: {len(parts)} deck parts, {len(numbers)} counts"
        rows.extend(zip(parts, numbers, strict=True))
    return rows


def deck_counts() -> Counter[str]:
    """Items per deck file, by the file's two-digit number."""
    return Counter(Path(loaded.deck).name[:2] for loaded in load_decks([ROOT / "decks"]).items)


def mismatches(readme: str, counts: Counter[str]) -> list[str]:
    rows = table_rows(readme)
    found = [
        f"decks {decks[0]}–{decks[-1]}: the README says {stated}, the decks hold {held}"
        for decks, stated in rows
        if stated != (held := sum(counts[deck] for deck in decks))
    ]
    listed = Counter(deck for decks, _ in rows for deck in decks)
    found += [f"deck {deck} is in no row of the table" for deck in sorted(set(counts) - set(listed))]
    found += [f"deck {deck} is in {n} rows of the table" for deck, n in sorted(listed.items()) if n > 1]
    return found


def test_the_readme_content_table_counts_the_shipped_decks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert mismatches(readme, deck_counts()) == []


def test_a_stale_or_missing_row_is_named() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    counts = deck_counts() + Counter({"30": 1, "99": 4})  # a card added to deck 30, a new deck 99
    assert mismatches(readme, counts) == [
        f"decks 30–30: the README says {counts['30'] - 1}, the decks hold {counts['30']}",
        "deck 99 is in no row of the table",
    ]
