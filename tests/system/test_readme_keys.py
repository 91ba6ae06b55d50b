"""README's keys table and the screens' bindings cannot drift apart: every key a screen's Footer shows
has a row for that screen (or for "anywhere"), and every key a row gives a screen is bound there (on the
screen, a widget on it, or the app). At 80×24 the Footers of home, review and stats, in each state,
show nothing the table does not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.content import estimates_only, pitch_only
from helpers.footer import footer_keys
from helpers.pilot import wait_ready, wait_until
from helpers.screens import open_review
from textual.binding import Binding
from textual.widgets import DataTable, TextArea

from drill.tui.app import DrillApp
from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.browser import BrowserScreen
from drill.tui.screens.card_info import CardInfoScreen
from drill.tui.screens.custom_session import CustomSessionScreen
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen
from drill.tui.screens.home import HomeScreen
from drill.tui.screens.mock.interview import MockInterviewScreen
from drill.tui.screens.mock.interview_history import MockInterviewHistoryScreen
from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen
from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen
from drill.tui.screens.mock.round import MockRoundScreen
from drill.tui.screens.mock.round_history import MockHistoryScreen
from drill.tui.screens.mock.round_setup import MockSetupScreen
from drill.tui.screens.mock.round_summary import MockSummaryScreen, PastRoundScreen
from drill.tui.screens.review import ReviewScreen
from drill.tui.screens.stats import StatsScreen
from drill.tui.screens.summary import SummaryScreen
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.item_table import ItemTable

README = Path(__file__).resolve().parents[2] / "README.md"
ANYWHERE = "anywhere"

# The table's "where" (before any comma) → the screen, and the widgets on it whose keys a row may give.
SCREENS: dict[str, tuple[type, tuple[type, ...]]] = {
    "home": (HomeScreen, ()),
    "review": (ReviewScreen, (Checklist, TextArea)),
    "session summary": (SummaryScreen, ()),
    "stats": (StatsScreen, ()),
    "coding drills": (DrillListScreen, ()),
    "coding drill": (DrillScreen, ()),
    "custom session": (CustomSessionScreen, ()),
    "browser": (BrowserScreen, (ItemTable,)),
    "card info": (CardInfoScreen, ()),
    "mock setup": (MockSetupScreen, ()),
    "mock round": (MockRoundScreen, ()),
    "round summary": (MockSummaryScreen, ()),
    "past round": (PastRoundScreen, ()),
    "round history": (MockHistoryScreen, (DataTable,)),
    "mock interview setup": (MockInterviewSetupScreen, ()),
    "mock interview": (MockInterviewScreen, ()),
    "interview history": (MockInterviewHistoryScreen, (DataTable,)),
    "scorecard": (MockInterviewScorecardScreen, ()),
    "a question": (Confirm, ()),
}
README_NAMES = {"F1": "f1", "/": "slash"}  # how the table writes a key → how a Binding names it


def table_rows() -> list[tuple[set[str], str]]:
    """(keys, where) for each row of README's keys table."""
    text = README.read_text()
    table = text[text.index("| key | where | does |") :].split("\n\n", 1)[0].splitlines()[2:]
    rows = []
    for line in table:
        key_cell, where = (cell.strip() for cell in line.strip("|").split("|")[:2])
        keys: set[str] = set()
        for first, last in re.findall(r"`([^`]+)`(?:–`([^`]+)`)?", key_cell):
            span = [str(n) for n in range(int(first), int(last) + 1)] if last else [first]
            keys |= {README_NAMES.get(key, key) for key in span}
        rows.append((keys, where.split(",")[0].strip()))
    return rows


def readme_keys(where: str) -> set[str]:
    return set().union(*(keys for keys, place in table_rows() if place == where))


def binding_keys(bindings) -> set[str]:
    """Every key of these bindings ('escape,enter' is two)."""
    keys: set[str] = set()
    for binding in bindings:
        key = binding.key if isinstance(binding, Binding) else binding[0]
        keys |= {part.strip() for part in key.split(",")}
    return keys


def shown_keys(screen: type) -> set[str]:
    """The keys a screen's own bindings put in its Footer."""
    return binding_keys(
        binding for binding in screen._merged_bindings.key_to_bindings.values() for binding in binding if binding.show
    )


def test_the_table_names_only_known_places() -> None:
    places = {place for _, place in table_rows()}
    assert places <= {*SCREENS, ANYWHERE}, places - {*SCREENS, ANYWHERE}
    assert {HomeScreen, ReviewScreen, StatsScreen} <= {screen for screen, _ in SCREENS.values()}


@pytest.mark.parametrize("where", list(SCREENS))
def test_every_key_in_the_footer_has_a_row(where: str) -> None:
    screen, _ = SCREENS[where]
    missing = shown_keys(screen) - readme_keys(where) - readme_keys(ANYWHERE)
    assert not missing, f"README's keys table has no row for {sorted(missing)} on {where}"


@pytest.mark.parametrize("where", list(SCREENS))
def test_every_key_in_the_table_is_bound_there(where: str) -> None:
    screen, widgets = SCREENS[where]
    bound = binding_keys(
        binding
        for owner in (screen, *widgets, DrillApp)
        for bindings in owner._merged_bindings.key_to_bindings.values()
        for binding in bindings
    )
    stale = readme_keys(where) - bound
    assert not stale, f"README's keys table gives {where} {sorted(stale)}, which it does not bind"


def test_the_keys_that_work_anywhere_are_the_apps() -> None:
    app_keys = binding_keys(b for bs in DrillApp._merged_bindings.key_to_bindings.values() for b in bs)
    assert readme_keys(ANYWHERE) - {"escape", "ctrl+p"} <= app_keys  # escape: each screen binds its own


# -- the Footers as drawn, in each state, at 80×24 ---------------------------------------------------


def footer_shows_only_documented_keys(screen, where: str) -> None:
    shown = set(footer_keys(screen))
    undocumented = shown - readme_keys(where) - readme_keys(ANYWHERE)
    assert not undocumented, f"{where}'s Footer shows {sorted(undocumented)}, which README's keys table does not list"


@pytest.mark.slow
async def test_home_stats_and_summary_footers_match_the_table(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        footer_shows_only_documented_keys(app.screen, "home")
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.has_class("loaded"))
        footer_shows_only_documented_keys(app.screen, "stats")
        await pilot.press("escape", "r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        while isinstance(app.screen, ReviewScreen):
            await pilot.press("space")
            footer_shows_only_documented_keys(app.screen, "review")
            await pilot.press("3")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
        footer_shows_only_documented_keys(app.screen, "session summary")


@pytest.mark.slow
async def test_review_footers_of_a_pitch_and_an_estimate_match_the_table(small_paths, clock) -> None:
    pitch_only(small_paths)
    estimates_only(small_paths, "kv-cache.toml")
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        kinds = set()
        while isinstance(app.screen, ReviewScreen) and screen.session.current is not None:
            card = screen.session.current
            kinds.add(card.kind)
            footer_shows_only_documented_keys(screen, "review")
            if card.kind == "pitch":
                await pilot.press("t", "x")
                footer_shows_only_documented_keys(screen, "review")
                await pilot.press("tab", "space", "tab")
                footer_shows_only_documented_keys(screen, "review")
                await pilot.press("3")
            else:
                await pilot.press(*screen.view.problem.pretty, "enter")
                footer_shows_only_documented_keys(screen, "review")
                await pilot.press("enter")
            await pilot.pause()
        assert kinds == {"pitch", "estimate"}
