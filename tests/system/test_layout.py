"""The tests' own layout: tests/unit/<package> mirrors drill/, tests/tui holds the Pilot tests,
tests/system what runs processes, installs or checks the tree, tests/snapshots the screen
snapshots; test modules share code only through tests/helpers/ (never by importing another test
module or a conftest)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
HELPERS = TESTS / "helpers"
SNAPSHOTS = TESTS / "snapshots"
FOLDERS = ("unit", "tui", "system", "snapshots")


def python_files() -> list[Path]:
    """Every Python file of the tests: test modules, conftests, helpers."""
    return sorted(TESTS.rglob("*.py"))


def imported_names(path: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every module or name `path` imports, relative imports made absolute
    from tests/ (`from .x import y` in tests/snapshots gives snapshots.x and snapshots.x.y)."""
    package = path.parent.relative_to(TESTS).parts
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = (
                ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
                if node.level
                else node.module or ""
            )
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def local_file(name: str, importer: Path) -> Path | None:
    """The file under tests/ that `name` imports, looked up the way pytest's sys.path finds it
    (tests/, the importer's folder, the repository), or None for an installed module."""
    parts = name.split(".")
    for root in (TESTS, importer.parent, TESTS.parent):
        base = root.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file() and TESTS in candidate.parents:
                return candidate
    return None


def test_test_modules_share_code_only_through_helpers() -> None:
    stems = {path.stem for path in python_files() if path.stem.startswith("test_") or path.stem == "conftest"}
    wrong: dict[str, str] = {}
    for path in python_files():
        for line, name in imported_names(path):
            target = local_file(name, path)
            by_name = set(name.split(".")) & stems  # found through a sys.path entry another test added
            if (target is not None and HELPERS not in target.parents) or by_name:
                wrong.setdefault(f"{path.relative_to(TESTS)}:{line}", name)
    assert wrong == {}, "import shared code from tests/helpers/ instead"


def test_every_snapshot_lives_under_tests_snapshots() -> None:
    stray = [
        str(folder.relative_to(TESTS))
        for folder in TESTS.rglob("__snapshots__")
        if folder != SNAPSHOTS / "__snapshots__"
    ]
    comparing = [
        str(path.relative_to(TESTS))
        for path in python_files()
        if path.stem.startswith("test_")
        and path != Path(__file__).resolve()
        and "snap_compare" in path.read_text(encoding="utf-8")
        and SNAPSHOTS not in path.parents
    ]
    assert (stray, comparing) == ([], [])


def test_every_test_module_sits_in_unit_tui_system_or_snapshots() -> None:
    stray = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if path.relative_to(TESTS).parts[0] not in FOLDERS
    ]
    assert stray == []


def test_unit_tests_are_named_after_a_drill_package() -> None:
    packages = {path.name for path in (TESTS.parent / "drill").iterdir() if (path / "__init__.py").is_file()}
    unit = {path.name for path in (TESTS / "unit").iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert unit - packages - {"config"} == set()  # config: drill/config.py, a module
