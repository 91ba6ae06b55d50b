"""Loading kernels/<id>/drill.toml and checking drill folders (errors as path:line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.coding_toys import write_toy_kernels

from drill.coding.drills import Drill, DrillError, check, find_drill, load_drills
from drill.paths import Paths

KERNELS = Paths.resolve().kernels


def test_shipped_drills_load_and_are_valid() -> None:
    drills = load_drills(KERNELS)
    assert len(drills) >= 14
    assert check(KERNELS) == []
    for drill in drills:
        assert drill.folder.name == drill.id
        for path in (drill.prompt, drill.starter, drill.solution, drill.tests):
            assert path.is_file(), path
        assert 2 <= len(drill.hints) <= 3


def test_listing_row_and_paths(tmp_path: Path) -> None:
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    assert isinstance(drill, Drill)
    assert drill.listing() == {
        "id": "toy-add",
        "title": "Add two numbers",
        "difficulty": "easy",
        "budget_s": 600,
        "block": "compute",
    }
    assert drill.tests.name == "test_toy_add.py" and drill.kernels_dir == (tmp_path / "kernels").resolve()
    assert drill.hints == ["Use +.", "return a + b"]


def test_unknown_drill_raises(tmp_path: Path) -> None:
    with pytest.raises(DrillError, match="no drill named 'nope'"):
        find_drill(write_toy_kernels(tmp_path), "nope")


def _errors(kernels: Path) -> list[tuple[str, int, str]]:
    return [(error.path.name, error.line, error.message) for error in check(kernels)]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda text: text.replace('title = "Add two numbers"', "title = "), ("drill.toml", 3, "bad TOML")),
        (lambda text: text.replace('difficulty = "easy"', 'difficulty = "trivial"'), ("drill.toml", 4, "`difficulty`")),
        (lambda text: text.replace('topic = "arithmetic"\n', ""), ("drill.toml", 1, "missing required key `topic`")),
        (lambda text: text + 'colour = "red"\n', ("drill.toml", 10, "unknown key `colour`")),
        (lambda text: text.replace('id = "toy-add"', 'id = "toy-sum"'), ("drill.toml", 2, "differs from its folder")),
        (lambda text: text.replace("budget_s = 600", "budget_s = 5"), ("drill.toml", 5, "`budget_s`")),
        (
            lambda text: text.replace('hints = ["Use +.", "return a + b"]', 'hints = ["one"]'),
            ("drill.toml", 9, "`hints`"),
        ),
    ],
)
def test_bad_drill_toml_is_reported_at_its_line(tmp_path: Path, edit, expected) -> None:
    kernels = write_toy_kernels(tmp_path)
    toml = kernels / "toy-add" / "drill.toml"
    toml.write_text(edit(toml.read_text()))
    errors = _errors(kernels)
    assert len(errors) == 1, errors
    name, line, message = errors[0]
    assert (name, line) == expected[:2] and expected[2] in message


def test_missing_files_syntax_errors_and_benchmark_case(tmp_path: Path) -> None:
    kernels = write_toy_kernels(tmp_path)
    folder = kernels / "toy-add"
    (folder / "prompt.md").unlink()
    (folder / "starter.py").write_text("def add(a, b)\n    pass\n")
    tests = folder / "test_toy_add.py"
    tests.write_text(tests.read_text().replace("def benchmark_case", "def bench"))
    (kernels / "stray").mkdir()
    errors = _errors(kernels)
    assert ("drill.toml", 1, "missing file prompt.md next to drill.toml") in errors
    assert any(name == "starter.py" and line == 1 and "syntax error" in message for name, line, message in errors)
    assert any(name == "test_toy_add.py" and "benchmark_case" in message for name, line, message in errors)
    assert ("stray", 1, "a drill folder needs a drill.toml") in errors
    assert [drill.id for drill in load_drills(kernels)] == ["toy-add"]  # still loadable; check says what is wrong


def test_broken_drill_is_skipped_by_load_drills(tmp_path: Path) -> None:
    kernels = write_toy_kernels(tmp_path)
    (kernels / "toy-add" / "drill.toml").write_text("id = \n")
    assert load_drills(kernels) == []
    with pytest.raises(DrillError):
        find_drill(kernels, "toy-add")
