"""Logic runs without a terminal: no module outside drill.tui imports Textual, and the heavy
libraries (sympy, torch, triton, fsrs and fsrs-rs, plotting) load only when first used."""

import pkgutil
import subprocess
import sys

import pytest

import drill

HEAVY = ("textual", "sympy", "torch", "triton", "fsrs", "fsrs_rs_python", "plotext", "textual_plotext")
LOGIC = sorted(
    module.name
    for module in pkgutil.walk_packages(drill.__path__, "drill.")
    if not module.name.startswith("drill.tui") and module.name != "drill.__main__"
)


def loaded_after(code: str, watched: tuple[str, ...]) -> list[str]:
    probe = code + f"\nimport sys\nprint(','.join(m for m in {watched!r} if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


@pytest.mark.slow
def test_every_logic_module_imports_without_textual_or_heavy_libraries() -> None:
    assert len(LOGIC) > 60  # the walk found the whole package
    assert loaded_after("".join(f"import {name}\n" for name in LOGIC), HEAVY) == []


def test_app_module_defers_the_database_and_sympy() -> None:
    watched = ("sqlalchemy", "alembic", "sympy", "torch", "pydantic", "fsrs", "fsrs_rs_python", "textual_plotext")
    assert loaded_after("import drill.tui.app", watched) == []
