"""Home: what is due per block, totals, the interview countdown with the readiness it is heading
for, the content files that are broken now (`e` opens the first error in the editor), the ways
in, and `u` to take back the last grade or suspension of the review session just left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from drill.content.vocabulary import BLOCKS
from drill.tui.routes import RoutedScreen
from drill.words import counted

if TYPE_CHECKING:
    from drill.content.errors import ContentError
    from drill.home import HomeSummary
    from drill.schedule.plan import Plan
    from drill.study import Study
    from drill.tui.screens.review import ReviewScreen


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


def broken_files(errors: list[ContentError]) -> list[ContentError]:
    """The first error of each broken content file, by path."""
    first: dict[str, ContentError] = {}
    for error in sorted(errors, key=lambda error: (str(error.path), error.line)):
        first.setdefault(str(error.path), error)
    return list(first.values())


def problems_text(errors: list[ContentError]) -> Text:
    """Each broken file at its first error (path:line: message), and how to open it there."""
    text = Text()
    for error in broken_files(errors):
        text.append(f"⚠ broken content file: {error}\n")
    if errors:
        text.append("e", style="bold").append(" opens the first in your editor at that line")
    return text


class HomeScreen(RoutedScreen[None]):
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
        # Named in the body, not the Footer (it has no room left at 80 columns): u, after a review
        # session with grades left to take back; e, while a content file is broken.
        Binding("u", "undo", "Undo", show=False),
        Binding("e", "fix_content", "Fix", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.typed_ahead: list[events.Key] | None = None  # while a review loads: the keys typed meanwhile
        self.content_errors: list[ContentError] = []  # as shown
        self.left_review: ReviewScreen | None = None  # the latest review session, once left: `u` undoes its grades

    @property
    def study(self) -> Study | None:
        """The app's study, once it has opened."""
        study: Study | None = getattr(self.app, "study", None)
        return study

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
            yield Static("", id="readiness")
            yield Static("", id="blocks")
            yield Static("", id="problems")
            yield Static(
                "[b]r[/b] review today's cards   [b]c[/b] custom session (cram, ahead, weakest)\n"
                "[b]m[/b] mock estimation round   [b]h[/b] past rounds   [b]k[/b] coding drills   [b]b[/b] browse\n"
                "[b]M[/b] mock interview   [b]H[/b] past interviews   [b]i[/b] interview date   [b]s[/b] stats   "
                "[b]u[/b] undo\n"
                "[b]ctrl+p[/b] commands   [b]F1[/b] keys   [b]ctrl+q[/b] quit",
                # each line fits 80 columns; `e` is offered under a broken file's name, only then
                id="ways-in",
            )
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self.query_one("#readiness").display = False

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """Keep the latest review session, for `u` once it is left."""
        if screen is self:
            return  # imports nothing before the first paint
        from drill.tui.screens.review import ReviewScreen

        if isinstance(screen, ReviewScreen):
            self.left_review = screen

    def on_screen_resume(self) -> None:
        """Home again: a content file edited meanwhile (in the card editor, or anywhere) is re-read."""
        if self.study is not None:
            self.reread_content(self.study)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.left_review is not None and self.left_review.can_take_back()
        if action == "fix_content":
            return bool(self.content_errors)
        return True

    def show_opening_step(self, words: str) -> None:
        """Say, in place of "Opening your study…", the slow step the open is in (an upgrade)."""
        self.query_one("#headline", Static).update(Text(words, style="italic"))

    def show(self, home: HomeSummary) -> None:
        self.sub_title = home.today.strftime("%A %d %B %Y")
        self.query_one("#headline", Static).update(headline(home))
        self.query_one("#blocks", Static).update(block_table(home))
        # the study's errors as they are now: a sync on the way home (reread_content) may have
        # found some since `home` was read
        self.show_problems(self.study.content_errors if self.study is not None else home.content_errors)
        if home.plan is not None and self.study is not None:
            self.read_readiness(self.study, home)
        else:
            self.query_one("#readiness").display = False
        self.add_class("ready")

    def show_problems(self, errors: list[ContentError]) -> None:
        self.content_errors = errors
        problems = self.query_one("#problems", Static)
        problems.update(problems_text(errors))
        problems.display = bool(errors)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, group="home-readiness", exit_on_error=False)
    def read_readiness(self, study: Study, home: HomeSummary) -> None:
        """The readiness on the interview day at the current pace, and the pace to the target (the
        forecast takes a moment: home shows its counts first)."""
        from drill.store.forecast import plan_reach

        assert home.plan is not None
        reach = plan_reach(study.engine, study.config, home.today, study.fsrs_settings, home.plan.new_per_day)
        said = reach.said()[:2] if reach is not None else []
        self.app.call_from_thread(self.show_readiness, said)

    def show_readiness(self, said: list[str]) -> None:
        readiness = self.query_one("#readiness", Static)
        readiness.update(Text("\n".join(said)))
        readiness.display = bool(said)
        self.add_class("readiness-read")

    @work(thread=True, exclusive=True, group="home-content", exit_on_error=False)
    def reread_content(self, study: Study) -> None:
        """Sync the content files (nothing is read again when none changed since the last clean
        sync); when that changed what home shows, show home again."""
        from drill.store.sync import SyncReport

        report = study.writer.submit("the content files", study.sync).result()
        if report != SyncReport() or study.content_errors != self.content_errors:
            self.app.call_from_thread(self.show, study.browsing.home())

    def action_fix_content(self) -> None:
        """Open the first broken content file in the editor at its error's line, then read it again."""
        from drill.tui.editor import run_editor

        if not self.content_errors or self.study is None:
            return
        first = broken_files(self.content_errors)[0]
        problem = run_editor(self.app, first.path, first.line, meanwhile=", then come back here")
        if problem is not None:
            self.notify(problem, title="No editor", severity="warning", timeout=12)
        self.reread_content(self.study)

    def action_undo(self) -> None:
        """Take back the last grade or suspension of the review session just left (its database
        write too), as `u` in the review does; home's counts are read again after it."""
        said = self.left_review.take_back() if self.left_review is not None else None
        if said is None:
            return
        self.notify(said, timeout=4)
        self.refresh_bindings()
        self.app.action_home()

    def show_failure(self, reason: str) -> None:
        self.query_one("#headline", Static).update(Text(f"Could not open your study: {reason}", style="bold red"))
        self.query_one("#ways-in", Static).update(
            "[b]F1[/b] keys   [b]ctrl+q[/b] quit: fix the cause above, then start drill again"
        )
