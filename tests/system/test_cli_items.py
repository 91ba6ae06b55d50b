"""`drill list` with each item's state and its filters, and `drill suspend|unsuspend|forget ID…`:
every id is checked before anything changes, and an unknown one is one line on stderr, exit 1."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import text

from drill.cli import main
from drill.days import utc_now
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade

STATE = {"due", "interval", "reviews", "lapses", "suspended", "leech"}


def listed(capsys, *flags: str) -> list[dict]:
    assert main(["list", "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def ids(capsys, *flags: str) -> list[str]:
    return [row["id"] for row in listed(capsys, *flags)]


def graded_days_ago(item_id: str, days: int, button: int) -> None:
    study = Study.open(clock=lambda: utc_now() - timedelta(days=days))
    write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 10_000))
    study.close()


def item_state(item_id: str) -> tuple:
    study = Study.open()
    try:
        with study.engine.connect() as connection:
            return tuple(
                connection.execute(
                    text("SELECT suspended, due_day, last_review_day, repetitions FROM item WHERE id = :id"),
                    {"id": item_id},
                ).one()
            )
    finally:
        study.close()


def first_ids(capsys, kind: str, number: int) -> list[str]:
    return [row["id"] for row in listed(capsys) if row["kind"] == kind][:number]


def test_list_json_gives_every_kind_with_its_state(capsys) -> None:
    rows = listed(capsys)
    assert {row["kind"] for row in rows} == {"card", "pitch", "estimate", "coding"}
    assert all(set(row["state"]) == STATE for row in rows)
    assert rows[0]["state"] == {
        "due": None,
        "interval": 0,
        "reviews": 0,
        "lapses": 0,
        "suspended": False,
        "leech": False,
    }


def test_list_filters_by_block_due_leech_and_suspended(capsys) -> None:
    first, second, third = first_ids(capsys, "card", 3)
    Paths.resolve().config.write_text("leech_threshold = 1\n")
    graded_days_ago(first, 10, 3)
    graded_days_ago(first, 9, 1)  # a lapse: a leech at threshold 1, and overdue since
    graded_days_ago(second, 1, 4)  # new and passed yesterday: due today
    assert main(["suspend", third]) == 0
    capsys.readouterr()
    assert ids(capsys, "--due") == [first, second]
    assert ids(capsys, "--leech") == [first]
    assert ids(capsys, "--suspended") == [third]
    assert ids(capsys, "--due", "--leech") == [first]
    [row] = [row for row in listed(capsys) if row["id"] == first]
    assert (row["state"]["reviews"], row["state"]["lapses"], row["state"]["leech"]) == (2, 1, True)
    compute = listed(capsys, "--block", "compute")
    assert compute and all(row["block"] == "compute" for row in compute)
    assert main(["list", "--suspended"]) == 0  # the text form: one line per item, its flags shown
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(third) and "suspended" in line


@pytest.mark.slow
def test_suspend_unsuspend_and_forget_change_every_id_given(capsys) -> None:
    first, second = first_ids(capsys, "card", 2)
    estimate = first_ids(capsys, "estimate", 1)[0]
    assert main(["suspend", first, estimate]) == 0
    assert capsys.readouterr().out == f"suspended 2 items: {first}, {estimate}\n"
    assert item_state(first)[0] == 1 and item_state(estimate)[0] == 1
    assert ids(capsys, "--suspended") == [first, estimate]
    study = Study.open()
    assert first not in study.reviews.queue()
    study.close()
    assert main(["unsuspend", first]) == 0
    assert capsys.readouterr().out == f"unsuspended 1 item: {first}\n"
    assert item_state(first)[0] == 0
    study = Study.open()
    assert first in study.reviews.queue()  # unsuspended, it comes up again
    study.close()
    graded_days_ago(second, 3, 3)
    assert main(["forget", second]) == 0
    assert "forgot" in capsys.readouterr().out
    assert item_state(second) == (0, None, None, 0)
    [row] = [row for row in listed(capsys) if row["id"] == second]
    assert row["state"]["reviews"] == 1 and row["state"]["due"] is None  # back to new, history kept


def test_an_unknown_id_changes_nothing_and_exits_1(capsys) -> None:
    first = first_ids(capsys, "card", 1)[0]
    graded_days_ago(first, 3, 3)
    for command in ("suspend", "unsuspend", "forget"):
        before = item_state(first)
        assert main([command, first, "no-such-id"]) == 1
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and "no-such-id" in err and first not in err
        assert item_state(first) == before


def test_list_shows_an_estimate_as_an_example_draw_the_same_each_time(capsys) -> None:
    templates = {row["id"]: row["prompt"] for row in listed(capsys, "--block", "memory") if row["kind"] == "estimate"}
    assert templates and all("{" in prompt for prompt in templates.values())  # the JSON keeps the template
    assert main(["list", "--block", "memory"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["list", "--block", "memory"]) == 0
    assert capsys.readouterr().out.splitlines() == first  # seeded by the item's id
    drawn = [line for line in first if line.split()[0] in templates]
    assert len(drawn) == len(templates) and not any("{" in line or "}" in line for line in drawn)
