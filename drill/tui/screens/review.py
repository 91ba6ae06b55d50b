"""Review: one card at a time from today's session, each kind in its own view (drill.tui.review);
the screen keeps the session, undo and the writes, and labels the grade keys in the Footer."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import ActiveBinding, Binding
from textual.message import Message
from textual.widgets import ContentSwitcher, Footer, Header, Input, Static, TextArea

from drill.days import describe_interval
from drill.schedule.session import ReviewSession
from drill.schedule.sm2 import BUTTON_LABEL
from drill.tui.messages import GradeNotSaved
from drill.tui.review.card_view import CardView, Graded, Revealed
from drill.tui.review.coding_card import CodingView
from drill.tui.review.estimate_card import EstimateView
from drill.tui.review.flash_card import FlashCardView
from drill.tui.review.pitch_card import PitchView
from drill.tui.routes import RoutedScreen

if TYPE_CHECKING:
    from drill.content.errors import ContentError
    from drill.content.overrides import EditTarget
    from drill.schedule.custom import CustomSession
    from drill.schedule.records import Card, Grade
    from drill.study import Study
    from drill.study.reviews import Outcome

VIEWS: dict[str, type[CardView]] = {
    "card": FlashCardView,
    "pitch": PitchView,
    "estimate": EstimateView,
    "coding": CodingView,
}
GLOBAL_KEYS = ("escape", "f1")  # keys of every screen, left out of the Footer when the four grades need the room
VIEW_ACTIONS = ("reveal", "type_answer", "grade", "next", "start_drill", "later", "suspend")
EDITABLE_KINDS = ("card", "pitch")  # deck items; problems and drills are edited in their own files


def grade_label(button: int, outcome: Outcome) -> str:
    """A grade key's Footer label: the days until the review the scheduler gives it (once passed),
    ↻ if it comes back today first; the bare name when a cram session keeps the schedules."""
    if outcome.kept:
        return BUTTON_LABEL[button]
    again = "↻" if outcome.again_today else ""
    if not outcome.counted or outcome.days is None:
        return f"{BUTTON_LABEL[button]} {again or '✓'}"
    return f"{BUTTON_LABEL[button]} {describe_interval(outcome.days)}{again}"


def verdict(grade: Grade, outcome: Outcome) -> str:
    """Which grade an answer counted as, and when its card comes back."""
    if outcome.kept:
        return f"Counted as **{BUTTON_LABEL[grade.button]}** (cram: its schedule is kept)."
    if outcome.again_today:
        when = "it comes back later today"
    else:
        when = f"next review in {describe_interval(outcome.days or 0)}"
    return f"Counted as **{BUTTON_LABEL[grade.button]}**: {when}."


class BindingChange(TypedDict, total=False):
    """What the review changes in a binding the Footer shows."""

    description: str
    show: bool
    key_display: str


def changed(active: dict[str, ActiveBinding], changes: dict[str, BindingChange]) -> dict[str, ActiveBinding]:
    """`active` with the bindings of these keys changed (description, show, key_display)."""
    active = dict(active)
    for key, change in changes.items():
        if key in active:
            node, binding, enabled, tooltip = active[key]
            active[key] = ActiveBinding(node, replace(binding, **change), enabled, tooltip)
    return active


def footer_width(key_display: Callable[[Binding], str], active: dict[str, ActiveBinding]) -> int:
    """Columns a compact Footer takes for `active`: key (as `key_display` shows it), space, label and a
    gap for each action shown."""
    shown = {binding.action: binding for _, binding, _, _ in active.values() if binding.show}
    return sum(len(key_display(binding)) + len(binding.description) + 2 for binding in shown.values())


class Named(Protocol):
    """An item as a notice names it (a card, a browser row)."""

    @property
    def kind(self) -> str: ...

    @property
    def topic(self) -> str: ...


def card_name(card: Named) -> str:
    """How a notice names a card: its topic and kind, not its id."""
    return f"the {card.kind} on “{card.topic}”"


class CardEdited(Message):
    """The edit of `item_id` in `target` was re-read: synced, or refused for its `errors`.
    `revealed`: the answer was on screen when the editor opened."""

    def __init__(self, item_id: str, target: EditTarget, errors: list[ContentError], revealed: bool) -> None:
        super().__init__()
        self.item_id, self.target, self.errors, self.revealed = item_id, target, errors, revealed


class ReviewScreen(RoutedScreen[None]):
    """Shows one card at a time until today's queue is empty."""

    BINDINGS = [
        Binding("space", "reveal", "Show answer"),
        Binding("t", "type_answer", "Type answer"),
        Binding("1", "grade(1)", "Again"),
        Binding("2", "grade(2)", "Hard"),
        Binding("3", "grade(3)", "Good"),
        Binding("4", "grade(4)", "Easy"),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+z", "undo_in_box", "Undo"),
        Binding("s", "suspend", "Suspend"),
        Binding("e", "edit", "Edit card", show=False),
        Binding("enter", "next", "Next"),
        Binding("enter", "start_drill", "Start drill"),
        Binding("l", "later", "Later today"),
        Binding("escape", "back", "Home"),
    ]

    def __init__(
        self,
        study: Study,
        cards: list[Card],
        custom: CustomSession | None = None,
        typed_ahead: Sequence[events.Key] = (),
    ) -> None:
        """`typed_ahead`: keys typed while the cards were read, pressed again on the first card."""
        super().__init__()
        self.typed_ahead = typed_ahead
        self.study = study
        self.custom = custom  # a custom session (drill.schedule.custom); None: today's queue
        if custom is not None:
            self.sub_title = f"Custom: {custom.describe()}"
        self.session = ReviewSession(cards)
        self.pending: list[Future[Any]] = []  # one per grade in session.given, same order (its write)
        # The cards suspended here, each with how many grades had been given: undo takes back the latest.
        self.suspended: list[tuple[int, Card]] = []
        self.grade_labels: dict[str, str] = {}  # grade key → Footer label with its interval, after a reveal

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="status")
        with ContentSwitcher(id="card"):
            for kind, view in VIEWS.items():
                yield view(self.study, id=f"{kind}-view", classes="card-view")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.show_current()
        for typed in self.typed_ahead:  # queued after the first card's focus moves, so they land on it
            key = events.Key(typed.key, typed.character)
            key.set_sender(self.app)  # as the terminal's keys come: from the app, so they bubble back to it
            self.app.post_message(key)

    @property
    def view(self) -> CardView:
        """The view of the card on screen."""
        switcher = self.query_one(ContentSwitcher)
        return switcher.get_child_by_id(switcher.current or "card-view", CardView)

    # -- showing -------------------------------------------------------------------------

    def show_current(self) -> None:
        card = self.session.current
        if card is None:
            self.finish()
            return
        self.grade_labels = {}
        self.refresh_status(card)
        self.query_one(ContentSwitcher).current = f"{card.kind}-view"
        self.view.show(card)
        if card.kind != "estimate":
            self.view.focus()  # the keyboard scrolls the card (the estimate view focuses its answer box)
        self.refresh_bindings()

    def refresh_status(self, card: Card | None) -> None:
        """The session's progress and the card on screen (`card`), kept while its result shows."""
        if card is not None:
            self.query_one("#status", Static).update(
                f"{len(self.session.given)} done · {self.session.remaining} to go · "
                f"{card.block} · {card.topic} · {card.kind}"
            )

    @on(Revealed)
    def _revealed(self, message: Revealed) -> None:
        """Work out the interval each grade would give, for the Footer labels (active_bindings)."""
        previews = self.study.reviews.previews(message.card, self.custom)
        self.grade_labels = {str(button): grade_label(button, outcome) for button, outcome in previews.items()}
        self.refresh_bindings()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's active bindings as the Footer shows them: each grade key labelled by the interval it
        gives; when the grades' labels leave no room, Escape and F1 (keys of every screen) are left out of
        the Footer (they still work); in a text box, Escape says that it (or Tab) leaves the box and keeps
        the text."""
        active = super().active_bindings
        changes: dict[str, BindingChange] = {key: {"description": label} for key, label in self.grade_labels.items()}
        if self.query(ContentSwitcher) and self.view.in_box():
            changes["escape"] = {"description": "Leave box, keep text", "key_display": "esc/tab"}
        active = changed(active, changes)
        if self.grade_labels and footer_width(self.app.get_key_display, active) > self.size.width:
            active = changed(active, {key: {"show": False} for key in GLOBAL_KEYS})
        return active

    # -- grades and their writes -----------------------------------------------------------

    @on(Graded)
    def _graded(self, message: Graded) -> None:
        """Hand the answer to the study (the grade comes back as the session logs it), apply it to the
        session and commit it in the background."""
        card, reviews = message.card, self.study.reviews
        if card is None or self.session.current is None or card.item_id != self.session.current.item_id:
            return  # an answer to a card no longer on screen
        if message.attempt is not None:
            grade = reviews.grade_estimate(card, message.attempt, self.custom)
            saved = reviews.save_estimate(grade, message.attempt)
        else:
            assert message.button is not None  # a Graded without an estimate attempt carries its grade button
            grade = reviews.grade(
                card, message.button, int(message.seconds * 1000), message.typed_answer, message.ticked, self.custom
            )
            saved = reviews.save_grade(grade)
        self.session.answer(grade)
        self.keep(grade, saved)
        attempt = message.attempt
        if message.moves_on or attempt is None:
            self.show_current()
        else:
            said = verdict(grade, reviews.outcome(grade, self.custom))
            self.view.show_result(f"{said} Press **Enter** for the next card.\n\n{attempt.report()}")
            self.refresh_status(card)  # counted as done at once, not when Enter moves on
            self.refresh_bindings()

    def keep(self, grade: Grade, saved: Future[Any]) -> None:
        """Hold a grade's write until it commits; one that fails is taken back (GradeNotSaved)."""
        self.pending.append(saved)
        saved.add_done_callback(lambda done: done.exception() is not None and self.post_message(GradeNotSaved(grade)))

    @on(GradeNotSaved)
    def _grade_not_saved(self, message: GradeNotSaved) -> None:
        """The app has said the grade was not saved; its card comes back next, to be graded again."""
        if not any(given is message.grade for given in self.session.given):
            return  # already undone
        del self.pending[self.session.withdraw(message.grade)]
        if self.session.current is not None and self.session.current.item_id == message.grade.item_id:
            self.show_current()
        else:
            self.refresh_status(self.view.card)

    # -- actions -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in VIEW_ACTIONS:
            return self.view.allows(action)
        typing = isinstance(self.focused, (Input, TextArea)) or self.view.swallows_text()
        undoable = bool(self.session.given or self.suspended)
        if action == "undo":
            return undoable and not typing  # in a box, u is a letter
        if action == "undo_in_box":
            return undoable and typing
        if action == "edit":
            card = self.session.current
            return card is not None and card.kind in EDITABLE_KINDS and not typing
        return True

    def action_reveal(self) -> None:
        self.view.reveal()

    def action_grade(self, button: int) -> None:
        self.view.grade(button)

    def action_type_answer(self) -> None:
        self.view.type_answer()

    def action_next(self) -> None:
        if self.view.allows("next"):
            self.show_current()

    def action_back(self) -> None:
        """Escape: out of a text box (keeping what is typed), else home; typed text not yet answered
        would be lost, so that asks first."""
        if not self.view.leave_box():
            card = self.session.current
            if card is None or not self.view.draft():
                self.app.action_home()
                return
            from drill.tui.dialogs.confirm import Confirm

            def answered(leave: bool | None) -> None:
                if leave:
                    self.app.action_home()

            self.app.push_screen(Confirm(f"Leave the review? What you typed for {card_name(card)} is lost."), answered)

    def action_start_drill(self) -> None:
        card = self.session.current
        if card is not None and card.kind == "coding":
            from drill.coding.drills import drill_id

            self.app.start_drill(drill_id(card.item_id), self.drill_closed)

    def drill_closed(self, ended: str | None) -> None:
        """Back from the drill: an ended drill (passed or given up) was its review, one of this
        session's grades (given up, it comes back later today, as Again does); else it waits."""
        card = self.session.current
        reviewed = None if ended is None or card is None else self.study.drills.reviews.pop(card.item_id, None)
        if reviewed is None:
            self.action_later()
            return
        grade, saved = reviewed
        self.session.answer(grade)
        self.keep(grade, saved)
        self.show_current()

    def action_later(self) -> None:
        """Move the current item to the end of today's session."""
        self.session.postpone_current()
        self.show_current()

    def action_undo_in_box(self) -> None:
        self.action_undo()

    def action_undo(self) -> None:
        said = self.take_back()
        if said is not None:
            self.notify(said, timeout=2)
            self.show_current()

    def can_take_back(self) -> bool:
        return bool(self.session.given or self.suspended)

    def take_back(self) -> str | None:
        """Take back this session's latest grade or suspension, its write too (also once the
        session is left: `u` on home); what was taken back, to say, or None when nothing is left."""
        if self.suspended and self.suspended[-1][0] == len(self.session.given):
            _, card = self.suspended.pop()
            self.session.restore(card)
            self.study.reviews.save_suspended(card.item_id, False)
            return f"Unsuspended {card_name(card)}"
        grade = self.session.undo()
        if grade is None:
            return None
        self.pending.pop()
        self.study.reviews.save_undo(grade)
        return f"Undid {BUTTON_LABEL[grade.button]} on {card_name(self.session.cards[grade.item_id])}"

    def action_suspend(self) -> None:
        card = self.session.drop_current()
        if card is None:
            return
        self.suspended.append((len(self.session.given), card))
        self.study.reviews.save_suspended(card.item_id)
        self.notify(f"Suspended {card_name(card)}; it will not be shown until unsuspended (u undoes it).", timeout=3)
        self.show_current()

    def action_edit(self) -> None:
        """Open the card in $VISUAL / $EDITOR at its line (a shipped card of an installed drill: its
        copy in the override deck); back from the editor, the file is re-read and synced, and the
        card shown again, history kept."""
        from drill.tui.editor import edit_item

        card = self.session.current
        if card is None or card.kind not in EDITABLE_KINDS:
            return
        revealed = not self.view.allows("reveal")
        opened = edit_item(self, self.study, card.item_id, card_name(card))
        if opened is None:
            return
        target, edited = opened
        edited.add_done_callback(
            lambda done: (
                done.exception() is None
                and self.post_message(CardEdited(card.item_id, target, done.result(), revealed))
            )
        )

    @on(CardEdited)
    def _card_edited(self, message: CardEdited) -> None:
        """Show the edited card with its new text, in the state it had (or say why the edit was refused)."""
        if message.errors:
            from drill.tui.editor import say_refused

            say_refused(self, Path(message.target.path), message.errors)
            return
        old = self.session.cards.get(message.item_id)
        found = self.study.reviews.cards([message.item_id])
        if old is None or not found:
            return
        card = replace(found[0], state=old.state)
        self.session.cards[card.item_id] = card
        where = f" (your copy in {message.target.path})" if message.target.copied else ""
        self.notify(f"Saved your edit of {card_name(card)}{where}.", timeout=4)
        if self.session.current is not None and self.session.current.item_id == card.item_id:
            self.show_current()
            if message.revealed:
                self.view.reveal()

    def finish(self) -> None:
        from drill.tui.screens.summary import SummaryScreen

        self.app.switch_screen(SummaryScreen(self.session.summary()))

    def screen_commands(self) -> Iterator[SystemCommand]:
        yield SystemCommand("Undo", "Take back the last grade (and its database write) or suspension", self.action_undo)
        yield SystemCommand("Suspend card", "Stop showing the current card", self.action_suspend)
        yield SystemCommand("Edit card", "Open the current card in $VISUAL or $EDITOR", self.action_edit)
