"""The card browser: every item in one table, searched and filtered in memory (loaded once, in a
worker); Enter opens card info; `s` suspends or unsuspends, `f` forgets, `e` edits."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Checkbox, Footer, Header, Input, Select, Static

from drill.content.vocabulary import BLOCKS
from drill.days import describe_interval
from drill.schedule.queue import KINDS
from drill.store.browse_filter import ItemFilter, ItemIndex
from drill.tui.screens.card_info import CardInfoScreen, due_text
from drill.tui.screens.item_actions import ItemActions
from drill.tui.widgets.item_table import Column, ItemTable
from drill.words import counted

if TYPE_CHECKING:
    from drill.store.browse import ItemInfo, ItemRow
    from drill.study import Study


def columns(today: date, stability: bool) -> list[Column[ItemRow]]:
    """The browser's columns; the memory column is FSRS's stability or SM-2's ease, as the scheduler in use keeps."""
    memory: Column[ItemRow] = (
        Column("stab", 5, lambda row: "" if row.stability is None else describe_interval(round(row.stability)), True)
        if stability
        else Column("ease", 4, lambda row: f"{row.easiness:.2f}", True)
    )
    return [
        Column("id", 16, lambda row: row.item_id, flexible=True, want=30),
        Column("kind", 8, lambda row: row.kind),
        Column("block", 13, lambda row: row.block),
        Column("topic", 0, lambda row: row.topic, flexible=True),
        Column("due", 5, lambda row: due_text(row, today), True),
        Column("ivl", 5, lambda row: "" if row.is_new else describe_interval(row.interval), True),
        memory,
        Column("revs", 4, lambda row: str(row.reviews), True),
        Column("laps", 4, lambda row: str(row.lapses), True),
        Column("susp", 4, lambda row: "yes" if row.suspended else ""),
        Column("leech", 5, lambda row: "yes" if row.leech else ""),
    ]


class BrowserScreen(ItemActions[None]):
    """Every item with its state; `/` searches, the Selects and boxes filter, Enter shows card info."""

    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("s", "toggle_suspended", "Suspend/unsuspend"),
        Binding("f", "forget", "Forget"),
        Binding("e", "edit", "Edit"),
        Binding("escape", "back", "Home"),
    ]

    def __init__(self, study: Study) -> None:
        super().__init__()
        self.study = study
        self.index = ItemIndex([])
        self.today = study.today
        self.stability = False  # the memory column: SM-2's ease until the scheduler in use is known

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser-filters"):
            yield Input(placeholder="/ search prompt, answer, topic, id", id="search", compact=True)
            yield Select([(block, block) for block in BLOCKS], prompt="every block", id="block", compact=True)
            yield Select([(kind, kind) for kind in KINDS], prompt="every kind", id="kind", compact=True)
        with Horizontal(id="browser-flags"):
            yield Checkbox("suspended", id="only-suspended", compact=True)
            yield Checkbox("leeches", id="only-leech", compact=True)
            yield Checkbox("due", id="only-due", compact=True)
            yield Static("Loading every item…", id="browser-count")
        yield ItemTable(columns(self.today, self.stability), id="items")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Browse"
        self.query_one(ItemTable).focus()
        self.load()

    @work(thread=True, group="browser", exit_on_error=False)
    def load(self) -> None:
        """Every item, read once; filtering and search then happen in memory."""
        from drill.store.browse import item_rows

        rows = item_rows(self.study.engine, self.study.config.leech_threshold)
        stability = self.study.browsing.measures_stability()
        self.app.call_from_thread(self.loaded, rows, stability)

    def loaded(self, rows: list[ItemRow], stability: bool) -> None:
        self.index, self.stability = ItemIndex(rows), stability
        self.query_one(ItemTable).columns = columns(self.today, stability)
        self.refilter()
        self.add_class("loaded")

    def choice(self) -> ItemFilter:
        """The search and filters as set now."""
        block, kind = self.query_one("#block", Select).value, self.query_one("#kind", Select).value
        return ItemFilter(
            search=self.query_one("#search", Input).value,
            block=None if block is Select.NULL else str(block),
            kind=None if kind is Select.NULL else str(kind),
            suspended=self.query_one("#only-suspended", Checkbox).value,
            leech=self.query_one("#only-leech", Checkbox).value,
            due=self.query_one("#only-due", Checkbox).value,
        )

    @on(Input.Changed, "#search")
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def refilter(self) -> None:
        """Show the rows the search and filters keep; the cursor stays on its item while it is shown."""
        table = self.query_one(ItemTable)
        current = table.current
        rows = self.index.select(self.choice(), self.today)
        table.show(rows, keep=None if current is None else lambda row: row.item_id == current.item_id)
        total = len(self.index.rows)
        shown = counted(total, "item") if len(rows) == total else f"{len(rows)} of {counted(total, 'item')}"
        self.query_one("#browser-count", Static).update(shown)

    @on(Input.Submitted, "#search")
    def search_done(self) -> None:
        self.query_one(ItemTable).focus()

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_back(self) -> None:
        """Escape: from the search box back to the table; from the table home."""
        if isinstance(self.focused, Input):
            self.query_one(ItemTable).focus()
        else:
            self.app.action_home()

    @on(ItemTable.Selected)
    def show_info(self, selected: ItemTable.Selected[ItemRow]) -> None:
        self.open_info(selected.row.item_id)

    @work(thread=True, group="browser", exit_on_error=False)
    def open_info(self, item_id: str) -> None:
        """Read the item's whole history, then show card info."""
        from drill.store.browse import item_info

        info = item_info(self.study.engine, item_id, self.study.config.leech_threshold)
        if info is not None:
            self.app.call_from_thread(self._show_info, info)

    def _show_info(self, info: ItemInfo) -> None:
        self.app.push_screen(CardInfoScreen(self.study, info, self.stability), self.info_closed)

    def info_closed(self, row: ItemRow | None) -> None:
        if row is not None:
            self.row_changed(row)

    def action_toggle_suspended(self) -> None:
        row = self.query_one(ItemTable).current
        if row is not None:
            self.toggle_suspended(row)

    def action_forget(self) -> None:
        row = self.query_one(ItemTable).current
        if row is not None:
            self.forget(row)

    def action_edit(self) -> None:
        row = self.query_one(ItemTable).current
        if row is not None:
            self.edit(row)

    def row_changed(self, row: ItemRow) -> None:
        self.index.replace(row)
        self.refilter()
