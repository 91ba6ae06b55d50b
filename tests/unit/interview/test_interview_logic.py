"""The mock interview's pure logic: settings, which items are drawn, and the scorecard."""

import random
from datetime import date, timedelta

import pytest
from pydantic import TypeAdapter

from drill.config import Config, ConfigError
from drill.interview.plan import InterviewPlan, Step, draw, section_of
from drill.interview.scorecard import InterviewAnswer, Scorecard, button_score
from drill.interview.settings import InterviewSettings
from drill.schedule.grading import ItemState
from drill.schedule.records import Card

TODAY = date(2026, 11, 22)


NEW = ItemState()


def card(
    item_id: str,
    kind: str = "card",
    block: str = "memory",
    topic: str = "Memory",
    target: int | None = None,
    state: ItemState = NEW,
) -> Card:
    return Card(item_id, kind, block, topic, f"Prompt of {item_id}?", "Answer.", "source", ["a point"], target, state)


def pool() -> list[Card]:
    seen = ItemState(
        repetitions=1, interval=4, due_day=TODAY + timedelta(days=3), last_review_day=TODAY - timedelta(days=1)
    )
    due = ItemState(
        repetitions=1, interval=1, due_day=TODAY - timedelta(days=1), last_review_day=TODAY - timedelta(days=2)
    )
    return [
        card("grill-01", topic="Memory", state=seen),
        card("grill-02", topic="Memory"),
        card("grill-03", topic="Compute", state=seen),
        card("grill-04", topic="Inference", state=due),
        card("numbers-01", topic="Numbers"),  # a card outside the grill is never asked
        card("pitch-a-30", "pitch", topic="FlashAttention", target=30),
        card("pitch-a-120", "pitch", topic="FlashAttention", target=120),
        card("pitch-b-120", "pitch", topic="ZeRO", target=120),
        card("estimate:kv-cache", "estimate", block="memory"),
        card("estimate:mfu", "estimate", block="compute"),
        card("estimate:train-memory", "estimate", block="memory"),
        card("kernel:dpo-loss", "coding", block="training", target=900),
    ]


def test_sections_come_from_the_grill_prefix_and_the_kinds() -> None:
    assert [section_of(c) for c in pool()] == [
        "grill",
        "grill",
        "grill",
        "grill",
        None,
        "pitch",
        "pitch",
        "pitch",
        "estimate",
        "estimate",
        "estimate",
        "coding",
    ]


def test_draw_asks_in_interview_order_due_first_spread_over_topics_and_blocks() -> None:
    settings = InterviewSettings(grill=3, pitch_seconds=120, estimates=2, coding=True)
    drawn = draw(pool(), settings, random.Random(1), TODAY)
    sections = [section for section, _ in drawn]
    assert sections == ["grill", "grill", "grill", "pitch", "estimate", "estimate", "coding"]
    grill = [c for s, c in drawn if s == "grill"]
    assert grill[0].item_id == "grill-04"  # due today: the interview is its review
    assert len({c.topic for c in grill}) == 3  # three topics before any repeats
    assert [c.target_seconds for s, c in drawn if s == "pitch"] == [120]
    estimates = [c for s, c in drawn if s == "estimate"]
    assert {c.block for c in estimates} == {"memory", "compute"}
    # the same seed draws the same interview
    assert draw(pool(), settings, random.Random(1), TODAY) == drawn


def test_draw_fills_up_when_topics_run_out_and_takes_any_rung_when_the_chosen_one_is_missing() -> None:
    drawn = draw(pool(), InterviewSettings(grill=6, pitch_seconds=300, estimates=0), random.Random(2), TODAY)
    assert [s for s, _ in drawn] == ["grill"] * 4 + ["pitch"]  # only four grill items exist
    assert len({c.item_id for _, c in drawn}) == 5


def test_settings_validate_and_round_trip_through_config() -> None:
    assert InterviewSettings().wanted() == {"grill": 3, "pitch": 1, "estimate": 3, "coding": 0}
    assert InterviewSettings(grill=0, pitch_seconds=0, estimates=0).problem() == "Pick at least one section."
    assert InterviewSettings(minutes=0).problem()
    settings = InterviewSettings(minutes=30, grill=2, pitch_seconds=30, estimates=4, coding=True)
    config = Config(**settings.config_values())
    assert InterviewSettings.from_config(config) == settings
    assert InterviewSettings.model_validate(settings.model_dump()) == settings


@pytest.mark.parametrize(
    "line",
    [
        "mock_interview_pitch = 45",
        "mock_interview_grill = -1",
        "mock_interview_coding = 1",
        'mock_interview_minutes = "long"',
    ],
)
def test_bad_interview_settings_in_config_are_refused(tmp_path, line) -> None:
    path = tmp_path / "config.toml"
    path.write_text(line + "\n")
    with pytest.raises(ConfigError, match=line.split()[0]):
        Config.load(path)


def answer(position: int, section: str, score: float, **more) -> InterviewAnswer:
    return InterviewAnswer(position, section, f"{section}-{position}", 60.0, score, **more)


def test_scorecard_scores_each_section_unanswered_as_zero_and_weighs_sections_equally() -> None:
    settings = InterviewSettings(grill=2, pitch_seconds=120, estimates=3)
    planned = {"grill": 2, "pitch": 1, "estimate": 3, "coding": 0}
    answers = (
        answer(0, "grill", button_score(3), button=3),
        answer(1, "grill", button_score(4), button=4),
        answer(2, "pitch", button_score(2), button=2, target_seconds=120),
        answer(3, "estimate", 0.9, detail="slip A"),
        answer(4, "estimate", 0.3, detail="slip B"),
    )
    card = Scorecard(
        settings=settings, planned=planned, answers=answers, seconds_used=900.0, ended="time", interview_id=7
    )
    scores = card.section_scores()
    assert scores["grill"] == pytest.approx(5 / 6)
    assert scores["pitch"] == pytest.approx(1 / 3)
    assert scores["estimate"] == pytest.approx(1.2 / 3)  # the third problem was never answered
    assert scores["coding"] is None
    assert card.score == pytest.approx((5 / 6 + 1 / 3 + 0.4) / 3)
    assert [a.detail for a in card.worst_estimates()] == ["slip B", "slip A"]
    data = card.model_dump(mode="json")
    assert data["ended"] == "time" and not data["abandoned"] and data["seconds_allowed"] == 45 * 60
    assert data["sections"]["estimate"] == {"planned": 3, "answered": 2, "score": 0.4, "seconds": 120.0}
    assert len(data["answers"]) == 5 and "coding" not in data["sections"]


def test_plan_counts_what_was_drawn() -> None:
    steps = (Step("grill", card("grill-01")), Step("estimate", card("estimate:mfu", "estimate")))
    plan = InterviewPlan(InterviewSettings(grill=3, estimates=1, pitch_seconds=0), steps)
    assert plan.planned == {"grill": 1, "pitch": 0, "estimate": 1, "coding": 0}
    assert TypeAdapter(InterviewPlan).dump_python(plan, mode="json")["items"] == [
        ["grill", "grill-01"],
        ["estimate", "estimate:mfu"],
    ]
