"""Snapshots of the card browser (every item after two weeks of study, a search with the due filter)
and of card info (a card with its checklist and reviews, an estimation family with its attempts), at
80×24 and 120×36."""

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import SIZE_IDS, SIZES, all_content, history, home, snapshot

from drill.tui.screens.browser import BrowserScreen
from drill.tui.screens.card_info import CardInfoScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


def browser_after(*keys: str, info: bool = False):
    """Open the browser, press `keys` (a search typed after `/`, a filter toggled), and with `info`
    open card info on the row under the cursor."""

    async def steps(pilot) -> None:
        app = pilot.app
        await home(pilot)
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen) and app.screen.has_class("loaded"))
        await pilot.press(*keys)
        if info:
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, CardInfoScreen))

    return steps


VIEWS = {
    "browser": browser_after(),
    "searched-due": browser_after("slash", *"decod", "tab", "tab", "tab", "tab", "tab", "space"),
    "info-card": browser_after("slash", *"grill-", "enter", info=True),
    "info-estimate": browser_after("slash", *"estimate:weights", "enter", info=True),
}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("view", list(VIEWS))
def test_browser_and_card_info(snap_compare, small_paths, clock, size, view) -> None:
    history(all_content(small_paths), clock)
    assert snapshot(snap_compare, small_paths, clock, size, VIEWS[view])
