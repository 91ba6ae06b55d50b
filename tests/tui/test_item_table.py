"""The browser's table on 10,000 rows: the cursor keys reach every row and keep it in view, Enter
and a double click post the row, a new set of rows keeps the cursor on its row, and cells are cut
or padded to their column."""

from __future__ import annotations

from helpers.pilot import wait_until
from textual.app import App, ComposeResult

from drill.tui.widgets.item_table import Column, ItemTable, fit

ROWS = [f"row-{n:05d}" for n in range(10_000)]


class OneTable(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.selected: list[str] = []

    def compose(self) -> ComposeResult:
        yield ItemTable([Column("name", 10, lambda row: row), Column("tail", 0, lambda row: row[-2:], flexible=True)])

    def on_mount(self) -> None:
        table = self.query_one(ItemTable)
        table.show(ROWS)
        table.focus()

    def on_item_table_selected(self, message: ItemTable.Selected) -> None:
        self.selected.append(message.row)


def in_view(table: ItemTable) -> range:
    top = round(table.scroll_y)
    return range(top, top + table.scrollable_content_region.height - 1)  # below the heading line


async def test_keys_reach_every_row_and_keep_the_cursor_in_view() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(ItemTable)
        await pilot.press("end")
        assert table.current == ROWS[-1] and table.cursor in in_view(table)
        await pilot.press("pageup")
        assert table.cursor == 9_999 - (table.scrollable_content_region.height - 1) and table.cursor in in_view(table)
        await pilot.press("home", "down", "down")
        assert table.current == ROWS[2] and round(table.scroll_y) == 0
        await pilot.press("up", "up", "up")  # stops at the first row
        assert table.cursor == 0
        await pilot.press("pagedown", "enter")
        assert app.selected == [table.current] and table.cursor in in_view(table)


async def test_new_rows_keep_the_cursor_on_its_row_while_shown() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(ItemTable)
        await pilot.press("end", "up")
        table.show(ROWS[::2], keep=lambda row: row == ROWS[9_998])
        assert table.current == ROWS[9_998] and table.cursor in in_view(table)
        table.show(ROWS[:3], keep=lambda row: row == ROWS[9_998])  # gone: the cursor stays in range
        await pilot.pause()
        assert table.current == ROWS[2]
        table.show([])
        assert table.current is None
        await pilot.press("enter", "down")
        assert app.selected == []


async def test_a_double_click_opens_the_row_clicked() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.click(ItemTable, offset=(2, 3), times=2)  # the heading, then rows 0, 1, 2
        await wait_until(pilot, lambda: app.selected == [ROWS[2]])


def test_cells_are_cut_or_padded_to_their_width() -> None:
    assert fit("abc", 5) == "abc  " and fit("abc", 5, right=True) == "  abc"
    assert fit("abcdefgh", 5) == "abcd…" and fit("two\nlines", 9) == "two lines"
    assert fit("日本語テキスト", 6) == "日本…" + " "  # wide characters count two cells
