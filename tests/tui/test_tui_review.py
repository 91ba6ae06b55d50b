"""Pilot tests: keys pressed through the app, results read back from the database."""

import sqlite3

import pytest
from helpers.footer import cut_keys, footer_labels
from helpers.pilot import db_rows, wait_ready, wait_until
from helpers.screens import start_review
from textual.widgets import Markdown

from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen
from drill.tui.screens.summary import SummaryScreen


def make_app(paths, clock, **kwargs) -> DrillApp:
    return DrillApp(paths, clock=clock, **kwargs)


@pytest.mark.slow
async def test_whole_review_by_keyboard_commits_every_grade(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        seen = []
        while isinstance(app.screen, ReviewScreen):
            seen.append(screen.session.current.item_id)
            await pilot.press("space", "3")
        assert isinstance(app.screen, SummaryScreen)
        assert (app.screen.summary.items, app.screen.summary.repeats) == (6, 0)
        assert sorted(seen) == ["c-1", "c-2", "i-1", "i-2", "m-1", "m-2"]
        assert db_rows(app, "SELECT item_id, button, quality, counted FROM review ORDER BY id") == [
            (item_id, 3, 4, 1) for item_id in seen
        ]
        assert db_rows(app, "SELECT DISTINCT interval, due_day FROM item") == [(1, "2026-11-23")]
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: "6 reviews done today, 6 in all." in str(app.home_screen.query_one("#headline").render())
        )


async def test_grade_keys_do_nothing_before_the_reveal(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        first = screen.session.current.item_id
        await pilot.press("3", "4")
        assert screen.session.current.item_id == first
        assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
        shown = {key for key, b in app.screen.active_bindings.items() if b.enabled and b.binding.show}
        assert "space" in shown
        assert not {"1", "2", "3", "4"} & shown


async def test_footer_shows_each_grades_interval_after_the_reveal(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(120, 24)) as pilot:
        await start_review(pilot)
        await pilot.press("space")
        labels = {key: b.binding.description for key, b in app.screen.active_bindings.items() if key in "1234"}
        assert labels == {"1": "Again 1d↻", "2": "Hard 1d↻", "3": "Good 1d", "4": "Easy 1d"}
        markdown = app.screen.view.query_one("#answer", Markdown)
        assert markdown.display and "Answer of" in markdown.source


@pytest.mark.slow
async def test_again_brings_the_card_back_and_counts_once(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        failed = screen.session.current.item_id
        await pilot.press("space", "1")
        shown = []
        while isinstance(app.screen, ReviewScreen):
            shown.append(screen.session.current.item_id)
            await pilot.press("space", "3")
        assert shown.count(failed) == 1 and len(shown) == 6
        assert db_rows(app, f"SELECT button, counted FROM review WHERE item_id = '{failed}' ORDER BY id") == [
            (1, 1),
            (3, 0),
        ]
        assert db_rows(app, f"SELECT repetitions, interval, easiness FROM item WHERE id = '{failed}'") == [(0, 1, 2.18)]


@pytest.mark.slow
async def test_undo_takes_back_the_grade_and_its_write(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        first = screen.session.current.item_id
        await pilot.press("space", "4", "space", "3")
        assert db_rows(app, "SELECT COUNT(*) FROM review") == [(2,)]
        await pilot.press("u", "u")
        assert screen.session.current.item_id == first
        notices = [str(notice.message) for notice in app._notifications]
        topic = screen.session.current.topic
        assert f"Undid Easy on the card on “{topic}”" in notices and not any(first in text for text in notices)
        assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
        assert db_rows(app, "SELECT COUNT(*) FROM item WHERE last_review_day IS NOT NULL OR due_day IS NOT NULL") == [
            (0,)
        ]


@pytest.mark.slow
async def test_suspend_and_quit_mid_session_keep_what_was_given(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        await pilot.press("space", "3")
        suspended = screen.session.current.item_id
        await pilot.press("s")
        assert screen.session.current.item_id != suspended
        await pilot.press("space", "2")
        await pilot.press("ctrl+q")
    rows = db_rows(app, "SELECT button FROM review ORDER BY id")
    assert rows == [(3,), (2,)]
    assert db_rows(app, "SELECT id FROM item WHERE suspended = 1") == [(suspended,)]


@pytest.mark.slow
async def test_escape_goes_home_with_fresh_counts(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_review(pilot)
        await pilot.press("space", "3", "escape")
        await wait_until(
            pilot, lambda: "1 review done today, 1 in all." in str(app.home_screen.query_one("#headline").render())
        )
        assert app.screen is app.home_screen


async def test_drill_review_opens_the_review_directly(small_paths, clock) -> None:
    app = make_app(small_paths, clock, start_review=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))


async def test_broken_deck_is_named_and_the_rest_is_served(small_paths, clock) -> None:
    (small_paths.decks / "zz-broken.toml").write_text("[[item]]\nid = \n")
    app = make_app(small_paths, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        problems = str(app.home_screen.query_one("#problems").render())
        assert "zz-broken.toml" in problems
        screen = await start_review(pilot)
        assert screen.session.remaining == 6


@pytest.mark.slow
async def test_the_summary_counts_items_and_repeats_apart(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_review(pilot)
        await pilot.press("space", "1")  # the first card fails: it comes back later in the session
        while isinstance(app.screen, ReviewScreen):
            await pilot.press("space", "3")
        summary = app.screen
        assert isinstance(summary, SummaryScreen)
        assert (summary.summary.items, summary.summary.grades, summary.summary.again) == (6, 7, 1)
        shown = "\n".join(str(static.render()) for static in summary.query("Static"))
        assert "Reviewed   6 items and 1 repeat of failed ones" in shown and "Again rate 14%" in shown


async def test_errata_show_dimmed_below_the_answer_only_after_the_reveal(small_paths, deck_dir, clock) -> None:
    deck = deck_dir / "a.toml"
    deck.write_text(
        deck.read_text().replace(
            'id = "m-1"', 'id = "m-1"\nerrata = "The notes say 156 FLOP/byte; with 2.039 TB/s it is 153."', 1
        )
    )
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        while screen.session.current.item_id != "m-1":
            await pilot.press("space", "3")
        errata = screen.view.query_one("#errata", Markdown)
        assert not errata.display
        await pilot.press("space")
        assert errata.display and "errata" in errata.classes
        assert "The notes say 156 FLOP/byte" in errata.source
        assert "156" not in screen.view.query_one("#answer", Markdown).source
        await pilot.press("3")
        assert not errata.display  # the next card has none


@pytest.mark.slow
async def test_a_failed_card_stays_due_today_after_leaving_and_after_a_restart(small_paths, clock) -> None:
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        failed = screen.session.current.item_id
        await pilot.press("space", "1")  # Again on a new card
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ReviewScreen))
        screen = await start_review(pilot)
        assert failed in screen.session.order  # still in today's queue
        assert db_rows(app, f"SELECT due_day FROM item WHERE id = '{failed}'") == [("2026-11-22",)]
    app = make_app(small_paths, clock)  # drill closed and opened again the same day
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        assert failed in screen.session.order
        while screen.session.current.item_id != failed:
            await pilot.press("space", "3")
        await pilot.press("space", "3")  # passed today: SM-2's day for the day's grade
        assert db_rows(app, f"SELECT due_day FROM item WHERE id = '{failed}'") == [("2026-11-23",)]


async def test_every_footer_key_fits_80_columns_after_a_reveal(small_paths, clock) -> None:
    """Fresh cards: the four grades with their intervals, undo, suspend, Escape and F1 all fit."""
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        await pilot.press("space", "3", "space")  # revealed, with an undo to offer
        await pilot.pause()
        assert set(footer_labels(screen).values()) >= {
            "Again 1d↻",
            "Hard 1d↻",
            "Good 1d",
            "Easy 1d",
            "Undo",
            "Suspend",
            "Home",
            "Help",
        }
        assert cut_keys(screen) == []


async def test_the_longest_grade_labels_fit_80_columns(small_paths, clock) -> None:
    """A mature card: every grade names months, Hard comes back today too; Escape and F1 leave the Footer."""
    app = make_app(small_paths, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        app.study.drain()
        connection = sqlite3.connect(app.paths.database)
        with connection:
            connection.execute(
                "UPDATE item SET repetitions = 6, interval = 40, easiness = 2.9, "
                "due_day = '2026-11-22', last_review_day = '2026-10-13'"
            )
        connection.close()
        screen = await start_review(pilot)
        await pilot.press("space", "3", "space")
        await pilot.pause()
        labels = footer_labels(screen)
        assert labels["2"].startswith("Hard ") and labels["2"].endswith("mo↻") and labels["4"].endswith("mo"), labels
        assert {"u", "s"} <= set(labels) and cut_keys(screen) == [], labels
        assert not {"escape", "f1"} & set(labels)  # keys of every screen give the grades their room
        await pilot.press("escape")  # and still work
        assert app.screen is app.home_screen
