"""Card info: one item's prompt and answer (Markdown), its state, and its whole history — every
review, estimation attempt and drill attempt, and each edit of its text. `s` suspends or
unsuspends, `f` forgets, `e` edits; Escape goes back to the browser with the item as it now is."""

from __future__ import annotations

import difflib
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Markdown, Static

from drill.days import describe_interval
from drill.estimate.pretty import pretty
from drill.schedule.sm2 import BUTTON_LABEL
from drill.stats.text import local_time
from drill.tui.screens.item_actions import ItemActions
from drill.tui.widgets.pitch_timer import clock_text
from drill.words import counted, noun_for

if TYPE_CHECKING:
    from drill.store.browse import DrillEntry, EstimateEntry, ItemInfo, ItemRow, ReviewEntry
    from drill.store.text_revisions import TextRevision
    from drill.study import Study


def due_text(row: ItemRow, today: date) -> str:
    """When the item is due, from today: new, today, 6d, 3.2mo; overdue as -3d."""
    if row.due is None:
        return "new"
    days = (row.due - today).days
    if days == 0:
        return "today"
    return describe_interval(days) if days > 0 else "-" + describe_interval(-days)


def state_line(row: ItemRow, today: date, stability: bool) -> Text:
    """Due, interval, ease or stability, reviews, lapses, and the flags, on one line."""
    if row.due is None:
        parts = ["new"]
    else:
        memory = (
            (f"stability {describe_interval(round(row.stability))}" if row.stability is not None else "")
            if stability
            else f"ease {row.easiness:.2f}"
        )
        parts = [f"due {row.due.isoformat()} ({due_text(row, today)})", f"interval {describe_interval(row.interval)}"]
        parts += [memory] if memory else []
    parts += [counted(row.reviews, "review"), counted(row.lapses, "lapse")]
    text = Text(" · ".join(parts))
    for flag, shown in (("suspended", row.suspended), ("leech", row.leech)):
        if shown:
            text.append(" · ")
            text.append(flag, style="bold red")
    return text


def table(*headings: str) -> Table:
    grid = Table(box=None, padding=(0, 2, 0, 0), header_style="bold", expand=False)
    for heading in headings:
        grid.add_column(heading)
    return grid


def next_text(review: ReviewEntry) -> str:
    """What a review did to the schedule: the interval it gave, ↻ back today, or nothing moved."""
    if review.cram:
        return "cram"
    if not review.counted:
        return "repeat"
    if review.interval_after is None:
        return ""
    return "today ↻" if review.interval_after == 0 else describe_interval(review.interval_after)


def said_text(review: ReviewEntry, points: int) -> str:
    """What was typed and ticked with a review, briefly."""
    said = []
    if review.ticked is not None:
        said.append(f"ticked {len(review.ticked)} of {points}")
    if review.typed_answer:
        said.append(f"typed “{' '.join(review.typed_answer.split())}”")
    return "; ".join(said)


def reviews_table(reviews: tuple[ReviewEntry, ...], points: int) -> Table | Text:
    if not reviews:
        return Text("No reviews yet.", style="dim")
    grid = table("when", "grade", "next", "time", "said")
    for review in reviews:
        grid.add_row(
            local_time(review.reviewed_at.isoformat()),
            BUTTON_LABEL[review.button],
            next_text(review),
            f"{review.seconds:.0f} s",
            said_text(review, points),
        )
    return grid


def estimates_table(attempts: tuple[EstimateEntry, ...]) -> Table:
    grid = table("when", "answer", "truth", "score", "slip", "time", "in")
    for attempt in attempts:
        grid.add_row(
            local_time(attempt.attempted_at.isoformat()),
            attempt.answer,
            pretty(attempt.truth, attempt.unit),
            f"{attempt.score:.0%}",
            attempt.error or attempt.slip or "",
            f"{attempt.seconds:.0f} s",
            "mock round" if attempt.in_round else "review",
        )
    return grid


def drills_table(attempts: tuple[DrillEntry, ...]) -> Table:
    grid = table("when", "result", "tests", "hints", "time", "device")
    for attempt in attempts:
        grid.add_row(
            local_time(attempt.started_at.isoformat()),
            attempt.status,
            f"{attempt.passed}/{attempt.passed + attempt.failed}",
            str(attempt.hints_used),
            clock_text(attempt.seconds),
            attempt.device,
        )
    return grid


QUOTED = 48  # characters of a changed line quoted in the revisions table


def text_change(name: str, before: str, after: str) -> str | None:
    """How `after` differs from `before`, in lines (None: not at all): "answer +2 −1 lines, now
    “…”", quoting the first line added, else the first removed."""
    if before == after:
        return None
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    added = [line[2:].strip() for line in diff if line.startswith("+ ")]
    removed = [line[2:].strip() for line in diff if line.startswith("- ")]
    counts = [f"+{len(added)}"] if added else []
    counts += [f"−{len(removed)}"] if removed else []
    if not counts:
        return f"{name} line endings"  # the same lines: only a final line break differs
    change = f"{name} {' '.join(counts)} {noun_for(len(added) + len(removed), 'line')}"
    said, line = ("now", next(filter(None, added), "")) if any(added) else ("was", next(filter(None, removed), ""))
    if not line:
        return change
    return f"{change}, {said} “{line if len(line) <= QUOTED else line[: QUOTED - 1] + '…'}”"


def revisions_table(revisions: list[TextRevision]) -> Table:
    grid = table("when", "what changed")
    for revision in revisions:
        changes = (
            text_change("prompt", revision.prompt_before, revision.prompt_after),
            text_change("answer", revision.answer_before, revision.answer_after),
        )
        grid.add_row(
            local_time(revision.replaced_at.isoformat()), "; ".join(filter(None, changes)) or "not its prompt or answer"
        )
    return grid


class CardInfoScreen(ItemActions["ItemRow | None"]):
    """One item in full; dismissed with its row as it is now."""

    BINDINGS = [
        Binding("s", "toggle_suspended", "Suspend/unsuspend"),
        Binding("f", "forget", "Forget"),
        Binding("e", "edit", "Edit"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, study: Study, info: ItemInfo, stability: bool, example: str | None = None) -> None:
        super().__init__()
        self.study = study
        self.info = info
        self.stability = stability
        self.example = example  # an estimate's question as one draw reads (its template has placeholders)

    def compose(self) -> ComposeResult:
        info, row = self.info, self.info.row
        yield Header()
        with VerticalScroll(id="card-info"):
            yield Static(
                Text.assemble((row.item_id, "bold"), f"  {row.kind} · {row.block} · {row.topic}"), id="info-title"
            )
            yield Static(state_line(row, self.study.today, self.stability), id="info-state")
            yield Static(
                "Prompt" if self.example is None else "Prompt (an example draw: each review draws new numbers)",
                classes="info-heading",
            )
            yield Markdown(self.prompt(row), id="info-prompt")
            yield Static("Answer", classes="info-heading")
            yield Markdown(row.answer, id="info-answer")
            if info.points:
                yield Static("Checklist", classes="info-heading")
                yield Static("\n".join(f"• {point}" for point in info.points), id="info-points")
            yield Static(f"Reviews ({len(info.reviews)})", classes="info-heading")
            yield Static(reviews_table(info.reviews, len(info.points)), id="info-reviews")
            if info.estimates or row.kind == "estimate":
                yield Static(f"Estimation attempts ({len(info.estimates)})", classes="info-heading")
                yield Static(estimates_table(info.estimates), id="info-estimates")
            if info.drills or row.kind == "coding":
                yield Static(f"Drill attempts ({len(info.drills)})", classes="info-heading")
                yield Static(drills_table(info.drills), id="info-drills")
            # the edits of its text, once read (none: nothing is shown)
            for revisions in (Static(classes="info-heading", id="info-revisions-heading"), Static(id="info-revisions")):
                revisions.display = False
                yield revisions
        yield Footer(compact=True, show_command_palette=False)

    def prompt(self, row: ItemRow) -> str:
        return row.prompt if self.example is None else self.example

    def on_mount(self) -> None:
        self.sub_title = "Card info"
        self.query_one("#card-info").focus()
        self.read_revisions()

    @work(thread=True, exclusive=True, group="revisions", exit_on_error=False)
    def read_revisions(self) -> None:
        from drill.store.text_revisions import text_revisions

        revisions = text_revisions(self.study.engine, self.info.row.item_id)
        self.app.call_from_thread(self.show_revisions, revisions)

    def show_revisions(self, revisions: list[TextRevision]) -> None:
        heading = self.query_one("#info-revisions-heading", Static)
        heading.update(f"Text revisions ({len(revisions)})")
        self.query_one("#info-revisions", Static).update(revisions_table(revisions))
        for shown in (heading, self.query_one("#info-revisions", Static)):
            shown.display = bool(revisions)
        self.add_class("revisions-read")

    def row_changed(self, row: ItemRow) -> None:
        self.info = replace(self.info, row=row)
        self.query_one("#info-state", Static).update(state_line(row, self.study.today, self.stability))
        self.query_one("#info-prompt", Markdown).update(self.prompt(row))
        self.query_one("#info-answer", Markdown).update(row.answer)
        self.read_revisions()  # an edit here adds one

    def action_toggle_suspended(self) -> None:
        self.toggle_suspended(self.info.row)

    def action_forget(self) -> None:
        self.forget(self.info.row)

    def action_edit(self) -> None:
        self.edit(self.info.row)

    def action_back(self) -> None:
        self.dismiss(self.info.row)
