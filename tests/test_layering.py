"""Logic modules run without a terminal: importing them never loads Textual (or sympy/torch)."""

import subprocess
import sys

LOGIC = [
    "drill.content.decks", "drill.content.check", "drill.store.engine", "drill.store.sync",
    "drill.store.queries", "drill.store.writes", "drill.schedule.sm2", "drill.schedule.queue",
    "drill.schedule.session", "drill.study", "drill.stats.summary", "drill.cli", "drill.library",
    "drill.estimate", "drill.estimate.rounds", "drill.estimate.attempt", "drill.store.estimates",
    "drill.coding.drills", "drill.coding.api", "drill.store.coding", "drill.commands.estimate",
    "drill.commands.kernel",
]


def test_logic_never_imports_textual() -> None:
    code = "import sys\n" + "".join(f"import {name}\n" for name in LOGIC) + (
        "bad = sorted(m for m in ('textual', 'sympy', 'torch') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_app_module_defers_the_database_and_sympy() -> None:
    code = (
        "import sys, drill.tui.app\n"
        "print(','.join(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'sympy', 'torch', 'pydantic') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
