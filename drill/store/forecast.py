"""The user's record that predicts a mock interview (drill.interview.forecast), read from their
latest reviews: how the memory model's predictions of recall came true, what their recalled and
forgotten answers scored, how often a first try passed, and the pace they study at; and what is
built on it: the forecast for the questions an interview drew, and the plan's readiness on the
interview day (drill.interview.pace).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, timedelta
from typing import NamedTuple

from sqlalchemy import Connection, Engine, Float, Text, and_, bindparam, distinct, func, select, text
from sqlalchemy import column as column_of

from drill.config import Config
from drill.interview.forecast import (
    DEFAULT_RECORDS,
    Expectation,
    Forecast,
    Lift,
    Moments,
    Outcome,
    Recalibration,
    Record,
    expectation,
    forecast,
    lift,
    recalibration,
)
from drill.interview.pace import DEFAULT_SECONDS, Course, Pace, Reach, reach
from drill.interview.plan import GRILL_PREFIX, section_pools
from drill.interview.settings import InterviewSettings
from drill.schedule import memory
from drill.schedule.fsrs_model import FSRSSettings
from drill.schedule.queue import KINDS, kind_quotas
from drill.schedule.records import Card
from drill.store.dialect import as_date, dialect
from drill.store.queries import ACTIVE, cards
from drill.store.stats.sql import MEMORY_BEFORE, ensure_math, predicted_recall
from drill.store.tables import item, review

LATEST = 2000  # the reviews read per kind of item, newest first
PRIOR_TRIES = 2  # what answers score starts as this many answers scoring the defaults
FIRST_TRY_PRIOR = 1  # the first tries' record starts as one that failed
# A section's first tries start as this many tries passing as often as every section's first tries
# together: a section with few first tries of its own (the pitch, estimates) leans on the others
# (one never tried first at all keeps a first-try chance of 0).
FIRST_TRY_POOL = 10
ITEM_PRIOR = 2.0  # an item's offset starts as this many tries that went as expected
# Self-graded answers share one record of how recall predictions come true and what answers score;
# estimates and drills, with fewer reviews, are held near it until their own record says otherwise.
SELF_GRADED = "self-graded"
POOLS = {"grill": SELF_GRADED, "card": SELF_GRADED, "pitch": SELF_GRADED}


def _group(kind: str, item_id: str) -> str:
    """The record a review counts in: an interview section, or "card" for the other cards."""
    if kind == "card":
        return "grill" if item_id.startswith(GRILL_PREFIX) else "card"
    return kind


class _Try(NamedTuple):
    """One counted review: its record (`_group`), item, the recall predicted (None on a first try),
    whether it passed, and what the answer would have scored (None: an estimate without its attempt)."""

    group: str
    item_id: str
    recall: float | None
    passed: bool
    score: float | None


def _moments(tries: Iterable[_Try], passed: bool, default: Moments) -> Moments:
    scores = [each.score for each in tries if each.passed == passed and each.score is not None]
    weight = len(scores) + PRIOR_TRIES
    return Moments(
        (sum(scores) + PRIOR_TRIES * default.mean) / weight,
        (sum(score * score for score in scores) + PRIOR_TRIES * default.square) / weight,
    )


def _offsets(tries: Iterable[_Try], expected: Callable[[_Try], float]) -> tuple[list[Outcome], dict[str, float]]:
    """Each predicted try with its item's offset before it, and each item's offset after its last:
    how far its tries beat or missed what `expected` gave them, in logits (one Newton step from
    none, as if ITEM_PRIOR tries had gone as expected)."""
    surprise: dict[str, float] = {}
    weight: dict[str, float] = {}
    outcomes = []
    for each in tries:
        before = surprise.get(each.item_id, 0.0) / (weight.get(each.item_id, 0.0) + ITEM_PRIOR)
        if each.recall is not None:
            outcomes.append(Outcome(each.recall, each.passed, before))
        chance = expected(each)
        surprise[each.item_id] = surprise.get(each.item_id, 0.0) + each.passed - chance
        weight[each.item_id] = weight.get(each.item_id, 0.0) + chance * (1 - chance)
    return outcomes, {item_id: surprise[item_id] / (weight[item_id] + ITEM_PRIOR) for item_id in surprise}


def _reviews(connection: Connection, scheduler: str) -> Sequence[tuple[str, str, float | None, int, float | None]]:
    """The latest counted reviews of each kind of item an interview asks, oldest first: (kind, item id, the recall
    `scheduler` predicted from the state the row keeps — None on a first try —, the button, an
    estimate's score), as calibration reads them."""
    sql = dialect(connection)
    curve = memory.get(scheduler).curve()
    column = MEMORY_BEFORE[curve.memory]
    elapsed = sql.greatest(sql.days_between("review.study_day", "review.last_day_before"), "0")
    recall, params = predicted_recall(sql, curve, elapsed, column)
    ensure_math(connection)
    query = text(
        f"""SELECT kind, item_id, recall, button, score FROM (
            SELECT item.kind AS kind, review.item_id AS item_id, review.button AS button,
                CASE WHEN review.last_day_before IS NOT NULL AND {column} IS NOT NULL THEN {recall} END AS recall,
                estimate_attempt.score AS score,
                ROW_NUMBER() OVER (PARTITION BY item.kind ORDER BY review.reviewed_at DESC, review.id DESC) AS newest
            FROM review JOIN item ON item.id = review.item_id
                LEFT JOIN estimate_attempt ON estimate_attempt.review_id = review.id
            WHERE review.counted AND item.kind IN ('card', 'pitch', 'estimate', 'coding')
        ) AS latest WHERE newest <= :latest ORDER BY kind, newest DESC"""
    ).columns(
        column_of("kind", Text),
        column_of("item_id", Text),
        column_of("recall", Float),
        review.c.button,
        column_of("score", Float),
    )
    return [tuple(row) for row in connection.execute(query, {**params, "latest": LATEST})]


def _score(group: str, button: int, score: float | None) -> float | None:
    """What the answer would have scored in an interview (None: an estimate without its attempt)."""
    if group == "estimate":
        return score
    if group == "coding":
        return 1.0 if button > 1 else 0.0
    return (button - 1) / 3


def _tries(rows: Iterable[tuple[str, str, float | None, int, float | None]]) -> list[_Try]:
    tries = []
    for kind, item_id, recall, button, score in rows:
        group = _group(kind, item_id)
        predicted = None if recall is None else float(recall)
        tries.append(_Try(group, item_id, predicted, button > 1, _score(group, button, score)))
    return tries


def _fits(outcomes: Callable[[str], list[Outcome]]) -> dict[str, Recalibration]:
    """Each pool's recalibration from its `outcomes`: the self-graded one's, the others held near it."""
    self_graded = recalibration(outcomes(SELF_GRADED))
    return {
        pool: self_graded if pool == SELF_GRADED else recalibration(outcomes(pool), self_graded)
        for pool in {POOLS.get(section, section) for section in DEFAULT_RECORDS}
    }


def _lifts(tries: Iterable[_Try], outcomes: Iterable[Outcome], recall: Recalibration) -> dict[bool, Lift]:
    """How the scores of passed and of missed answers moved with their recalibrated chance."""
    chances: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for each, outcome in zip((each for each in tries if each.recall is not None), outcomes, strict=True):
        if each.score is not None:
            chances[each.passed].append((recall(outcome.predicted, outcome.offset), each.score))
    return {passed: lift(found) for passed, found in chances.items()}


def records(engine: Engine, scheduler: str) -> dict[str, Record]:
    """Each section's record, from the latest reviews; predicted recall is `scheduler`'s. First tries
    count per section (grill questions are not the other cards), held near every section's together
    (FIRST_TRY_POOL); the rest per pool (POOLS). The
    recalibration is fitted twice: on the predictions alone, then with each item's offset from what
    that first fit expected of it."""
    with engine.connect() as connection:
        tries = _tries(_reviews(connection, scheduler))
    firsts: dict[str, list[bool]] = {}
    pools: dict[str, list[_Try]] = {}
    for each in tries:
        pools.setdefault(POOLS.get(each.group, each.group), []).append(each)
        if each.recall is None:
            firsts.setdefault(each.group, []).append(each.passed)
    every = [each for passed in firsts.values() for each in passed]
    overall = sum(every) / (len(every) + FIRST_TRY_PRIOR)  # every section's first tries
    first_try = {
        group: (sum(passed) + FIRST_TRY_POOL * overall) / (len(passed) + FIRST_TRY_POOL)
        for group, passed in firsts.items()
    }
    plain = _fits(lambda pool: [Outcome(t.recall, t.passed) for t in pools.get(pool, []) if t.recall is not None])

    def expected(each: _Try) -> float:
        if each.recall is None:
            return first_try.get(each.group, 0.0)
        return plain[POOLS.get(each.group, each.group)](each.recall)

    with_offsets = {pool: _offsets(pools.get(pool, []), expected) for pool in plain}
    offsets = {item_id: offset for _, found in with_offsets.values() for item_id, offset in found.items()}
    fits = _fits(lambda pool: with_offsets[pool][0])
    result = {}
    for section, default in DEFAULT_RECORDS.items():
        pool = POOLS.get(section, section)
        pooled = pools.get(pool, [])
        lifts = _lifts(pooled, with_offsets[pool][0], fits[pool])
        result[section] = Record(
            recall=fits[pool],
            passed=_moments(pooled, True, default.passed),
            failed=_moments(pooled, False, default.failed),
            first_try=first_try.get(section, 0.0),
            passed_lift=lifts[True],
            failed_lift=lifts[False],
            offsets=offsets,
        )
    return result


def expectations(engine: Engine, drawn: Iterable[tuple[str, Card]], day: date, scheduler: str) -> list[Expectation]:
    """What each (section, card) is expected to score if asked on `day`."""
    model, record = memory.get(scheduler), records(engine, scheduler)
    return [expectation(section, card, day, model, record) for section, card in drawn]


def predicted(engine: Engine, drawn: Iterable[tuple[str, Card]], day: date, scheduler: str) -> Forecast:
    """The forecast for the questions an interview drew, if asked on `day`."""
    return forecast(expectations(engine, drawn, day, scheduler))


EVERY_ITEM = select(item.c.id).where(ACTIVE).order_by(item.c.position, item.c.id)
PACE_DAYS = 14  # the current pace: the study days before today, or since the first review if fewer
SECONDS_DAYS = 30  # the seconds a review takes: the mean of the last 30 study days' counted reviews
_RECENT = and_(review.c.counted, review.c.study_day < bindparam("today"), review.c.study_day >= bindparam("since"))
NEW_BY_KIND = (
    select(item.c.kind, func.count())
    .join(item, item.c.id == review.c.item_id)
    .where(_RECENT, review.c.last_day_before.is_(None))
    .group_by(item.c.kind)
)
STUDY_DAYS = select(func.count(distinct(review.c.study_day))).where(_RECENT)
FIRST_DAY = select(func.min(review.c.study_day))
# The time given to study over the pace's days: every review, a same-day repeat included.
TIME_GIVEN = select(func.sum(review.c.duration_ms)).where(
    review.c.study_day < bindparam("today"), review.c.study_day >= bindparam("since")
)
SECONDS_BY_KIND = (
    select(item.c.kind, func.avg(review.c.duration_ms) / 1000)
    .join(item, item.c.id == review.c.item_id)
    .where(_RECENT)
    .group_by(item.c.kind)
)


def recent_pace(engine: Engine, today: date) -> Pace | None:
    """How the user has been studying: new items a day per kind, the share of days studied and the
    minutes given a study day over the last PACE_DAYS days before today (since the first review
    when that is later), and the seconds a review of each kind took over the last SECONDS_DAYS days
    (None before a day of history)."""
    with engine.connect() as connection:
        first = as_date(connection.execute(FIRST_DAY).scalar())
        if first is None or first >= today:
            return None
        since = max(today - timedelta(days=PACE_DAYS), first)
        window = {"today": today, "since": since}
        new: dict[str, int] = dict(connection.execute(NEW_BY_KIND, window).all())
        studied = connection.execute(STUDY_DAYS, window).scalar() or 0
        given_ms = connection.execute(TIME_GIVEN, window).scalar() or 0
        seconds = connection.execute(
            SECONDS_BY_KIND, {"today": today, "since": today - timedelta(days=SECONDS_DAYS)}
        ).all()
    days = (today - since).days
    return Pace(
        {kind: new.get(kind, 0) / days for kind in KINDS},
        studied / days,
        DEFAULT_SECONDS | {kind: float(mean) for kind, mean in seconds if mean},
        given_ms / 60_000 / studied if studied else None,
    )


def plan_course(engine: Engine, config: Config, today: date, fsrs_settings: FSRSSettings) -> Course | None:
    """Every active item and the user's record, to carry forward to the interview date (None without
    an interview date ahead)."""
    interview = config.interview_date
    if interview is None or interview <= today:
        return None
    settings = InterviewSettings.from_config(config)
    with engine.connect() as connection:
        ids = list(connection.execute(EVERY_ITEM).scalars())
    items = cards(engine, ids)
    return Course(
        items=items,
        today=today,
        interview=interview,
        window=config.plan_window_days,
        scheduler=config.scheduler,
        records=records(engine, config.scheduler),
        asked=settings.wanted(),
        pools={
            section: frozenset(card.item_id for card in drawn)
            for section, drawn in section_pools(items, settings).items()
        },
        fsrs_settings=fsrs_settings,
    )


def plan_reach(
    engine: Engine, config: Config, today: date, fsrs_settings: FSRSSettings, new_per_day: int
) -> Reach | None:
    """The readiness on the interview day at the user's pace (before a day of history, the plan's
    `new_per_day` in config.toml's mix) and the pace that reaches `readiness_target` (None without
    an interview date ahead)."""
    course = plan_course(engine, config, today, fsrs_settings)
    if course is None:
        return None
    pace = recent_pace(engine, today) or Pace(kind_quotas(config.new_mix, new_per_day))
    return reach(course, pace, config.readiness_target, config.max_reviews_per_day)
