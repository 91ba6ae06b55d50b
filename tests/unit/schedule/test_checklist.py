"""The grade a ticked checklist suggests."""

import pytest

from drill.schedule.checklist import suggested_rating
from drill.schedule.memory import Rating


@pytest.mark.parametrize(
    "ticked,points,rating",
    [
        (0, 4, Rating.AGAIN),
        (1, 4, Rating.AGAIN),
        (2, 4, Rating.HARD),
        (3, 4, Rating.HARD),
        (4, 4, Rating.GOOD),
        (1, 1, Rating.GOOD),
        (0, 1, Rating.AGAIN),
    ],
)
def test_the_share_said_suggests_the_grade(ticked, points, rating) -> None:
    assert suggested_rating(ticked, points) is rating


def test_an_empty_checklist_suggests_nothing() -> None:
    with pytest.raises(ValueError):
        suggested_rating(0, 0)
