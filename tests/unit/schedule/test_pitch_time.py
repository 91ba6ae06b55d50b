"""A pitch is in time within its target and not under half of it; the stats count it so."""

import pytest

from drill.schedule.pitch_time import SHORTEST_SHARE, pitch_timing
from drill.study.writes import write_grade


@pytest.mark.parametrize(
    "seconds,expected", [(3, "too short"), (149.9, "too short"), (150, "in time"), (300, "in time"), (300.5, "over")]
)
def test_a_five_minute_pitch(seconds, expected) -> None:
    assert pitch_timing(seconds, 300) == expected


def test_the_edge_is_the_shortest_share_of_the_target() -> None:
    edge = SHORTEST_SHARE * 30
    assert pitch_timing(edge - 0.1, 30) == "too short" and pitch_timing(edge, 30) == "in time"


@pytest.mark.parametrize("seconds,in_time", [(3, 0), (20, 1), (31, 0)])
def test_the_pitch_ladder_counts_only_pitches_in_time(small_paths, clock, seconds, in_time) -> None:
    from helpers.content import pitch_only

    from drill.stats.report import load_report
    from drill.study import Study

    pitch_only(small_paths)  # one 30-second pitch
    study = Study.open(small_paths, clock)
    [card] = study.reviews.cards(study.reviews.queue())
    write_grade(study, study.reviews.grade(card, 3, seconds * 1000))
    [rung] = [rung for rung in load_report(study).pitch if rung.target_s == 30]
    study.close()
    assert (rung.reviews, rung.within) == (1, in_time)
