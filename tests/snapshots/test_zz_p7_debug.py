"""TEMPORARY debug (p7 helper)."""
import asyncio
from drill.tui.app import DrillApp
from drill.tui.screens import drill_attempt
from helpers.screen_steps import use_content, DRILLS
from .test_screens_drills import stages

async def test_debug(small_paths, clock, stopped_clock, monkeypatch):
    monkeypatch.setenv("HOME", str(small_paths.home.parent))
    paths = use_content(small_paths, decks=(), drills=DRILLS)
    app = DrillApp(paths, clock=clock)
    LOG = []
    orig = drill_attempt.DrillScreen.bring_into_view
    def spy(self, widget):
        LOG.append(("bring", widget.id))
        n = [0]
        body = self.query_one("#drill-body")
        def scroll():
            n[0] += 1
            if n[0] < 5 or n[0] % 1000 == 0:
                LOG.append((n[0], widget.id, widget.virtual_region, widget.region, widget.display, widget.is_attached, self.screen._layout_required, widget.size))
            if n[0] > 5000:
                return
            if widget.virtual_region.height:
                LOG.append(("scrolled", n[0]))
                body.scroll_to_widget(widget, top=True, animate=False)
            elif widget.display and widget.is_attached:
                self.call_after_refresh(scroll)
        self.call_after_refresh(scroll)
    monkeypatch.setattr(drill_attempt.DrillScreen, "bring_into_view", spy)
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            await asyncio.wait_for(stages(stopped_clock)["gave-up-with-hints-and-reference"](pilot), 90)
        finally:
            for l in LOG: print(l)
