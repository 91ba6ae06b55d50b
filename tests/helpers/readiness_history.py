"""Eight weeks of study through the study layer, and what the stats screen's charts should show for
it, worked out apart from drill's own code for them: an item's state at the end of a past day is
replayed from its grades up to that day (drill.schedule.rebuild), not read from the states the
review rows keep, and the reliability bands come from the review rows by SM-2's proxy in Python,
not from the calibration SQL."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import replace
from datetime import date, timedelta

from drill.interview.forecast import expectation, forecast
from drill.interview.plan import section_pools
from drill.interview.settings import InterviewSettings
from drill.schedule import memory
from drill.schedule.rebuild import replay
from drill.store.forecast import records
from drill.store.queries import cards
from helpers.screen_steps import all_content, review_three, study_days

DAYS_AGO = (56, 49, 40, 35, 26, 21, 12, 7, 2, 1)  # the days studied, three reviews each: five are points' days
BAND_LABELS = ("<50%", "50–70%", "70–80%", "80–90%", "90%+")
BAND_TOPS = (0.5, 0.7, 0.8, 0.9)


def studied(paths, clock):
    """`paths` with every kind of content, studied on DAYS_AGO."""
    study_days(all_content(paths), clock, DAYS_AGO, review_three)
    return paths


def week_points(today: date) -> list[date]:
    return [today - timedelta(weeks=back) for back in range(8, -1, -1)]


def replayed_scores(study, days: list[date]) -> list[float]:
    """The interview score predicted at the end of each of `days`, every item replayed from its grades."""
    connection = sqlite3.connect(study.paths.database)
    try:
        graded = connection.execute(
            "SELECT item_id, id, study_day, quality FROM review ORDER BY item_id, reviewed_at, id"
        ).fetchall()
        ids = [row[0] for row in connection.execute("SELECT id FROM item WHERE NOT retired AND NOT suspended")]
    finally:
        connection.close()
    grades = defaultdict(list)
    for item_id, review_id, day, quality in graded:
        grades[item_id].append((review_id, date.fromisoformat(day), quality))
    scheduler = study.config.scheduler
    model, record = memory.get(scheduler), records(study.engine, scheduler)
    settings = InterviewSettings.from_config(study.config)
    pools = section_pools(cards(study.engine, ids), settings)
    scores = []
    for day in days:
        expectations = []
        for section, pool in pools.items():
            for card in pool:
                _, state = replay([grade for grade in grades[card.item_id] if grade[1] <= day], scheduler)
                expectations.append(expectation(section, replace(card, state=state), day, model, record))
        scores.append(forecast(expectations, settings.wanted()).score)
    return scores


def reliability_bands(study, today: date) -> list[tuple[str, int, float, float]]:
    """(band, reviews, mean prediction %, passed %) of the bands with a review, from the counted
    reviews of the last 30 days of items seen before, each predicted 0.9^(days since / interval, at least 1)."""
    connection = sqlite3.connect(study.paths.database)
    try:
        rows = connection.execute(
            """SELECT study_day, last_day_before, interval_before, button FROM review
            WHERE counted AND last_day_before IS NOT NULL AND study_day >= ?""",
            ((today - timedelta(days=29)).isoformat(),),
        ).fetchall()
    finally:
        connection.close()
    bands: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for day, last, interval, button in rows:
        elapsed = max(0, (date.fromisoformat(day) - date.fromisoformat(last)).days)
        predicted = 0.9 ** (elapsed / max(1, interval))
        band = sum(predicted >= top for top in BAND_TOPS)
        bands[band].append((predicted, button > 1))
    return [
        (
            BAND_LABELS[band],
            len(found),
            100 * sum(p for p, _ in found) / len(found),
            100 * sum(passed for _, passed in found) / len(found),
        )
        for band, found in sorted(bands.items())
    ]
