"""SM-2 quality of a coding attempt."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drill.coding.drills import quality


@pytest.mark.parametrize(
    ("status", "seconds", "hints", "expected"),
    [
        ("pass", 300, 0, 5),
        ("pass", 600, 0, 5),
        ("pass", 601, 0, 4),
        ("pass", 100, 1, 4),  # hints: Good, not Easy; never Hard (again today)
        ("pass", 900, 2, 4),
        ("fail", 100, 0, 2),
        ("error", 100, 0, 1),
        ("timeout", 100, 0, 1),
    ],
)
@pytest.mark.slow
def test_quality_table(status: str, seconds: float, hints: int, expected: int) -> None:
    assert quality(status, seconds, 600, hints) == expected


@given(
    st.sampled_from(["pass", "fail", "error", "timeout"]), st.floats(0, 1e5), st.integers(60, 3600), st.integers(0, 3)
)
def test_quality_is_in_range_and_a_pass_always_beats_a_failure(status, seconds, budget, hints) -> None:
    value = quality(status, seconds, budget, hints)
    assert 0 <= value <= 5
    assert (value >= 4) == (status == "pass")  # a pass counts and comes back in a day or more
