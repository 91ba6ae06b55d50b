"""The card browser: every item in one table, its question first, searched, filtered and sorted in
memory (loaded once, in a worker); `o` sorts by the next column, `O` turns the order round, a click
on a heading sorts by it (again: the other way), as in Anki; Enter opens card info; `s` suspends or
unsuspends, `f` forgets, `e` edits."""

from __future__ import annotations

from dataclasses import replace
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
from drill.store.browse_filter import SORT_KEYS, ItemFilter, ItemIndex, ItemSort
from drill.tui.screens.card_info import CardInfoScreen, due_text
from drill.tui.screens.item_actions import ItemActions
from drill.tui.widgets.item_table import Column, ItemTable
from drill.words import counted

if TYPE_CHECKING:
    from drill.store.browse import ItemInfo, ItemRow
    from drill.study import Study


def columns(today: date, stability: bool, order: ItemSort | None = None) -> list[Column[ItemRow]]:
    """The browser's columns, the question first (cut to fit, at 80 columns too); the memory column
    is FSRS's stability or SM-2's ease, as the scheduler in use keeps; the sorted column's heading
    carries ▲ or ▼. Flexible columns take the width left in this order: question, id, topic, block."""
    memory: Column[ItemRow] = (
        Column("stab", 5, lambda row: "" if row.stability is None else describe_interval(round(row.stability)), True)
        if stability
        else Column("ease", 5, lambda row: f"{row.easiness:.2f}", True)
    )
    shown = [
        Column("question", 20, lambda row: row.prompt, flexible=True, want=46),
        Column("id", 10, lambda row: row.item_id, flexible=True, want=30),
        Column("kind", 8, lambda row: row.kind),
        Column("topic", 0, lambda row: row.topic, flexible=True, want=24),
        Column("block", 0, lambda row: row.block, flexible=True, want=13),
        Column("due", 5, lambda row: due_text(row, today), True),
        Column("ivl", 5, lambda row: "" if row.is_new else describe_interval(row.interval), True),
        memory,
        Column("revs", 5, lambda row: str(row.reviews), True),
        Column("laps", 5, lambda row: str(row.lapses), True),
        Column("flag", 5, flags),
    ]
    if order is None or order.column is None:
        return shown
    arrow = "▼" if order.descending else "▲"
    return [replace(column, label=column.label + arrow) if column.label == order.column else column for column in shown]


def flags(row: ItemRow) -> str:
    """Suspended (susp), a leech (leech), or both (s+l)."""
    return "s+l" if row.suspended and row.leech else "susp" if row.suspended else "leech" if row.leech else ""


class BrowserScreen(ItemActions[None]):
    """Every item with its state; `/` searches, the Selects and boxes filter, `o` and a heading sort,
    Enter shows card info."""

    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("o", "sort_next", "Sort"),
        Binding("O", "sort_reverse", "Reverse", show=False),
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
        self.order = ItemSort()  # content order until a column is chosen

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
        """Every item, read once, each estimate read as its example draw (sympy is warm by then: the
        app warms it up as it opens); filtering and search then happen in memory."""
        from drill.store.browse import item_rows

        rows = item_rows(self.study.engine, self.study.config.leech_threshold)
        stability = self.study.browsing.measures_stability()
        self.app.call_from_thread(self.loaded, self.study.estimation.as_drawn(rows), stability)

    def loaded(self, rows: list[ItemRow], stability: bool) -> None:
        self.index, self.stability = ItemIndex(rows), stability
        self.sort_by(self.order)
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
        rows = self.order.apply(self.index.select(self.choice(), self.today))
        table.show(rows, keep=None if current is None else lambda row: row.item_id == current.item_id)
        total = len(self.index.rows)
        shown = counted(total, "item") if len(rows) == total else f"{len(rows)} of {counted(total, 'item')}"
        if self.order.column is not None:
            shown += f", by {self.order.column} {'▼' if self.order.descending else '▲'}"
        self.query_one("#browser-count", Static).update(shown)

    def sort_by(self, order: ItemSort) -> None:
        """Show the rows in `order`, its column's heading marked."""
        self.order = order
        self.query_one(ItemTable).columns = columns(self.today, self.stability, order)
        self.refilter()

    def sortable(self) -> list[str]:
        """The columns drawn now, by name, left to right (those too narrow to draw left out)."""
        table = self.query_one(ItemTable)
        names = [column.label.rstrip("▲▼") for column in table.columns]
        return [name for name, width in zip(names, table.widths, strict=True) if width and name in SORT_KEYS]

    def action_sort_next(self) -> None:
        """Sort by the next column drawn (after the last: content order again)."""
        names = self.sortable()
        at = names.index(self.order.column) + 1 if self.order.column in names else 0
        self.sort_by(ItemSort(names[at]) if at < len(names) else ItemSort())

    def action_sort_reverse(self) -> None:
        if self.order.column is not None:
            self.sort_by(ItemSort(self.order.column, not self.order.descending))

    @on(ItemTable.HeaderClicked)
    def heading_clicked(self, clicked: ItemTable.HeaderClicked) -> None:
        name = self.query_one(ItemTable).columns[clicked.column].label.rstrip("▲▼")
        self.sort_by(self.order.by(name))

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
        """Read the item's whole history (and draw an estimate's example question), then show card info."""
        from drill.store.browse import item_info

        info = item_info(self.study.engine, item_id, self.study.config.leech_threshold)
        if info is not None:
            example = self.study.estimation.example_prompt(item_id) if info.row.kind == "estimate" else None
            self.app.call_from_thread(self._show_info, info, example)

    def _show_info(self, info: ItemInfo, example: str | None) -> None:
        self.app.push_screen(CardInfoScreen(self.study, info, self.stability, example), self.info_closed)

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
