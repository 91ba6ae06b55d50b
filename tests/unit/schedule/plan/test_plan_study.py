"""The interview plan through the study library, with a fake clock: effective due days at queue
time, even daily counts, unseen content finished by the date, normal scheduling afterwards."""

from datetime import date, timedelta

import pytest
from helpers.content import TestPaths, write_deck
from sqlalchemy import text

from drill.config import Config, set_interview_date
from drill.schedule.plan import assign_targets
from drill.store.transactions import writing
from drill.study import Study
from drill.study.writes import write_grade

TODAY = date(2026, 11, 22)  # the study day of conftest's FIXED_NOW
INTERVIEW = date(2026, 12, 2)
WINDOW = [date(2026, 11, 25) + timedelta(days=n) for n in range(7)]


def make_study(drill_home, deck_dir, clock, cards: int, interview: date | None = INTERVIEW, **settings) -> Study:
    write_deck(deck_dir, "a.toml", [(f"x-{n:02d}", ("memory", "compute", "inference")[n % 3]) for n in range(cards)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    paths.config.write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
    config = set_interview_date(paths, interview)
    study = Study(paths, config, clock)
    study.sync()
    return study


def set_states(study: Study, states: dict[str, tuple[date, date]], repetitions: int = 2, interval: int = 6) -> None:
    """(due_day, last_review_day) per item; SM-2 state such that Good sends it past the interview."""
    with writing(study.engine) as connection:
        for item_id, (due, last) in states.items():
            connection.execute(
                text("UPDATE item SET due_day=:due, last_review_day=:last, repetitions=:r, interval=:i WHERE id=:id"),
                {"due": due, "last": last, "r": repetitions, "i": interval, "id": item_id},
            )


def stored_due(study: Study) -> dict[str, str | None]:
    with study.engine.connect() as connection:
        return dict(connection.execute(text("SELECT id, due_day FROM item")).all())


def review_all(study: Study) -> list[str]:
    """Answer Good to today's queue, one card at a time; return the ids in the order seen."""
    seen: list[str] = []
    while ids := study.reviews.queue():
        card = study.reviews.cards(ids[:1])[0]
        write_grade(study, study.reviews.grade(card, 3, 1000))
        seen.append(card.item_id)
    return seen


# Ten items due after the interview (earliest due first: x-00 … x-09), four due inside the window.
LATE = {f"x-{n:02d}": (INTERVIEW + timedelta(days=1 + n), date(2026, 11, 10)) for n in range(10)}
IN_WINDOW = {
    "x-10": (date(2026, 11, 26), date(2026, 11, 20)),
    "x-11": (date(2026, 11, 26), date(2026, 11, 20)),
    "x-12": (date(2026, 11, 26), date(2026, 11, 20)),
    "x-13": (date(2026, 11, 28), date(2026, 11, 22 - 6)),
}


def test_items_due_after_the_interview_are_seen_on_their_target_days(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14)
    set_states(study, LATE | IN_WINDOW)
    before = stored_due(study)
    plan = study.browsing.home().plan
    assert plan.brought_forward == 10 and plan.days_left == 10 and plan.unseen == 0
    shares = [day.brought_forward for day in plan.days]
    assert shares == [0, 0, 0, 2, 0, 2, 1, 2, 2, 1]
    expected = assign_targets(sorted(LATE), WINDOW, shares[3:])
    assert expected == {
        "x-00": WINDOW[0],
        "x-01": WINDOW[0],
        "x-02": WINDOW[2],
        "x-03": WINDOW[2],
        "x-04": WINDOW[3],
        "x-05": WINDOW[4],
        "x-06": WINDOW[4],
        "x-07": WINDOW[5],
        "x-08": WINDOW[5],
        "x-09": WINDOW[6],
    }
    assert study.reviews.queue() == [] and stored_due(study) == before  # planning writes nothing

    seen_on: dict[str, date] = {}
    daily: list[int] = []
    for _ in range(10):
        home = study.browsing.home()
        seen = review_all(study)
        assert home.due_today == len(seen)  # the home count is what the queue serves
        daily.append(len(seen))
        for item_id in seen:
            seen_on.setdefault(item_id, study.today)
        clock.now += timedelta(days=1)
    assert {item_id: seen_on[item_id] for item_id in LATE} == expected
    assert daily == [0, 0, 0, 2, 3, 2, 2, 2, 2, 1]  # even: reviews already due plus those brought forward
    assert study.today == INTERVIEW and study.browsing.home().plan is None


def test_the_queue_is_stable_while_the_user_works_through_a_day(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14)
    set_states(study, LATE | IN_WINDOW)
    clock.now += timedelta(days=3)  # 25 Nov: two brought forward
    first = study.reviews.queue()
    assert first == ["x-00", "x-01"]
    write_grade(study, study.reviews.grade(study.reviews.cards(first[:1])[0], 3, 1000))
    assert study.reviews.queue() == ["x-01"]


def test_a_skipped_day_is_spread_again_not_piled_up(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14)
    set_states(study, LATE | IN_WINDOW)
    clock.now += timedelta(days=4)  # 26 Nov; nothing was reviewed on 25 Nov
    plan = study.browsing.home().plan
    # 26 Nov already has three reviews due, so the ten go to the five days after it.
    assert [day.brought_forward for day in plan.days] == [0, 3, 1, 2, 2, 2]
    assert [day.reviews + day.brought_forward for day in plan.days] == [3, 3, 2, 2, 2, 2]
    assert len(study.reviews.queue()) == 3


def test_unseen_content_is_finished_before_the_interview(drill_home, deck_dir, clock) -> None:
    interview = TODAY + timedelta(days=4)
    study = make_study(drill_home, deck_dir, clock, cards=30, interview=interview, new_per_day=5)
    home = study.browsing.home()
    assert home.new_per_day_needed == 8 and home.new_pace == 8 and home.new_available == 8
    new_seen, needed = [], []
    for _ in range(4):
        needed.append(study.browsing.home().new_per_day_needed)
        seen = review_all(study)
        assert study.browsing.home().new_per_day_needed == needed[-1]  # steady through the day
        with study.engine.connect() as connection:
            new_seen.append(
                connection.execute(
                    text("SELECT COUNT(*) FROM review WHERE study_day = :d AND last_day_before IS NULL"),
                    {"d": study.today},
                ).scalar_one()
            )
        assert len(seen) >= new_seen[-1]
        clock.now += timedelta(days=1)
    assert needed == [8, 8, 7, 7]  # ceil(30/4), ceil(22/3), ceil(14/2), ceil(7/1)
    assert new_seen == [8, 8, 7, 7] and sum(new_seen) == 30
    assert study.today == interview
    assert study.browsing.home().by_block and all(counts.new == 0 for counts in study.browsing.home().by_block.values())


def test_after_the_date_normal_due_days_return(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14)
    set_states(study, LATE | IN_WINDOW)
    before = stored_due(study)
    clock.now += timedelta(days=9)  # 1 Dec, the last day before the interview: every late item is due
    assert sorted(study.reviews.queue()) == sorted(LATE | IN_WINDOW)  # (and the in-window ones, overdue)
    assert stored_due(study) == before
    clock.now += timedelta(days=1)  # the interview day: stored SM-2 due days again
    assert study.reviews.queue() == ["x-10", "x-11", "x-12", "x-13"]
    assert study.browsing.home().plan is None and study.browsing.home().new_per_day_needed is None
    clock.now += timedelta(days=2)  # 4 Dec: x-00 (due 3 Dec) and x-01 (due 4 Dec) come back on their own
    assert study.reviews.queue()[-2:] == ["x-00", "x-01"]


@pytest.mark.slow
def test_items_already_seen_in_the_final_window_stay_put(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=4)
    set_states(
        study,
        {
            "x-00": (INTERVIEW + timedelta(days=5), date(2026, 11, 25)),  # seen in the window: not brought forward
            "x-01": (INTERVIEW + timedelta(days=5), date(2026, 11, 24)),  # seen just before it: brought forward
            "x-02": (INTERVIEW, date(2026, 11, 10)),  # due on the interview day itself: not brought forward
            "x-03": (INTERVIEW + timedelta(days=1), date(2026, 11, 10)),
        },
    )
    clock.now += timedelta(days=5)  # 27 Nov
    assert study.browsing.home().plan.brought_forward == 2
    assert study.reviews.queue() == ["x-03"]  # earliest due first
    clock.now += timedelta(days=1)
    assert study.reviews.queue() == ["x-03"]  # skipped yesterday: the two are spread again over 28 Nov – 1 Dec
    clock.now += timedelta(days=3)
    assert study.reviews.queue() == ["x-03", "x-01"]  # the last day before the interview takes what is left


def test_clearing_the_date_restores_normal_scheduling(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14)
    set_states(study, LATE | IN_WINDOW)
    clock.now += timedelta(days=9)
    assert len(study.reviews.queue()) == 14
    study.config = set_interview_date(study.paths, None)
    assert study.reviews.queue() == ["x-10", "x-11", "x-12", "x-13"] and study.browsing.home().plan is None


def test_the_window_is_configurable(drill_home, deck_dir, clock) -> None:
    study = make_study(drill_home, deck_dir, clock, cards=14, plan_window_days=3)
    set_states(study, LATE)
    plan = study.browsing.home().plan
    assert [day.brought_forward for day in plan.days] == [0] * 7 + [4, 3, 3]
    assert Config.load(study.paths.config).plan_window_days == 3
