"""After a mock interview: a score per section and overall, every answer, the worst estimation
slips with their worked solutions. The same screen shows a past interview from the history."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown

from drill.interview.scorecard import Scorecard
from drill.schedule.sm2 import BUTTON_LABEL
from drill.tui.widgets.pitch_timer import clock_text

ENDED = {"done": "complete", "time": "time ran out", "abandoned": "abandoned"}


def _title(item_id: str, titles: dict[str, str], width: int = 44) -> str:
    """An item's question in one short table cell (its id when the text is unknown)."""
    text = " ".join(titles.get(item_id, item_id).split()).replace("|", "/")
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _percent(value: float) -> str:
    return f"{value:.0%}"


def scorecard_markdown(card: Scorecard, titles: dict[str, str]) -> str:
    answered = len(card.answers)
    asked = sum(card.planned.values())
    lines = [
        f"## Mock interview {ENDED.get(card.ended, card.ended)}: {_percent(card.score)} overall",
        "",
        f"{answered} of {asked} answered in {clock_text(card.seconds_used)} of {clock_text(card.settings.seconds)}"
        + (f" · started {card.started_at[:16].replace('T', ' ')} UTC" if card.started_at else "")
        + ". Unanswered questions score zero; each section weighs the same.",
        "",
        "| section | answered | score | time |",
        "|---|---|---|---|",
    ]
    for section in card.sections:
        lines.append(f"| {section.title} | {section.answered}/{section.planned} | {_percent(section.score)} "
                     f"| {clock_text(section.seconds)} |")
    grill = card.in_section("grill")
    if grill:
        lines += ["", "### Grill questions", "", "| question | grade | spoken |", "|---|---|---|"]
        lines += [f"| {_title(a.item_id, titles)} | {BUTTON_LABEL.get(a.button, '—')} | {clock_text(a.seconds)} |"
                  for a in grill]
    pitch = card.in_section("pitch")
    if pitch:
        lines += ["", "### Pitch", "", "| pitch | time / target | grade |", "|---|---|---|"]
        for a in pitch:
            target = a.target_seconds or 0
            verdict = "over" if a.seconds > target else "in time"
            lines.append(f"| {_title(a.item_id, titles)} | {clock_text(a.seconds)} / {clock_text(target)} ({verdict}) "
                         f"| {BUTTON_LABEL.get(a.button, '—')} |")
    estimates = card.in_section("estimate")
    if estimates:
        lines += ["", "### Estimation", "", "| problem | your answer | score | time |", "|---|---|---|---|"]
        lines += [f"| {a.item_id.removeprefix('estimate:')} | `{(a.answer or '—').replace('|', '/')}` | {a.score:.2f} "
                  f"| {clock_text(a.seconds)} |" for a in estimates]
    coding = card.in_section("coding")
    if coding:
        lines += ["", "### Coding", "", "| drill | result | time / budget |", "|---|---|---|"]
        lines += [f"| {a.item_id.removeprefix('kernel:')} | {a.result} | {clock_text(a.seconds)} / "
                  f"{clock_text(a.target_seconds or 0)} |" for a in coding]
    worst = card.worst_estimates()
    if worst:
        lines += ["", "## Worst estimation slips", ""]
        for answer in worst:
            lines += [f"### {answer.item_id.removeprefix('estimate:')}", "", answer.detail or "", ""]
    return "\n".join(lines)


class MockInterviewScorecardScreen(Screen[None]):
    DEFAULT_CSS = """
    #interview-scorecard { padding: 0 2; }
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
            yield Markdown(scorecard_markdown(self.scorecard, self.titles))
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Mock interview"
