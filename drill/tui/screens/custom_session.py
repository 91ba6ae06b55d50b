"""Setting up a custom session: which blocks, kinds and topics, and whether to cram, review ahead
or take only the weakest items (drill.schedule.custom says what each means)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Header, Input, Static

from drill.content.vocabulary import BLOCKS
from drill.schedule.custom import SESSION_KINDS, CustomSession


def whole_number(text: str, name: str) -> int | None:
    """The number typed in a box (None when empty); ValueError naming the box when it is not one."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not “{text}”.")
    return int(text)


class CustomSessionScreen(Screen[CustomSession | None]):
    """Pick a custom session; ctrl+s starts it, Esc goes back without one."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("escape", "cancel", "Home"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="custom-session"):
            yield Static("[b]Custom session[/b] — no box ticked in a row means all of them.")
            yield Static("Blocks:")
            with Horizontal(classes="row"):
                for block in BLOCKS:
                    yield Checkbox(block, value=False, id=f"block-{block}")
            yield Static("Kinds:")
            with Horizontal(classes="row"):
                for kind in SESSION_KINDS:
                    yield Checkbox(kind, value=False, id=f"kind-{kind}")
            yield Input(placeholder="topic contains… (comma-separated)", id="topics", compact=True)
            with Horizontal(classes="row"):
                yield Input(placeholder="weakest N", id="weakest", type="integer", compact=True)
                yield Static(" ", classes="gap")
                yield Input(placeholder="due within N days", id="ahead", type="integer", compact=True)
            with Horizontal(classes="row"):
                yield Checkbox("cram: every matching item", id="cram")
                yield Checkbox("reschedule early reviews", id="reschedule")
            yield Static(
                "Cram, review-ahead and weakest sessions log their grades as cram and keep every schedule, "
                "unless [b]reschedule[/b] is ticked.\n[b]ctrl+s[/b] start   [b]esc[/b] home",
                id="custom-keys",
            )
        yield Footer(compact=True, show_command_palette=False)

    def ticked(self, prefix: str, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(name for name in names if self.query_one(f"#{prefix}-{name}", Checkbox).value)

    def spec(self) -> CustomSession:
        """The session as set; ValueError saying which box to fix."""
        topics = tuple(part.strip() for part in self.query_one("#topics", Input).value.split(",") if part.strip())
        return CustomSession(
            blocks=self.ticked("block", BLOCKS),
            topics=topics,
            kinds=self.ticked("kind", SESSION_KINDS),
            weakest=whole_number(self.query_one("#weakest", Input).value, "Weakest"),
            ahead=whole_number(self.query_one("#ahead", Input).value, "Due within"),
            cram=self.query_one("#cram", Checkbox).value,
            reschedule=self.query_one("#reschedule", Checkbox).value,
        )

    def action_start(self) -> None:
        try:
            spec = self.spec()
        except ValueError as error:
            self.notify(str(error), severity="warning")
            return
        self.dismiss(spec)

    def action_cancel(self) -> None:
        self.dismiss(None)
