"""The daily session mixes every kind from day one: the new-item mix, spreading, coding drills."""

import json
import shutil
from pathlib import Path

import pytest
from helpers.due_drill import drill_due  # noqa: F401  (a fixture)
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Markdown

from drill.cli import main
from drill.config import Config, ConfigError
from drill.paths import Paths
from drill.schedule.queue import DEFAULT_NEW_MIX, Candidate, Limits, build, kind_quotas, spread_kinds
from drill.tui.app import DrillApp
from drill.tui.dialogs.choose import Choose
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.review import ReviewScreen

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


async def open_review(pilot) -> ReviewScreen:
    """Today's review on a home whose first open syncs all the shipped content."""
    await wait_ready(pilot)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), timeout=20)
    return pilot.app.screen


def new(item_id: str, kind: str, block: str = "memory") -> Candidate:
    return Candidate(item_id, block, None, kind)


def pool() -> list[Candidate]:
    """Plenty of unseen items of every kind over two blocks, in content order."""
    items = []
    for kind, number in (("card", 30), ("pitch", 6), ("estimate", 6), ("coding", 4)):
        items += [new(f"{kind}-{n}", kind, ("memory", "compute")[n % 2]) for n in range(number)]
    return items


def kinds(ids: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item_id in ids:
        kind = item_id.split("-")[0]
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def test_quotas_are_the_mix_when_it_fits() -> None:
    assert kind_quotas({"card": 10, "pitch": 2, "estimate": 2, "coding": 1}, 15) == {
        "card": 10,
        "pitch": 2,
        "estimate": 2,
        "coding": 1,
    }
    assert kind_quotas({"card": 3, "estimate": 0}, 40) == {"card": 3}


def test_a_smaller_day_keeps_estimation_first_then_every_kind() -> None:
    mix = {"card": 10, "pitch": 2, "estimate": 2, "coding": 1}
    assert kind_quotas(mix, 1) == {"card": 0, "pitch": 0, "estimate": 1, "coding": 0}
    assert kind_quotas(mix, 5) == {"card": 3, "pitch": 1, "estimate": 1, "coding": 0}
    assert sum(kind_quotas(mix, 7).values()) == 7


def test_the_first_day_follows_the_mix_and_spreads_the_blocks() -> None:
    order = build([], pool(), Limits(new_per_day=15))
    assert kinds(order) == {"card": 10, "pitch": 2, "estimate": 2, "coding": 1}
    cards = [item for item in order if item.startswith("card")]
    assert cards[:4] == ["card-0", "card-1", "card-2", "card-3"]  # memory, compute, memory, compute


def test_new_items_already_given_today_count_against_their_own_kind() -> None:
    limits = Limits(new_per_day=15, new_done_today=3, new_done_by_kind={"estimate": 2, "coding": 1})
    assert kinds(build([], pool(), limits)) == {"card": 10, "pitch": 2}


def test_room_a_kind_leaves_is_filled_by_the_others_but_never_by_coding() -> None:
    only_cards_left = [new(f"card-{n}", "card") for n in range(20)] + [new(f"coding-{n}", "coding") for n in range(5)]
    assert kinds(build([], only_cards_left, Limits(new_per_day=15))) == {"card": 14, "coding": 1}


def test_kinds_are_spread_through_the_session_in_their_own_order() -> None:
    items = (
        [new(f"card-{n}", "card") for n in range(6)]
        + [new("coding-0", "coding")]
        + [new(f"estimate-{n}", "estimate") for n in range(2)]
    )
    spread = [item.item_id for item in spread_kinds(items)]
    # each item sits at (rank + ½) / its kind's count: cards at 1/12, 3/12 … 11/12, estimates at
    # 3/12 and 9/12 (after the card that ties), the drill at 6/12
    assert spread == [
        "card-0",
        "card-1",
        "estimate-0",
        "card-2",
        "coding-0",
        "card-3",
        "card-4",
        "estimate-1",
        "card-5",
    ]


def test_config_mix_alone_sets_the_daily_total(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("new_mix = { card = 5, estimate = 3 }\n")
    config = Config.load(path)
    assert config.new_mix == {"card": 5, "estimate": 3} and config.new_per_day == 8
    assert Config.load(tmp_path / "missing.toml").new_mix == dict(DEFAULT_NEW_MIX)
    for bad in ("new_mix = { cards = 5 }", "new_mix = { card = -1 }", "new_mix = 3", 'new_mix = { card = "5" }'):
        path.write_text(bad + "\n")
        with pytest.raises(ConfigError, match="new_mix must map kinds"):
            Config.load(path)


def test_drill_queue_json_on_a_fresh_home_holds_the_mix(capsys) -> None:
    assert main(["queue", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert set(rows[0]) == {"id", "kind", "block", "topic", "new"}
    counts = {kind: sum(row["kind"] == kind for row in rows) for kind in DEFAULT_NEW_MIX}
    assert counts == dict(DEFAULT_NEW_MIX)
    assert all(row["new"] for row in rows)
    assert len({row["block"] for row in rows if row["kind"] == "card"}) == 5


def test_drill_queue_text_counts_each_kind(capsys) -> None:
    assert main(["queue"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "15 items: 10 card, 2 pitch, 2 estimate, 1 coding"


@pytest.mark.slow
async def test_a_fresh_homes_first_session_mixes_every_kind(drill_home, clock) -> None:
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_review(pilot)
        cards = list(app.screen.session.cards.values())
        counts = {kind: sum(card.kind == kind for card in cards) for kind in DEFAULT_NEW_MIX}
        assert counts == dict(DEFAULT_NEW_MIX)
        assert app.screen.session.current.kind != "coding"  # a drill is not the first thing of the day


@pytest.mark.slow
async def test_a_due_drill_comes_up_in_the_review_and_opens_the_drill_screen(drill_due, drill_home, clock) -> None:
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        assert "dpo-loss" in str(app.home_screen.query_one("#headline").render())
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        review = app.screen
        assert review.session.current.item_id == drill_due
        assert "Coding drill" in review.view.query_one("#prompt", Markdown).source
        await pilot.press("space")  # nothing to reveal: a drill is started, not flipped
        assert isinstance(app.screen, ReviewScreen) and not review.view.allows("grade") and not review.session.given
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen))
        drill_screen = app.screen
        assert drill_screen.card.item_id == drill_due and drill_screen.back_to_session
        await pilot.press("escape", "k")  # left unfinished and kept: it waits in the session
        await wait_until(pilot, lambda: app.screen is review)
        assert review.session.current.item_id == drill_due
        await pilot.press("enter")  # the card offers the kept attempt again
        await wait_until(pilot, lambda: isinstance(app.screen, Choose))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen) and app.screen is not drill_screen)
        attempt = app.screen
        assert attempt.workspace == drill_screen.workspace
        shutil.copy(KERNELS / "dpo-loss" / "solution.py", attempt.workspace.solution)
        await pilot.press("t")
        await wait_until(pilot, lambda: attempt.finished == "pass", timeout=120)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, (DrillScreen, ReviewScreen)))
    rows = db_rows(app, "SELECT item_id, study_day FROM review ORDER BY id")
    assert rows == [(drill_due, "2026-11-16"), (drill_due, "2026-11-22")]


@pytest.mark.slow
async def test_later_today_moves_a_drill_behind_the_other_items(drill_home, clock) -> None:
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_review(pilot)
        review = app.screen
        drill = next(card.item_id for card in review.session.cards.values() if card.kind == "coding")
        review.session.order.remove(drill)
        review.session.order.appendleft(drill)
        review.show_current()
        await pilot.press("l")
        assert review.session.order[-1] == drill and review.session.current.item_id != drill
