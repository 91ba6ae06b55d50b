"""Setting up a custom session: which blocks, kinds and topics, and whether to cram, review ahead
or take only the weakest items (drill.schedule.custom says what each means). Every box keeps its
label beside it, and the screen opens on the setup it was last given (kept when nothing matched)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Header, Input, Static

from drill.content.vocabulary import BLOCKS
from drill.days import MAX_AHEAD_DAYS
from drill.schedule.custom import SESSION_KINDS, CustomSession


def whole_number(text: str, name: str, most: int | None = None) -> int | None:
    """The number typed in a box (None when empty); ValueError naming the box when it is not a
    whole number from 1 (to `most`, where given)."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not “{text}”.")
    if most is not None and int(text) > most:
        raise ValueError(f"{name} must be a whole number from 1 to {most}, not “{text}”.")
    return int(text)


def number(value: int | None) -> str:
    return "" if value is None else str(value)


class CustomSessionScreen(Screen[CustomSession | None]):
    """Pick a custom session; ctrl+s starts it, Esc goes back without one."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("escape", "cancel", "Home"),
    ]

    def __init__(self, setup: CustomSession | None = None) -> None:
        super().__init__()
        self.setup = setup or CustomSession()  # the boxes as they open

    def compose(self) -> ComposeResult:
        setup = self.setup
        yield Header()
        with VerticalScroll(id="custom-session", can_focus=False):
            yield Static("[b]Custom session[/b] — no box ticked in a row means all of them.")
            yield Static("Blocks:")
            with Horizontal(classes="row"):
                for block in BLOCKS:
                    yield Checkbox(block, value=block in setup.blocks, id=f"block-{block}")
            yield Static("Kinds:")
            with Horizontal(classes="row"):
                for kind in SESSION_KINDS:
                    yield Checkbox(kind, value=kind in setup.kinds, id=f"kind-{kind}")
            with Horizontal(classes="row"):
                yield Static("Topic contains:", classes="label")
                yield Input(
                    ", ".join(setup.topics), placeholder="any topic (comma-separated parts)", id="topics", compact=True
                )
            with Horizontal(classes="row"):
                yield Static("Weakest N items:", classes="label")
                yield Input(number(setup.weakest), placeholder="all", id="weakest", type="integer", compact=True)
                yield Static("Due within N days:", classes="label gap")
                yield Input(
                    number(setup.ahead), placeholder=f"1 to {MAX_AHEAD_DAYS}", id="ahead", type="integer", compact=True
                )
            with Horizontal(classes="row"):
                yield Checkbox("cram: every matching item", value=setup.cram, id="cram")
                yield Checkbox("reschedule early reviews", value=setup.reschedule, id="reschedule")
            yield Static(
                "Cram, review-ahead and weakest sessions log their grades as cram and keep every schedule, "
                "unless [b]reschedule[/b] is ticked.\n[b]space[/b] tick   [b]tab[/b] next box   "
                "[b]ctrl+s[/b] start   [b]esc[/b] home",
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
            ahead=whole_number(self.query_one("#ahead", Input).value, "Due within", MAX_AHEAD_DAYS),
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
