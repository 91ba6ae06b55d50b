"""drill's imports go down its layers and never round in a cycle.

The rules are the import-linter contracts in pyproject.toml ([tool.importlinter]), the ones
`lint-imports` checks in CI: a layers contract (every module of drill in one layer; an import,
at module level, inside a function or for types only, goes down the list or stays within its
line) and an acyclic one (no cycle between modules at any depth). Here they must hold for drill,
must break on a copy of drill with an upward import, a cycle or a module without a layer, and
the README's layer list must state the same layers.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` over the drill package in `root`, against the contracts in its pyproject.toml."""
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def layers() -> list[list[str]]:
    """The layers contract's lines, top first, as module names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [contract for contract in config["contracts"] if contract["type"] == "layers"]
    return [[f"drill.{name.strip()}" for name in line.split(":")] for line in contract["layers"]]


def test_drill_keeps_the_contracts() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_readme_lists_the_same_layers() -> None:
    listed = re.findall(r"^\d+\. (drill\..+)$", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert [[name.strip() for name in line.split(",")] for line in listed] == layers()
    assert layers()[0][0] == "drill.cli" and ["drill.store"] in layers()


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """drill and its pyproject.toml, copied to be broken."""
    shutil.copytree(ROOT / "drill", tmp_path / "drill", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def add(root: Path, module: str, text: str) -> None:
    path = root / module
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + text, encoding="utf-8")


UPWARD = {
    "at module level": "\nimport drill.study\n",
    "inside a function": "\n\ndef _upward() -> None:\n    import drill.study\n",
    "for types only": "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import drill.study\n",
}


@pytest.mark.parametrize("how", UPWARD)
def test_an_upward_import_breaks_the_layers(copy: Path, how: str) -> None:
    add(copy, "drill/days.py", UPWARD[how])
    result = lint_imports(copy)
    assert result.returncode == 1 and "drill.days is not allowed to import drill.study" in result.stdout


def test_a_cycle_within_one_layer_breaks_the_acyclic_contract(copy: Path) -> None:
    add(copy, "drill/words.py", "\nimport drill.errors\n")
    add(copy, "drill/errors.py", "\nimport drill.words\n")
    result = lint_imports(copy)
    assert result.returncode == 1 and "No cycles are allowed in drill.\n" in result.stdout


def test_a_cycle_between_modules_of_one_package_breaks_the_acyclic_contract(copy: Path) -> None:
    add(copy, "drill/schedule/first.py", "import drill.schedule.second\n")
    add(copy, "drill/schedule/second.py", "import drill.schedule.first\n")
    result = lint_imports(copy)
    assert result.returncode == 1 and "No cycles are allowed in drill.schedule." in result.stdout


def test_a_module_without_a_layer_breaks_the_layers(copy: Path) -> None:
    add(copy, "drill/stray.py", '"""In no layer."""\n')
    result = lint_imports(copy)
    assert result.returncode == 1 and "- drill.stray" in result.stdout
