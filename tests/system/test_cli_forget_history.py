"""`drill forget` through the CLI is kept in the review history: `drill export --history` writes it
(rating 0), and `drill import --history` of a log written before it leaves the item forgotten."""

from __future__ import annotations

import csv
import json
from datetime import timedelta

from drill.cli import main
from drill.days import utc_now
from drill.interop.history_format import card_id
from drill.study import Study
from drill.study.writes import write_grade


def graded_days_ago(item_id: str, days: int, button: int) -> None:
    study = Study.open(clock=lambda: utc_now() - timedelta(days=days))
    try:
        write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 10_000))
    finally:
        study.close()


def listed_state(capsys, item_id: str) -> dict:
    assert main(["list", "--json"]) == 0
    [row] = [row for row in json.loads(capsys.readouterr().out) if row["id"] == item_id]
    return row["state"]


def test_a_forget_is_exported_and_outlives_an_import_of_older_reviews(capsys, tmp_path) -> None:
    assert main(["list", "--json"]) == 0
    item_id = next(row["id"] for row in json.loads(capsys.readouterr().out) if row["kind"] == "card")
    graded_days_ago(item_id, 6, 3)
    graded_days_ago(item_id, 2, 4)
    before_forget = tmp_path / "before.csv"
    assert main(["export", "--history", str(before_forget)]) == 0
    with before_forget.open("a") as log:  # a review given elsewhere, before the forget
        log.write(f"{card_id(item_id)},{int((utc_now() - timedelta(days=1)).timestamp() * 1000)},3,900,0\n")

    assert main(["forget", item_id]) == 0
    after_forget = tmp_path / "after.csv"
    assert main(["export", "--history", str(after_forget)]) == 0
    capsys.readouterr()
    with after_forget.open(newline="") as log:
        ratings = [row[2] for row in csv.reader(log)][1:]
    assert ratings == ["3", "4", "0"]  # the forget, last

    assert main(["import", "--history", str(before_forget), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["added"], report["forgets_added"], report["items_rebuilt"]) == (1, 0, 1)
    state = listed_state(capsys, item_id)
    assert (state["due"], state["reviews"]) == (None, 3)  # still new, with every review kept
