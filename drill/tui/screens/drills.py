"""The coding drills: difficulty, budget, best time and last result; Enter starts one.

When this Python lacks what the drills' tests need (pytest, torch, …) the top line says so,
with the command that installs it (asked with find_spec: torch is never imported here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Static

from drill.coding.drills import item_id
from drill.coding.runner.environment import describe, missing_requirements
from drill.tui.routes import RoutedScreen
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.coding.drills import Drill
    from drill.store.coding import DrillRecord


class DrillListScreen(RoutedScreen[None]):
    BINDINGS = [Binding("enter", "start", "Start"), Binding("escape", "app.home", "Home")]
    DEFAULT_CSS = """
    #drills-environment {
        padding: 0 2;
        color: $text-error;
    }
    """

    def __init__(self, drills: list[Drill], records: dict[str, DrillRecord]) -> None:
        super().__init__()
        self.drills = drills
        self.records = records

    def compose(self) -> ComposeResult:
        yield Header()
        if missing := missing_requirements(*self.drills):
            yield Static(describe(missing), id="drills-environment", markup=False)
        yield Static("Coding drills — Enter starts a timed attempt, or offers your unfinished one.", id="drills-head")
        yield Static("", id="drill-title")
        table: DataTable[str] = DataTable(id="drills", cursor_type="row")
        table.add_columns("drill", "level", "budget", "block", "best", "last", "tries")
        for drill in self.drills:
            record = self.records.get(item_id(drill.id))
            best = clock_text(record.best_pass_s) if record and record.best_pass_s is not None else "—"
            table.add_row(
                drill.id,
                drill.difficulty,
                clock_text(drill.budget_s),
                drill.block,
                best,
                (record.last_status if record else None) or "—",
                str(record.attempts if record else 0),
                key=drill.id,
            )
        yield table
        yield Footer(compact=True, show_command_palette=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        drill = next(drill for drill in self.drills if drill.id == event.row_key.value)
        self.query_one("#drill-title", Static).update(f"[b]{drill.title}[/b] — {drill.topic}")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        drill_id = event.row_key.value
        assert drill_id is not None  # each row's key is its drill's id
        self.start(drill_id)

    def action_start(self) -> None:
        table = self.query_one(DataTable)
        if self.drills:
            self.start(self.drills[table.cursor_row].id)

    def start(self, drill_id: str) -> None:
        self.app.start_drill(drill_id)
