"""How a test run is said on the drill screen: while it runs, a line of counts; then its headline
(TestRun.headline) and a line per test, each fact once.

A test's message is shown where it is news: not when the line above or the headline already
said it, so a syntax error that stops every test is said once. Plain text, no Textual.
"""

from __future__ import annotations

from collections.abc import Iterable

from drill.coding.runner.result import TestResult

MARK = {"passed": "✓", "failed": "✗", "error": "!", "skipped": "·"}
MESSAGE_LIMIT = 160


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def shorten(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The first line of `text`, cut at the last word boundary within `limit` and ended with '…'."""
    line = first_line(text)
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"


def tally(tests: Iterable[TestResult]) -> str:
    """What the tests so far came to, in the words of the verdict: "34 passed · 2 failed · 13 skipped"
    (failed counts errors too; a count that is zero is left out; "" before the first)."""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for test in tests:
        counts["failed" if test.outcome == "error" else test.outcome] += 1
    return " · ".join(f"{count} {said}" for said, count in counts.items() if count)


def result_lines(tests: Iterable[TestResult], said: str = "") -> list[str]:
    """One Markdown bullet per test: its mark, its name and, for a failure, its message unless
    the line above or `said` (the headline) already gave it."""
    lines, previous = [], None
    for test in tests:
        line = f"- {MARK.get(test.outcome, '?')} `{test.name}`"
        if test.outcome in ("failed", "error"):
            message = first_line(test.summary or test.message)
            if message and message != previous and message not in said:
                line += f" — {shorten(message)}"
            previous = message
        lines.append(line)
    return lines
