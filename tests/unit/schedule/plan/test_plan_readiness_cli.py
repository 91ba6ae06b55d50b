"""`drill plan` on a fixed history: the readiness the interview day gets at the pace kept so far, the
pace and minutes a day the target takes, and a pace past the daily maximum said."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime, time, timedelta

import pytest
from helpers.clock import Clock

from drill.cli import main
from drill.config import Config
from drill.days import study_day, utc_now
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_estimate, write_grade

DAYS = 10  # days of history before today, one in three skipped


def history(drill_home, target: float, max_reviews: int = 200) -> None:
    """Ten days before today: every queued card and pitch graded Good (every fifth Again, then Good),
    estimates answered right, on two days in three."""
    today = study_day(utc_now(), Config().rollover_hour)
    drill_home.mkdir(parents=True, exist_ok=True)
    interview = today + timedelta(days=20)
    (drill_home / "config.toml").write_text(
        f'scheduler = "sm2"\nfuzz = false\ninterview_date = {interview}\nreadiness_target = {target}\n'
        f"max_reviews_per_day = {max_reviews}\nnew_mix = {{ card = 6, pitch = 1, estimate = 1 }}\n"
    )
    clock = Clock(datetime.combine(today - timedelta(days=DAYS), time(15), tzinfo=UTC))
    study = Study.open(Paths(drill_home), clock, random.Random(2))
    try:
        for day in range(DAYS):
            clock.now = datetime.combine(today - timedelta(days=DAYS - day), time(15), tzinfo=UTC)
            if day % 3 == 2:
                continue
            for n, card in enumerate(study.reviews.cards(study.reviews.queue())):
                if card.kind == "estimate":
                    problem = study.estimation.new_problem(card.item_id)
                    attempt = study.estimation.answer(problem, problem.pretty, 60.0)
                    write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())
                elif card.kind != "coding":
                    write_grade(study, study.reviews.grade(card, 1 if n % 5 == 4 else 3, 20_000))
    finally:
        study.close()


def first_tries(drill_home) -> dict[str, int]:
    connection = sqlite3.connect(drill_home / "drill.db")
    try:
        return dict(
            connection.execute(
                """SELECT item.kind, COUNT(*) FROM review JOIN item ON item.id = review.item_id
                WHERE review.counted AND review.last_day_before IS NULL GROUP BY item.kind"""
            ).fetchall()
        )
    finally:
        connection.close()


@pytest.mark.slow
def test_the_plan_says_the_readiness_at_this_pace_and_the_pace_the_target_takes(capsys, drill_home) -> None:
    history(drill_home, target=0.5)
    assert main(["plan", "--json"]) == 0
    readiness = json.loads(capsys.readouterr().out)["readiness"]
    assert readiness["target"] == 0.5
    current = readiness["at_current_pace"]
    tries = first_tries(drill_home)
    assert current["new_per_day"] == pytest.approx(sum(tries.values()) / DAYS)  # first tries a day, all kinds
    assert 0 < current["predicted"]["score"] < 1
    assert current["predicted"]["low"] <= current["predicted"]["score"] <= current["predicted"]["high"]
    assert set(current["predicted"]["sections"]) == {"grill", "pitch", "estimate"}  # no coding in the setup
    needed, most = readiness["to_reach_target"], readiness["at_most"]
    assert readiness["reachable"] is True and needed["predicted"]["score"] >= 0.5
    assert most["predicted"]["score"] >= needed["predicted"]["score"]
    assert needed["new_per_day"] <= most["new_per_day"]
    assert needed["minutes_per_day"] > 0 and readiness["over_daily_maximum"] is False
    assert main(["plan"]) == 0
    out = capsys.readouterr().out
    assert f"Readiness on the interview day: {current['predicted']['score']:.0%} (" in out
    assert "at your pace (" in out and "min a day)" in out


@pytest.mark.slow
def test_a_target_past_the_daily_maximum_or_past_reach_is_said(capsys, drill_home) -> None:
    history(drill_home, target=0.5, max_reviews=1)
    assert main(["plan", "--json"]) == 0
    readiness = json.loads(capsys.readouterr().out)["readiness"]
    assert readiness["over_daily_maximum"] is True
    assert main(["plan"]) == 0
    assert "more than max_reviews_per_day = 1 lets the queue serve" in capsys.readouterr().out
    (drill_home / "config.toml").write_text(
        (drill_home / "config.toml").read_text().replace("readiness_target = 0.5", "readiness_target = 1.0")
    )
    assert main(["plan", "--json"]) == 0
    readiness = json.loads(capsys.readouterr().out)["readiness"]
    assert readiness["reachable"] is False and readiness["to_reach_target"] is None
    assert main(["plan"]) == 0
    assert "100% is beyond reach: the most is " in capsys.readouterr().out
