"""A table that draws only the rows in view, so 10,000 of them scroll and refilter at once.

Textual's DataTable measures every cell of every row it is given (about two seconds for 10,000
items of eleven columns), which a browser refiltering on each keystroke cannot wait for. This one
keeps the rows as they are and formats a row only when it is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

Row = TypeVar("Row")
SelectedRow = TypeVar("SelectedRow")  # Selected's own: a class inside ItemTable cannot take up Row


@dataclass(frozen=True)
class Column(Generic[Row]):
    """A column: its heading, its width, and how a row's cell reads. Flexible columns, in order,
    take the width the others leave, each up to `want`; one left at width 0 is not drawn."""

    label: str
    width: int
    cell: Callable[[Row], str]
    right: bool = False  # right-aligned (numbers)
    flexible: bool = False
    want: int | None = None  # a flexible column's widest (None: all that is left)


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` on one line, cut with … or padded to exactly `width` cells."""
    text = " ".join(text.split())
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1).rstrip() + "…" if width > 0 else ""
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


class ItemTable(ScrollView, Generic[Row], can_focus=True):
    """Rows under a heading line, one highlighted by the cursor; Enter posts Selected, a click on a
    heading HeaderClicked."""

    COMPONENT_CLASSES = {"item-table--header", "item-table--cursor"}
    DEFAULT_CSS = """
    ItemTable {
        background: $surface;
        & > .item-table--header { text-style: bold; background: $panel; }
        & > .item-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
        }
        &:focus > .item-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "move(-1_000_000_000)", "First", show=False),
        Binding("end", "move(1_000_000_000)", "Last", show=False),
        Binding("enter", "select", "Open"),
    ]

    cursor: reactive[int] = reactive(0, always_update=True)

    class HeaderClicked(Message):
        """A click on a column's heading (its index in `columns`)."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    class Selected(Message, Generic[SelectedRow]):
        """Enter (or a click) on a row."""

        def __init__(self, row: SelectedRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, columns: Sequence[Column[Row]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = list(columns)
        self.rows: Sequence[Row] = []
        self._widths = [column.width for column in self.columns]

    @property
    def widths(self) -> list[int]:
        """Each column's width as drawn now (0: left out)."""
        return list(self._widths)

    @property
    def current(self) -> Row | None:
        """The row under the cursor (None when there are no rows)."""
        return self.rows[self.cursor] if self.rows else None

    def show(self, rows: Sequence[Row], keep: Callable[[Row], bool] | None = None) -> None:
        """Draw `rows` instead; the cursor goes to the first row `keep` accepts, else stays in range."""
        self.rows = rows
        found = next((index for index, row in enumerate(rows) if keep(row)), None) if keep else None
        self._layout()
        self.cursor = found if found is not None else min(self.cursor, max(0, len(rows) - 1))
        self.refresh()

    def on_resize(self) -> None:
        self._layout()

    def _layout(self) -> None:
        """Widths for the current size: flexible columns, in order, take what the others leave."""
        self._widths = [column.width for column in self.columns]
        spare = self.scrollable_content_region.width - sum(width + 1 for width in self._widths if width) - 1
        for index, column in enumerate(self.columns):
            if not column.flexible:
                continue
            room = spare - (1 if column.width == 0 else 0)  # a column drawn from nothing needs its separator
            grow = max(0, room if column.want is None else min(room, column.want - column.width))
            if column.width == 0 and grow < cell_len(column.label):
                continue  # too narrow to read: left out rather than drawn as a sliver
            if grow:
                self._widths[index] += grow
                spare = room - grow
        self.virtual_size = Size(sum(width + 1 for width in self._widths if width) + 1, len(self.rows) + 1)

    def watch_cursor(self, cursor: int) -> None:
        """Keep the cursor's row in view (below the heading line)."""
        shown = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if cursor < top:
            self.scroll_to(y=cursor, animate=False)
        elif cursor >= top + shown:
            self.scroll_to(y=cursor - shown + 1, animate=False)
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.rows:
            self.cursor = max(0, min(len(self.rows) - 1, self.cursor + step))

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.scrollable_content_region.height - 1))

    def action_select(self) -> None:
        if self.rows:
            self.post_message(self.Selected(self.rows[self.cursor]))

    def on_click(self, event: Click) -> None:
        if event.y == 0:
            self._header_clicked(round(self.scroll_x) + event.x)
            return
        index = round(self.scroll_y) + event.y - 1
        if event.y >= 1 and 0 <= index < len(self.rows):
            self.cursor = index
            if event.chain > 1:
                self.action_select()

    def _header_clicked(self, x: int) -> None:
        """Post HeaderClicked for the column drawn at `x` (after the leading space, each column and its separator)."""
        left = 1
        for index, width in enumerate(self._widths):
            if width and left <= x < left + width + 1:
                self.post_message(self.HeaderClicked(index))
                return
            left += width + 1 if width else 0

    def _line(self, row: Row | None) -> str:
        """The heading line (no row) or a row's line, each column at its width."""
        return " " + " ".join(
            fit(column.label if row is None else column.cell(row), width, column.right)
            for column, width in zip(self.columns, self._widths, strict=True)
            if width
        )

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            text = self._line(None)
            style = base + self.get_component_rich_style("item-table--header")
        else:
            index = scroll_y + y - 1
            if index >= len(self.rows):
                return Strip.blank(width, base)
            row = self.rows[index]
            text = self._line(row)
            cursor = index == self.cursor
            style = base + self.get_component_rich_style("item-table--cursor") if cursor else base
        return Strip([Segment(text, style)]).crop_extend(scroll_x, scroll_x + width, style)
