"""Every key of home is in view at 80×24: the Footer's keys drawn whole, and the legend in the body
naming every key, those the Footer leaves out included (a key that only applies while a content
file is broken is named beside that file, then)."""

import re
from pathlib import Path

from helpers.footer import cut_keys, footer_labels
from helpers.pilot import wait_ready

from drill.content.errors import ContentError
from drill.tui.app import DrillApp
from drill.tui.screens.home import HomeScreen


async def test_at_80_columns_every_key_of_home_is_in_view(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.home_screen
        shown = footer_labels(screen)
        assert cut_keys(screen) == [], shown
        assert {"r", "c", "m", "h", "k", "b", "s", "i", "f1"} <= set(shown)
        legend = dict(
            chunk.partition(" ")[::2] for chunk in re.split(r"\s{3,}|\n", str(screen.query_one("#ways-in").render()))
        )  # key → what it does
        contextual = {"e"}  # offered under a broken file's name, only while one is broken
        assert {binding.key for binding in HomeScreen.BINDINGS} - contextual <= set(legend), legend
        assert not screen.check_action("fix_content", ())  # nothing broken: not offered, not bound
        screen.show_problems([ContentError(path=Path("decks/mine.toml"), line=3, message="bad key")])
        await pilot.pause()
        problems = str(screen.query_one("#problems").render())
        assert "decks/mine.toml:3: bad key" in problems and "e opens the first in your editor" in problems
        assert screen.check_action("fix_content", ())
        ways_in = screen.query_one("#ways-in")
        assert ways_in.region.bottom <= 23  # above the Footer
        assert ways_in.size.height == len(str(ways_in.render()).splitlines())  # no line wraps at 80 columns
