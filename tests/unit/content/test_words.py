"""One way to write a count."""

import pytest

from drill.words import article, counted


def test_singular_only_for_exactly_one() -> None:
    assert [counted(n, "day") for n in (0, 1, 2)] == ["0 days", "1 day", "2 days"]
    assert counted(1, "study day") == "1 study day" and counted(3, "review") == "3 reviews"
    assert counted(2, "sequence") == "2 sequences" and counted(2, "query", "queries") == "2 queries"


@pytest.mark.parametrize(
    "phrase,expected",
    [
        ("8B-parameter", "an"),
        ("70B", "a"),
        ("11-layer", "an"),
        ("18M", "an"),
        ("11000", "an"),
        ("110", "a"),
        ("180", "a"),
        ("800", "an"),
        ("1024×1024", "a"),
        ("8192×1024", "an"),
        ("H100", "an"),
        ("item", "an"),
        ("model", "a"),
    ],
)
def test_the_article_is_the_one_said(phrase, expected) -> None:
    assert article(phrase) == expected
