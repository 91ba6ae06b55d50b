"""After a mock interview: a score per section and overall, every answer, the worst estimation
slips with their worked solutions. The same screen shows a past interview from the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, Static

from drill.interview.scorecard import InterviewAnswer, Scorecard
from drill.interview.settings import SECTION_TITLES
from drill.schedule.pitch_time import pitch_timing
from drill.schedule.sm2 import BUTTON_LABEL
from drill.stats.text import local_time
from drill.tui.plain_text import plain_text
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.schedule.records import Card

ENDED = {"done": "complete", "time": "time ran out", "abandoned": "abandoned"}


def item_titles(cards: list[Card]) -> dict[str, str]:
    """What names each asked item: a question's text, an estimation family's title."""
    return {card.item_id: card.topic if card.kind == "estimate" else card.prompt for card in cards}


def title(item_id: str, titles: dict[str, str]) -> str:
    """An item's question, whole, on one line that the table wraps (its id when the text is unknown)."""
    return " ".join(titles.get(item_id, item_id.removeprefix("estimate:")).split())


def headline(card: Scorecard) -> Text:
    text = Text()
    text.append(f"Mock interview {ENDED.get(card.ended, card.ended)}: {card.score:.0%} overall", style="bold")
    if card.forecast is not None:
        text.append(f"\nPredicted {card.forecast.said()} as it started, scored {card.score:.0%}")
    asked = sum(card.planned.values())
    text.append(
        f"\n{len(card.answers)} of {asked} answered in {clock_text(card.seconds_used)} of "
        f"{clock_text(card.settings.seconds)}"
    )
    if card.started_at:
        text.append(f" · started {local_time(card.started_at)}")
    text.append(". Unanswered questions score zero; each section weighs the same.", style="dim")
    return text


def _table(*columns: tuple[str, JustifyMethod]) -> Table:
    """A table whose first column (what was asked) wraps and whose other columns never do."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, header_style="bold", expand=False)
    for number, (name, justify) in enumerate(columns):
        table.add_column(name, justify=justify, no_wrap=number > 0)
    return table


def sections_table(card: Scorecard) -> Table:
    table = _table(("section", "left"), ("answered", "right"), ("score", "right"), ("time", "right"))
    for section in card.sections:
        table.add_row(
            section.title, f"{section.answered}/{section.planned}", f"{section.score:.0%}", clock_text(section.seconds)
        )
    return table


def _grade(answer: InterviewAnswer) -> str:
    return BUTTON_LABEL.get(answer.button, "—") if answer.button else "—"


def answers_table(card: Scorecard, section: str, titles: dict[str, str]) -> Table | None:
    """Every answer of one section, or None when it has none."""
    answers = card.in_section(section)
    if not answers:
        return None
    if section == "grill":
        table = _table(("question", "left"), ("grade", "left"), ("spoken", "right"))
        for a in answers:
            table.add_row(title(a.item_id, titles), _grade(a), clock_text(a.seconds))
    elif section == "pitch":
        table = _table(("pitch", "left"), ("time / target", "right"), ("grade", "left"))
        for a in answers:
            target = a.target_seconds or 0
            timing = pitch_timing(a.seconds, target)
            said = Text(f" {timing}", style="green" if timing == "in time" else "red")
            table.add_row(
                title(a.item_id, titles), Text(f"{clock_text(a.seconds)} / {clock_text(target)}") + said, _grade(a)
            )
    elif section == "estimate":
        table = _table(("problem", "left"), ("your answer", "left"), ("score", "right"), ("time", "right"))
        for a in answers:
            table.add_row(title(a.item_id, titles), a.answer or "—", f"{a.score:.2f}", clock_text(a.seconds))
    else:
        table = _table(("drill", "left"), ("result", "left"), ("time / budget", "right"))
        for a in answers:
            table.add_row(
                a.item_id.removeprefix("kernel:"),
                a.result or "—",
                f"{clock_text(a.seconds)} / {clock_text(a.target_seconds or 0)}",
            )
    return table


def slips_markdown(card: Scorecard, titles: dict[str, str]) -> str:
    """The worst estimation answers with their problems and worked solutions."""
    worst = card.worst_estimates()
    if not worst:
        return ""
    lines = ["## Worst estimation slips", ""]
    for answer in worst:
        lines += [f"### {title(answer.item_id, titles)}", "", answer.detail or "", ""]
    return "\n".join(lines)


def scorecard_renderables(card: Scorecard, titles: dict[str, str]) -> Group:
    """Everything above the slips, as one Rich group (the screen's top, and a text for tests)."""
    parts: list[RenderableType] = [headline(card), Text(""), sections_table(card)]
    for section in ("grill", "pitch", "estimate", "coding"):
        table = answers_table(card, section, titles)
        if table is not None:
            parts += [Text(SECTION_TITLES[section], style="bold"), table]
    return Group(*parts)


class MockInterviewScorecardScreen(Screen[None]):
    DEFAULT_CSS = """
    #interview-scorecard { padding: 0 2; }
    #interview-scorecard-top { margin-top: 1; }
    """

    BINDINGS = [
        Binding("enter,escape", "app.home", "Home"),
        Binding("H", "app.mock_interview_history", "History"),
        Binding("M", "app.mock_interview", "New interview"),
    ]

    def __init__(self, scorecard: Scorecard, titles: dict[str, str] | None = None) -> None:
        super().__init__()
        self.scorecard = scorecard
        self.titles = titles or {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="interview-scorecard"):
            yield Static(scorecard_renderables(self.scorecard, self.titles), id="interview-scorecard-top")
            slips = slips_markdown(self.scorecard, self.titles)
            markdown = Markdown(slips, id="interview-slips")
            markdown.display = bool(slips)
            yield markdown
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "Mock interview"

    def text(self) -> str:
        """The scorecard as plain text (what the screen shows, slips included)."""
        return (
            plain_text(scorecard_renderables(self.scorecard, self.titles))
            + "\n"
            + slips_markdown(self.scorecard, self.titles)
        )
