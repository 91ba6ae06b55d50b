"""One way to write a count."""

from drill.words import counted


def test_singular_only_for_exactly_one() -> None:
    assert [counted(n, "day") for n in (0, 1, 2)] == ["0 days", "1 day", "2 days"]
    assert counted(1, "study day") == "1 study day" and counted(3, "review") == "3 reviews"
    assert counted(2, "sequence") == "2 sequences" and counted(2, "query", "queries") == "2 queries"
