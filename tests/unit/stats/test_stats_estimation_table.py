"""The stats screen's estimation table reads whole at 80 columns: narrow, the slips leave the table for
lines of their own, so no column is cut to an ellipsis; wide, they stay in a column beside it."""

import io
from types import SimpleNamespace

from rich.console import Console

from drill.store.stats.estimation import Estimation, FamilyStats, SlipCount
from drill.tui.screens.stats import estimation_view

SLIP = "you may have forgotten the 2 for K and V"


def report(slip: str = SLIP) -> SimpleNamespace:
    families = tuple(
        FamilyStats(name, "inference", "Topic", 12, 0.41, 0.83, 0.2, 0.5, -0.12, (SlipCount(slip, 4),) if slips else ())
        for name, slips in (
            ("decode-tokens-per-s", True),
            ("prefix-cache-memory", False),
            ("moe-alltoall-volume", True),
        )
    )
    return SimpleNamespace(estimation=Estimation(36, 0.55, 0.61, families, (SlipCount(SLIP, 8),), 7, ()))


def shown(width: int, narrow: bool, slip: str = SLIP) -> str:
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(estimation_view(report(slip), narrow=narrow))
    return console.export_text()


def test_at_80_columns_every_column_and_slip_is_whole() -> None:
    text = shown(76, narrow=True)  # the section's width in an 80-column terminal
    assert "…" not in text
    header = next(line for line in text.splitlines() if line.startswith("family"))
    assert header.split() == ["family", "n", "score", "|log", "err|", "trend"]
    assert "decode-tokens-per-s  12" in text and "▼0.12" in text
    assert f"decode-tokens-per-s: {SLIP} ×4" in text and f"moe-alltoall-volume: {SLIP} ×4" in text
    assert "prefix-cache-memory:" not in text  # no slip, no line


def test_wide_the_slip_has_its_column() -> None:
    text = shown(116, narrow=False)
    assert "…" not in text and "commonest slip" in text
    assert any(
        line.startswith("decode-tokens-per-s") and line.rstrip().endswith(f"{SLIP} ×4") for line in text.splitlines()
    )


def test_wide_a_long_slip_wraps_in_its_column_and_squeezes_no_other() -> None:
    long = f"{SLIP} (or: the answer is off by the number of layers, a factor of 32 to 80)"
    text = shown(116, narrow=False, slip=long)
    assert "…" not in text
    assert "decode-tokens-per-s  12   0.41       0.83  ▼0.12" in text
    assert "layers, a factor of 32 to 80) ×4" in text
