"""Home: what is due per block, totals, the interview countdown, and the ways in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from drill.content.vocabulary import BLOCKS
from drill.words import counted

if TYPE_CHECKING:
    from drill.home import HomeSummary
    from drill.schedule.plan import Plan


BLOCK_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("block", "left"),
    ("due", "right"),
    ("new", "right"),
    ("cards", "right"),
    ("drills", "right"),
    ("reviews", "right"),
)
# What each column counts, under the table: "new" and "cards" count the same items, coding drills
# apart in their own column; "due" is what `r` (and `drill queue`) serves.
BLOCK_LEGEND = "due: today's review, drills too · new, cards: drills aside"


def block_table(home: HomeSummary) -> Table:
    table = Table(expand=False, box=None, padding=(0, 2), header_style="bold", caption=BLOCK_LEGEND)
    for name, justify in BLOCK_COLUMNS:
        table.add_column(name, justify=justify)
    for block in BLOCKS:
        counts = home.counts(block)
        row = (counts.due, counts.new, counts.items - counts.drills, counts.drills, counts.reviews)
        table.add_row(block, *map(str, row))
    return table


def headline(home: HomeSummary) -> Text:
    """Whole sentences: today's work, the reviews done today and in all, then the interview and its plan."""
    text = Text()
    text.append(f"Today: {home.due_today} due, {home.new_available} new.", style="bold")
    if home.reviews_total:
        text.append(f" {counted(home.reviews_today, 'review')} done today, {home.reviews_total} in all.")
    else:
        text.append(" No reviews yet.")
    if home.drills_due:
        text.append(f"\nCoding drills due today (in the review): {', '.join(home.drills_due)}.")
    if home.interview_date is not None:
        days = home.days_left
        when = "today" if days == 0 else f"in {counted(days, 'day')}" if days and days > 0 else "it has passed"
        text.append(f"\nInterview {home.interview_date.isoformat()}: {when}.", style="bold")
        plan = home.plan
        if plan is not None:
            text.append(f"\n{plan_sentence(plan)}")
            if plan.brought_forward:
                text.append(
                    f"\n{counted(plan.brought_forward, 'item')} due after the interview brought forward, "
                    f"{plan.bring_today} of them today."
                )
    return text


def plan_sentence(plan: Plan) -> str:
    """The pace the interview plan needs, and the pace the queue keeps when it differs."""
    if not plan.unseen:
        return "Plan: all content seen."
    pace = "" if plan.new_per_day == plan.new_per_day_needed else f"; the queue brings {plan.new_per_day} a day"
    left = plan.unseen - plan.seen_today
    return f"Plan: {plan.new_per_day_needed} new a day needed for the {counted(left, 'unseen card')}{pace}."


class HomeScreen(Screen[None]):
    """The first screen: counts appear once the database has opened."""

    # One word each, so every key but M and H fits the Footer at 80 columns; the legend in the body
    # (#ways-in) names every key in full.
    BINDINGS = [
        Binding("r", "app.review", "Review"),
        Binding("c", "app.custom", "Custom"),
        Binding("m", "app.mock", "Mock"),
        Binding("h", "app.mock_history", "Rounds"),
        Binding("M", "app.mock_interview", "Mock interview", show=False),
        Binding("H", "app.mock_interview_history", "Interview history", show=False),
        Binding("k", "app.drills", "Drills"),
        Binding("b", "app.browse", "Browse"),
        Binding("s", "app.stats", "Stats"),
        Binding("i", "app.interview_date", "Date"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.typed_ahead: list[events.Key] | None = None  # while a review loads: the keys typed meanwhile

    def keep_keys(self) -> None:
        """A review is loading (its first card takes a moment): keep every key typed until it shows."""
        self.typed_ahead = []

    def kept_keys(self) -> list[events.Key]:
        """The keys typed while the review loaded, for its first card; home takes keys again."""
        kept, self.typed_ahead = self.typed_ahead or [], None
        return kept

    def on_key(self, event: events.Key) -> None:
        if self.typed_ahead is not None:
            event.stop()
            self.typed_ahead.append(event)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Opening your study…", id="headline")
            yield Static("", id="blocks")
            yield Static("", id="problems")
            yield Static(
                "[b]r[/b] review today's cards   [b]c[/b] custom session (cram, ahead, weakest)\n"
                "[b]m[/b] mock estimation round   [b]h[/b] past rounds   [b]k[/b] coding drills   [b]b[/b] browse\n"
                "[b]M[/b] mock interview   [b]H[/b] past interviews   [b]i[/b] interview date   [b]s[/b] stats\n"
                "[b]ctrl+p[/b] commands   [b]F1[/b] keys   [b]ctrl+q[/b] quit",  # each line fits 80 columns
                id="ways-in",
            )
        yield Footer(compact=True, show_command_palette=False)

    def show(self, home: HomeSummary) -> None:
        self.sub_title = home.today.strftime("%A %d %B %Y")
        self.query_one("#headline", Static).update(headline(home))
        self.query_one("#blocks", Static).update(block_table(home))
        broken = sorted({str(error.path) for error in home.content_errors})
        problems = self.query_one("#problems", Static)
        problems.update("\n".join(f"⚠ broken content file: {path}" for path in broken))
        problems.display = bool(broken)
        self.add_class("ready")

    def show_failure(self, reason: str) -> None:
        self.query_one("#headline", Static).update(Text(f"Could not open your study: {reason}", style="bold red"))
        self.query_one("#ways-in", Static).update(
            "[b]F1[/b] keys   [b]ctrl+q[/b] quit: fix the cause above, then start drill again"
        )
