"""A checkbox drawn by drill.tcss: unticked it is an empty box (no X), ticked it shows its X."""

from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Checkbox

import drill.tui

TCSS = Path(drill.tui.__file__).with_name("drill.tcss")


class Boxes(App[None]):
    CSS_PATH = TCSS

    def compose(self) -> ComposeResult:
        yield Checkbox("memory", value=True, id="ticked")
        yield Checkbox("compute", value=False, id="unticked")


def inner(box: Checkbox):
    """The style of the character inside the box."""
    return box.get_visual_style("toggle--button")


async def test_an_unticked_box_shows_no_x_and_a_ticked_one_does() -> None:
    app = Boxes()
    async with app.run_test(size=(40, 10)) as pilot:
        ticked, unticked = app.query_one("#ticked", Checkbox), app.query_one("#unticked", Checkbox)
        assert inner(unticked).foreground == inner(unticked).background  # the X is drawn in the box's own colour
        assert inner(ticked).foreground != inner(ticked).background
        unticked.focus()
        await pilot.press("space")
        assert unticked.value and inner(unticked).foreground != inner(unticked).background
        await pilot.press("space")
        assert not unticked.value and inner(unticked).foreground == inner(unticked).background
