"""Snapshots of home (fresh, with a history, towards an interview date with its readiness, over a damaged database),
help (F1) and the interview-date dialog, at 80×24 and 120×36."""

from pathlib import Path

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import SIZE_IDS, SIZES, all_content, history, home, snapshot

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


def fresh(paths, clock) -> None:
    all_content(paths)


def with_history(paths, clock) -> None:
    history(all_content(paths), clock)


def towards_an_interview(paths, clock) -> None:
    with_history(paths, clock)
    (paths.home / "config.toml").write_text("interview_date = 2026-12-06\nplan_window_days = 7\n")


def damaged(paths) -> None:
    paths.database.parent.mkdir(parents=True, exist_ok=True)
    paths.database.write_bytes(b"this is not a database\n" * 64)


async def failed(pilot) -> None:
    def said() -> bool:
        headline = pilot.app.home_screen.query("#headline")
        return bool(headline) and "damaged" in str(headline.first().render())

    await wait_until(pilot, said)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize(
    "prepare", [fresh, with_history, towards_an_interview], ids=["fresh", "with-history", "interview-date"]
)
def test_home(snap_compare, small_paths, clock, size, prepare) -> None:
    prepare(small_paths, clock)
    assert snapshot(snap_compare, small_paths, clock, size, home_with_readiness)


async def home_with_readiness(pilot) -> None:
    """Home, and with an interview date the readiness it is heading for, worked out after the counts."""
    await home(pilot)
    if pilot.app.study.config.interview_date is not None:
        await wait_until(pilot, lambda: pilot.app.home_screen.has_class("readiness-read"))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_home_over_a_damaged_database(snap_compare, small_paths, clock, size, monkeypatch) -> None:
    """The home folder is named relative to the working folder, so the message names the same file on every run."""
    monkeypatch.chdir(small_paths.home.parent)
    paths = type(small_paths)(Path(small_paths.home.name), all_content(small_paths).decks)
    damaged(paths)
    assert snapshot(snap_compare, paths, clock, size, failed)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_help_over_home(snap_compare, small_paths, clock, size) -> None:
    async def steps(pilot) -> None:
        await home(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(pilot.app.screen.query("HelpPanel")))

    assert snapshot(snap_compare, all_content(small_paths), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize(
    ("config", "typed"),
    [
        ("", ""),
        ("interview_date = 2026-12-06\n", ""),
        ("", "2026-13-40"),
        ("", "2026-11-01"),
    ],
    ids=["empty", "current-date", "not-a-date", "date-passed"],
)
def test_interview_date_dialog(snap_compare, small_paths, clock, size, config, typed) -> None:
    from drill.tui.dialogs.ask_date import AskDate

    (small_paths.home / "config.toml").parent.mkdir(parents=True, exist_ok=True)
    (small_paths.home / "config.toml").write_text(config)

    async def steps(pilot) -> None:
        await home_with_readiness(pilot)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, AskDate))
        if typed:
            await pilot.press(*typed, "enter")
            await wait_until(pilot, lambda: bool(str(pilot.app.screen.query_one("#ask-date-error").render())))

    assert snapshot(snap_compare, all_content(small_paths), clock, size, steps)
