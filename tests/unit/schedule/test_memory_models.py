"""The memory-model seam: a registry of models by name, and a third model that is one class and a
`register` call — config.toml accepts it, the study's due days follow it, the comparison scores it."""

import json
import math
from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from drill.cli import main
from drill.config import Config, ConfigError
from drill.schedule import memory
from drill.schedule.grading import ItemState, advance, due_day
from drill.schedule.memory import Rating
from drill.schedule.replay import PastReview, compare
from drill.stats.report import load_report
from drill.study import Study
from drill.study.writes import write_grade


@dataclass(frozen=True)
class EveryOtherDay:
    """A made-up memory model: every item is due two days after its last review, whatever the grade,
    and recall halves every SM-2 interval."""

    name: str = "every-other-day"
    label: str = "Every other day"
    recall_label: str = "halving"

    def curve(self) -> memory.ExponentialRecall:
        return memory.ExponentialRecall("interval", 0.5)

    def due_day(self, state: ItemState) -> date | None:
        return None if state.last_review_day is None else state.last_review_day + timedelta(days=2)

    def recall(self, state: ItemState, day: date) -> float | None:
        return None if state.is_new else 0.5 ** (max(0, (day - state.last_review_day).days) / state.interval)


@pytest.fixture
def every_other_day():
    model = memory.register(EveryOtherDay())
    yield model
    memory.unregister(model.name)


def open_with(paths, clock, scheduler: str) -> Study:
    paths.ensure()
    paths.config.write_text(f'scheduler = "{scheduler}"\n')
    return Study.open(paths, clock)


# -- the registry ------------------------------------------------------------------------------------


def test_the_built_in_models_are_registered_in_order() -> None:
    assert memory.names()[:2] == ("sm2", "fsrs")
    assert [(model.name, model.label) for model in memory.models()[:2]] == [("sm2", "SM-2"), ("fsrs", "FSRS")]
    assert memory.get("fsrs").name == "fsrs"


def test_an_unknown_model_is_an_error_that_lists_the_registered_names() -> None:
    with pytest.raises(memory.UnknownModel) as raised:
        memory.get("leitner")
    assert str(raised.value) == "no memory model 'leitner'; registered: 'sm2', 'fsrs'"
    assert isinstance(raised.value, LookupError)


def test_register_and_unregister(every_other_day) -> None:
    assert memory.names() == ("sm2", "fsrs", "every-other-day")
    assert memory.get("every-other-day") is every_other_day
    assert memory.listed() == '"sm2", "fsrs" or "every-other-day"'
    memory.unregister("every-other-day")
    assert memory.names() == ("sm2", "fsrs")
    with pytest.raises(memory.UnknownModel, match="registered: 'sm2', 'fsrs'"):
        memory.get("every-other-day")


def test_rating_numbers_the_buttons_as_py_fsrs_does() -> None:
    import fsrs

    assert [(rating.name, int(rating)) for rating in Rating] == [(r.name.upper(), int(r)) for r in fsrs.Rating]
    assert list(map(int, Rating)) == [1, 2, 3, 4]


def test_the_built_in_models_read_the_stored_state() -> None:
    day = date(2026, 3, 1)
    state = advance(ItemState(), 4, day, "sm2")
    sm2, fsrs = memory.get("sm2"), memory.get("fsrs")
    assert sm2.due_day(state) == day + timedelta(days=1) == due_day(state, "sm2") == state.due_day
    assert fsrs.due_day(state) == state.fsrs_due_day == due_day(state, "fsrs")
    assert sm2.recall(state, day + timedelta(days=1)) == pytest.approx(0.9)  # 0.9 ** (1 / 1)
    assert 0 < fsrs.recall(state, day + timedelta(days=5)) < fsrs.recall(state, day + timedelta(days=1)) <= 1
    assert sm2.recall(ItemState(), day) is None and fsrs.recall(ItemState(), day) is None
    assert sm2.due_day(ItemState()) is None and fsrs.due_day(ItemState()) is None


# -- config.toml -------------------------------------------------------------------------------------


def test_config_refuses_an_unregistered_scheduler_and_lists_the_registered_ones(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('scheduler = "every-other-day"\n')
    with pytest.raises(ConfigError) as raised:
        Config.load(path)
    assert str(raised.value) == f'{path}:1: scheduler must be "sm2" or "fsrs", not \'every-other-day\''
    path.write_text("scheduler = 2\n")
    with pytest.raises(ConfigError, match='scheduler must be "sm2" or "fsrs", not 2'):
        Config.load(path)


def test_config_accepts_a_registered_third_model(tmp_path, every_other_day) -> None:
    path = tmp_path / "config.toml"
    path.write_text('scheduler = "every-other-day"\n')
    assert Config.load(path).scheduler == "every-other-day"
    path.write_text('scheduler = "leitner"\n')
    with pytest.raises(ConfigError, match='scheduler must be "sm2", "fsrs" or "every-other-day", not \'leitner\''):
        Config.load(path)


# -- a study under the third model ---------------------------------------------------------------------


def test_the_daily_queue_follows_a_third_model(small_paths, clock, every_other_day) -> None:
    """Six cards graded through the Study: each comes back two days after its last grade, where
    SM-2 would bring every first review back the next day."""
    study = open_with(small_paths, clock, "every-other-day")
    start = study.today
    last: dict[str, date] = {}

    def grade(item_id: str, button: int) -> None:
        card = study.reviews.cards([item_id])[0]
        write_grade(study, study.reviews.grade(card, button, 1000))
        last[item_id] = study.today

    def due_by_hand() -> set[str]:
        return {item for item, day in last.items() if day + timedelta(days=2) <= study.today}

    first = study.reviews.queue()
    assert sorted(first) == ["c-1", "c-2", "i-1", "i-2", "m-1", "m-2"]  # all new on day 0
    for item, button in {"m-1": 3, "m-2": 1, "c-1": 4, "c-2": 2, "i-1": 3, "i-2": 1}.items():
        grade(item, button)
    assert sorted(study.reviews.queue()) == ["c-2", "i-2", "m-2"]  # failed today: due again today
    for item in ("m-2", "c-2", "i-2"):
        grade(item, Rating.GOOD)  # passed today: the model's day for the day's counted grade
    assert study.reviews.queue() == []

    clock.now += timedelta(days=1)  # day 1: SM-2 would bring all six back; this model none
    assert all(card.state.sm2_due_day() == study.today for card in study.reviews.cards(first))
    assert study.reviews.queue() == []

    clock.now += timedelta(days=1)  # day 2: all six; grade half of them Easy
    assert sorted(study.reviews.queue()) == sorted(first) and set(study.reviews.queue()) == due_by_hand()
    for item in ("m-1", "c-1", "i-1"):
        grade(item, Rating.EASY)
    assert sorted(study.reviews.queue()) == ["c-2", "i-2", "m-2"]  # the rest stay due

    clock.now += timedelta(days=1)  # day 3: the three left over, overdue
    assert sorted(study.reviews.queue()) == ["c-2", "i-2", "m-2"] == sorted(due_by_hand())
    for item in ("m-2", "c-2", "i-2"):
        grade(item, Rating.GOOD)

    clock.now += timedelta(days=1)  # day 4: the Easy ones (SM-2 would wait 6 days after a second Easy)
    assert sorted(study.reviews.queue()) == ["c-1", "i-1", "m-1"] == sorted(due_by_hand())
    easy = study.reviews.cards(["m-1"])[0].state
    assert (easy.interval, easy.due_day, easy.sm2_due_day()) == (
        6,
        start + timedelta(days=4),
        start + timedelta(days=8),
    )
    assert easy.fsrs_due_day is not None  # FSRS's memory is kept too, whichever model is in use

    clock.now += timedelta(days=1)  # day 5: everything graded by day 3 and not since
    assert sorted(study.reviews.queue()) == sorted(due_by_hand()) == ["c-1", "c-2", "i-1", "i-2", "m-1", "m-2"]
    study.close()

    # Back to SM-2 in config.toml: the next open gives every item SM-2's due day again.
    study = open_with(small_paths, clock, "sm2")
    cards = study.reviews.cards(first)
    assert all(card.state.due_day == card.state.sm2_due_day() for card in cards)
    due = sorted(card.item_id for card in cards if card.state.sm2_due_day() <= study.today)
    assert sorted(study.reviews.queue()) == due
    # SM-2 has m-2 and i-2 (Again, then Good) due on day 4, c-2 (Hard, then Good) on day 9, the Easy ones on day 8.
    assert sorted(study.reviews.queue()) == ["i-2", "m-2"]
    study.close()


# -- the comparison ------------------------------------------------------------------------------------


def test_the_comparison_scores_every_registered_model(every_other_day) -> None:
    start = date(2026, 3, 1)
    history = [
        PastReview("a", start, 3, 4),
        PastReview("a", start + timedelta(days=1), 3, 4),
        PastReview("a", start + timedelta(days=7), 1, 2),
    ]
    result = compare(history)
    assert list(result.fits) == ["sm2", "fsrs", "every-other-day"]
    assert result.fits["every-other-day"].log_loss == pytest.approx(math.log(2))  # 0.5 for a pass and a lapse
    assert result.sm2 == result.fits["sm2"]
    assert set(result.model_dump(mode="json")["models"]) == {"sm2", "fsrs", "every-other-day"}
    assert result.better in memory.names()


def test_scheduler_compare_names_a_third_model(capsys, small_paths, clock, every_other_day) -> None:
    study = open_with(small_paths, clock, "every-other-day")
    for gap, button in ((0, 3), (2, 3), (2, 1)):
        clock.now += timedelta(days=gap)
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], button, 1000))
    study.close()
    assert main(["scheduler", "compare", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["scheduler"] == "every-other-day" and body["compared"] == 2
    # A pass 2 days into a 1-day interval (0.5 ** 2), then a lapse 2 days into a 6-day one (0.5 ** (1/3)).
    log_loss = (-math.log(0.25) - math.log(1 - 0.5 ** (1 / 3))) / 2
    assert body["models"]["every-other-day"]["log_loss"] == pytest.approx(log_loss)
    assert main(["scheduler", "compare"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split()[:4] == ["Every", "other", "day", f"{log_loss:.4f}"] for line in lines)
    assert "scheduler in use: every-other-day" in "\n".join(lines)


# -- the forgetting curve the stats evaluate in SQL -------------------------------------------------


@pytest.mark.parametrize("name", ["sm2", "fsrs"])
def test_a_models_curve_gives_its_own_recall(name) -> None:
    """The curve the stats' SQL evaluates is the model's `recall`, written out."""
    model, day = memory.get(name), date(2026, 3, 1)
    state = advance(advance(ItemState(), 4, day, "sm2"), 4, day + timedelta(days=1), "sm2")
    curve = model.curve()
    held = state.interval if curve.memory == "interval" else state.memory.stability
    for days in (0, 1, 3, 10, 40):
        if isinstance(curve, memory.ExponentialRecall):
            expected = curve.base ** (days / held)
        else:
            expected = (1 + curve.factor * days / held) ** -curve.decay
        assert model.recall(state, state.last_review_day + timedelta(days=days)) == pytest.approx(expected)


def test_readiness_and_calibration_follow_a_third_models_curve(small_paths, clock, every_other_day) -> None:
    study = open_with(small_paths, clock, "every-other-day")
    for gap in (0, 2):  # Good on day 0 (SM-2 interval 1), Good again 2 days later: predicted 0.5 ** 2
        clock.now += timedelta(days=gap)
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], Rating.GOOD, 1000))
    clock.now += timedelta(days=3)  # 3 days into the 6-day interval the second Good gave
    report = load_report(study)
    study.close()
    memory_block = next(block for block in report.readiness.blocks if block.block == "memory")
    assert memory_block.recall == pytest.approx(0.5 ** (3 / 6))
    assert report.readiness.calibration.model == "every-other-day"
    assert report.readiness.calibration.predicted == pytest.approx(0.25)
