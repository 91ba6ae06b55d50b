"""What makes a leech and when it is flagged again (pure), and the notice fitting the item's kind."""

from __future__ import annotations

import pytest

from drill.schedule.leech import FAILED_RUN, Flagged, Standing


@pytest.mark.parametrize(
    ("before", "after", "flagged"),
    [
        (0, 7, False),
        (7, 8, True),  # the threshold
        (8, 9, False),
        (9, 12, True),  # a half threshold further
        (0, 9, True),  # an import: many lapses at once
        (9, 13, True),  # an import jumping past 12 without landing on it
        (12, 15, False),
    ],
)
def test_lapses_flag_at_the_threshold_and_every_half_threshold_past_it(before, after, flagged) -> None:
    assert Standing("m-1", "card", lapses=after).flagged_after(Standing("m-1", "card", lapses=before), 8) is flagged


def test_failed_days_flag_a_family_every_run_of_them_and_never_a_card() -> None:
    def flags(kind: str, before: int, after: int) -> bool:
        return Standing("x", kind, failed_run=after).flagged_after(Standing("x", kind, failed_run=before), 8)

    assert flags("estimate", FAILED_RUN - 1, FAILED_RUN) and flags("coding", 2, 2 * FAILED_RUN + 1)
    assert not flags("estimate", FAILED_RUN, FAILED_RUN + 1) and not flags("card", 0, 10)


@pytest.mark.parametrize(
    ("kind", "names", "advice"),
    [
        ("card", "the card on", "Rewriting it (e"),
        ("pitch", "the pitch on", "Rewriting it (e"),
        ("estimate", "the estimation family on", "problems solved"),
        ("coding", "the coding drill on", "hints (h)"),
    ],
)
def test_the_notice_names_the_kind_and_gives_advice_that_applies_to_it(kind, names, advice) -> None:
    notice = Flagged(Standing("x", kind, "Roofline", 8, FAILED_RUN), suspends=True).notice()
    assert f"{names} “Roofline”" in notice and advice in notice and "when you leave this session" in notice
    assert ("(e " in notice) is (kind in ("card", "pitch"))


def test_a_tag_only_notice_says_the_item_stays() -> None:
    notice = Flagged(Standing("x", "card", "Roofline", 8), suspends=False).notice()
    assert "stays in your reviews" in notice and "suspend" not in notice
