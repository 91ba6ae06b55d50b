"""`drill kernel list | test | verify` contracts, and `drill check` covering drill.toml files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.coding_toys import write_candidate, write_toy_kernels

from drill.cli import main
from drill.coding.drills import load_drills
from drill.paths import Paths

REPO = Path(__file__).resolve().parents[3]


def run_json(capsys, *argv: str):
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def toy_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Content whose kernels/ is the toy drill (decks and problems are the shipped ones)."""
    root = tmp_path / "content"
    write_toy_kernels(root)
    real = Paths.resolve()
    (root / "decks").symlink_to(real.decks)
    (root / "problems").symlink_to(real.problems)
    monkeypatch.setattr("drill.paths.content_root", lambda: root)
    return root


def test_list_json_contract(capsys) -> None:
    code, rows = run_json(capsys, "kernel", "list", "--json")
    assert code == 0
    assert [row["id"] for row in rows] == [drill.id for drill in load_drills(Paths.resolve().kernels)]
    for row in rows:
        assert set(row) == {"id", "title", "difficulty", "budget_s", "block"}
        assert row["difficulty"] in ("easy", "medium", "hard") and isinstance(row["budget_s"], int)


def test_test_json_contract_and_exit_0_on_failure(capsys, toy_root: Path, tmp_path: Path) -> None:
    for source, status in [
        ("def add(a, b):\n    return a + b\n", "pass"),
        ("def add(a, b):\n    return 0\n", "fail"),
        ("def add(a, b)\n", "error"),
    ]:
        path = write_candidate(tmp_path, status, source)
        code, result = run_json(capsys, "kernel", "test", "toy-add", "--solution", str(path), "--json")
        assert code == 0 and result["status"] == status
        assert {"status", "passed", "failed", "tests", "seconds"} <= set(result)
        assert isinstance(result["passed"], int) and isinstance(result["failed"], int)
        assert isinstance(result["seconds"], float)
        assert result["passed"] + result["failed"] == 4
        assert all(set(test) == {"name", "outcome", "message"} for test in result["tests"])
        assert all(test["outcome"] in ("passed", "failed", "error", "skipped") for test in result["tests"])


def test_test_readable_summary_and_unknown_id(capsys, toy_root: Path, tmp_path: Path) -> None:
    path = write_candidate(tmp_path, "wrong", "def add(a, b):\n    return 0\n")
    assert main(["kernel", "test", "toy-add", "--solution", str(path)]) == 0
    out = capsys.readouterr().out
    assert "FAILED test_add[cpu-1-2]" in out and "add(1, 2) should be 3" in out
    assert out.rstrip().splitlines()[-1].startswith("FAIL: 3 of 4 tests failed")
    assert main(["kernel", "test", "no-such-drill", "--solution", str(path)]) == 2
    assert "no drill named 'no-such-drill'" in capsys.readouterr().err


@pytest.mark.slow
def test_verify_fails_when_a_starter_passes(capsys, toy_root: Path) -> None:
    assert main(["kernel", "verify", "--device", "cpu", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.startswith("ok   toy-add")
    folder = toy_root / "kernels" / "toy-add"
    (folder / "starter.py").write_text((folder / "solution.py").read_text())
    assert main(["kernel", "verify", "--device", "cpu", "--jobs", "1"]) == 1
    line = capsys.readouterr().out.strip()
    assert line.startswith("FAIL toy-add") and "starter pass (must fail" in line


@pytest.mark.slow
def test_verify_fails_when_a_mutant_passes_or_an_alternate_fails(capsys, toy_root: Path) -> None:
    """The shipped drills' own mutants and alternates: tests/unit/coding/test_coding_mutants.py."""
    folder = toy_root / "kernels" / "toy-add"
    for kind, name, source in (
        ("mutants", "minus", "def add(a, b):\n    return a - b\n"),
        ("alternates", "sum", "def add(a, b):\n    return sum((a, b))\n"),
    ):
        (folder / kind).mkdir()
        (folder / kind / f"{name}.py").write_text(f'"""{name}"""\n' + source)
    assert main(["kernel", "verify", "--device", "cpu", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert "1/1 mutants caught; 1/1 alternates pass" in out and err.startswith("runs contained by ")
    (folder / "mutants" / "sneaky.py").write_text('"""rounds"""\ndef add(a, b):\n    return round(a + b, 6)\n')
    (folder / "alternates" / "wrong.py").write_text('"""wrong"""\ndef add(a, b):\n    return a * b\n')
    assert main(["kernel", "verify", "--device", "cpu", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "1/2 mutants caught; mutant sneaky not caught (pass: all 4 tests passed)" in out
    assert "alternate wrong rejected: " in out


def test_check_reports_drill_toml_problems(capsys, toy_root: Path) -> None:
    toml = toy_root / "kernels" / "toy-add" / "drill.toml"
    toml.write_text(toml.read_text().replace('block = "compute"', 'block = "kitchen"'))
    code, report = run_json(capsys, "check", "--json")
    assert code == 1
    assert [(error["path"], error["line"]) for error in report["errors"]] == [(str(toml), 6)]


@pytest.mark.parametrize("bad", ["folder", "missing.py"])
def test_a_bad_solution_path_is_one_line_and_exit_2(capsys, toy_root: Path, tmp_path: Path, bad: str) -> None:
    (tmp_path / "folder").mkdir()
    path = tmp_path / bad
    for extra in ([], ["--json"]):
        assert main(["kernel", "test", "toy-add", "--solution", str(path), *extra]) == 2
        out, err = capsys.readouterr()
        what = "is a folder, not a Python file" if bad == "folder" else "does not exist"
        assert out == "" and err == f"drill: --solution {path} {what}\n"
