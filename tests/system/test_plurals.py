"""One plural rule (drill.words.counted): no "(s)" left in any string drill or a problem file says,
and messages with one thing say it in the singular, with two in the plural."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from drill.interop.errors import SHOWN, InteropError
from drill.words import counted, noun_for

ROOT = Path(__file__).resolve().parents[2]
PLURAL_S = re.compile(r"[a-z]\(s\)")  # 'review(s)'; a key hint such as 'the reference (s)' is no plural


def strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant in a Python file (f-strings' literal parts included), with its line."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_string_in_drill_or_the_problems_says_s_in_brackets() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((ROOT / "drill").rglob("*.py"))
        for line, text in strings(path)
        if PLURAL_S.search(text)
    ]
    found += [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "problems").rglob("*.toml"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PLURAL_S.search(line)
    ]
    assert found == []


def test_one_is_singular_and_two_plural() -> None:
    assert [counted(n, "review") for n in (0, 1, 2)] == ["0 reviews", "1 review", "2 reviews"]
    assert [noun_for(n, "person", "people") for n in (1, 2)] == ["person", "people"]
    assert InteropError(["a.csv:2: bad"] * (SHOWN + 1)).lines()[-1] == "… and 1 more problem"
    assert InteropError(["a.csv:2: bad"] * (SHOWN + 2)).lines()[-1] == "… and 2 more problems"
