"""How a run is said on the drill screen: each fact once, messages cut at a word, never mid-word.
(The headline, TestRun.headline: tests/unit/coding/test_coding_result.py.)"""

from __future__ import annotations

import pytest

from drill.coding.runner.result import TestResult
from drill.tui.screens.drill_results import result_lines, shorten, tally

SYNTAX = "SyntaxError: '(' was never closed (solution.py, line 2)"


def test_a_long_message_is_cut_at_a_word_with_an_ellipsis() -> None:
    text = "AssertionError: " + " ".join(f"word{n}" for n in range(60))
    cut = shorten(text, 160)
    assert len(cut) <= 160 and cut.endswith("…")
    assert text.startswith(cut[:-1]) and text[len(cut) - 1] == " "  # the cut falls between words
    assert shorten("short\nsecond line") == "short"
    assert shorten("x" * 200, 160) == "x" * 159 + "…"  # one long word: cut where it must be


def test_a_syntax_error_stopping_every_test_is_said_once() -> None:
    tests = [TestResult(f"test_{n}", "error", "  File ...\nSyntaxError", summary=SYNTAX) for n in range(3)]
    said = f"The tests could not run your code: {SYNTAX}"
    assert result_lines(tests, said) == ["- ! `test_0`", "- ! `test_1`", "- ! `test_2`"]
    assert result_lines(tests) == [f"- ! `test_0` — {SYNTAX}", "- ! `test_1`", "- ! `test_2`"]


@pytest.mark.slow
def test_each_failure_says_what_is_new() -> None:
    tests = [
        TestResult("test_a", "passed"),
        TestResult("test_b", "failed", summary="AssertionError: b"),
        TestResult("test_c", "failed", summary="AssertionError: c"),
        TestResult("test_d", "skipped"),
        TestResult("test_e", "failed", summary="AssertionError: c"),
    ]
    assert result_lines(tests, "1 of 4 tests failed; first: test_b: AssertionError: b") == [
        "- ✓ `test_a`",
        "- ✗ `test_b`",
        "- ✗ `test_c` — AssertionError: c",
        "- · `test_d`",
        "- ✗ `test_e`",
    ]


def test_the_running_tally_counts_skipped_tests_apart_and_errors_as_failures() -> None:
    tests = [TestResult("a", "passed"), TestResult("b", "skipped"), TestResult("c", "error"), TestResult("d", "failed")]
    assert tally(tests) == "1 passed · 2 failed · 1 skipped"
    assert tally(tests[:1]) == "1 passed" and tally([]) == ""
