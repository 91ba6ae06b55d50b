"""Can this Python run coding drills? What is missing, and the one command that installs it.

Every drill's hidden tests need pytest (the runner) and torch (kernels/conftest.py); the Triton
drills also need triton and, for its CPU interpreter, numpy, where Triton has wheels (Linux
x86-64; elsewhere those drills skip). `pip install -e .` installs all of them; this module is
for a Python set up some other way. It asks `importlib.util.find_spec` only: the app process
never imports torch. What a drill needs is read from the imports of its test file and
reference solution and the shared kernels/conftest.py (parsed with ast, never run).

    missing_requirements(*drills) -> list[str]     e.g. ["torch", "pytest"]; [] when all is there
    describe(missing) -> str                       one line: what is missing and the fixing command
    missing_modules_in(text) -> list[str]          the requirements a run's output says it lacked
"""

from __future__ import annotations

import ast
import platform
import re
import shlex
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.coding.drills import Drill

# The requirement each needed module installs from, with the pins of pyproject.toml's
# dependencies (tests/unit/coding/test_coding_environment.py keeps the two in step).
REQUIREMENTS = {
    "torch": "torch==2.13.0",
    "pytest": "pytest>=8",
    "triton": "triton>=3.6",
    "numpy": "numpy",
}
ALWAYS = ("pytest", "torch")  # the runner, and what the shipped kernels/conftest.py imports
# Modules whose absence in a test process means this Python is incomplete, not that the
# candidate's code is wrong: each maps to the requirement that brings it.
PROVIDED_BY = {
    "pytest": "pytest",
    "_pytest": "pytest",
    "pluggy": "pytest",
    "iniconfig": "pytest",
    "torch": "torch",
    "triton": "triton",
    "numpy": "numpy",
}
CHECKOUT_FIX = "pip install -e ."
_NO_MODULE = re.compile(r"No module named '?([\w.]+)'?")


def triton_installable() -> bool:
    """Whether Triton has wheels here (pyproject's marker: Linux x86-64)."""
    return sys.platform == "linux" and platform.machine() == "x86_64"


def _top_level_imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


@lru_cache(maxsize=256)
def _imports_of(path: Path, mtime_ns: int) -> frozenset[str]:
    try:
        return frozenset(_top_level_imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return frozenset()


def imports_of(path: Path) -> frozenset[str]:
    """The top-level modules a Python file imports (or asks pytest.importorskip for)."""
    try:
        return _imports_of(path, path.stat().st_mtime_ns)
    except OSError:
        return frozenset()


def drill_needs(drill: Drill) -> list[str]:
    """The requirements one drill's runs need here, in REQUIREMENTS order."""
    imported = imports_of(drill.conftest) | imports_of(drill.tests) | imports_of(drill.solution)
    needs = {"pytest"} | (imported & set(REQUIREMENTS))
    if "triton" in needs:
        if triton_installable():
            needs.add("numpy")  # TRITON_INTERPRET=1 runs the kernels with numpy
        else:
            needs.discard("triton")  # no wheel here: the drill's tests skip themselves
    return [name for name in REQUIREMENTS if name in needs]


def _importable(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):  # a broken or half-removed package counts as missing
        return False


def missing_requirements(*drills: Drill) -> list[str]:
    """What this Python lacks to run these drills' tests (every drill's basics when none given)."""
    needs = set(ALWAYS)
    for drill in drills:
        needs.update(drill_needs(drill))
    return [name for name in REQUIREMENTS if name in needs and not _importable(name)]


def fix_command(missing: list[str], python: str | None = None) -> str:
    """The pip command that installs `missing` into this Python, with pyproject's pins."""
    specs = [shlex.quote(REQUIREMENTS.get(name, name)) for name in missing]
    return f"{shlex.quote(python or sys.executable)} -m pip install {' '.join(specs)}"


def _names(missing: list[str]) -> str:
    return missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + f" and {missing[-1]}"


def describe(missing: list[str], python: str | None = None) -> str:
    """One line for a person: what coding drills lack here and the exact command that fixes it."""
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"Coding drills need {_names(missing)}, which {verb} not installed in this Python "
        f"({python or sys.executable}). Install {'it' if len(missing) == 1 else 'them'} with: "
        f"{fix_command(missing, python)} (or `{CHECKOUT_FIX}` in a drill checkout)."
    )


def missing_modules_in(text: str) -> list[str]:
    """The requirements a test process's output says it could not import, in REQUIREMENTS order."""
    found = {PROVIDED_BY[name] for name in _NO_MODULE.findall(text) if name in PROVIDED_BY}
    return [name for name in REQUIREMENTS if name in found]
