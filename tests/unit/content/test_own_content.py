"""Your own estimation problems and coding drills (DRILL_HOME/problems, DRILL_HOME/kernels): the
README's examples, read from the README itself, load, validate, verify and reach the queue; a
clash with a shipped id and a broken file are path:line errors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from drill.cli import main
from drill.coding.drills import item_id as drill_item_id
from drill.coding.drills import load_drills
from drill.estimate.items import item_id as family_item_id
from drill.library import load_library
from drill.paths import Paths
from drill.study import Study

ROOT = Path(__file__).resolve().parents[3]
LABEL = re.compile(r"^`DRILL_HOME/([^`]+)`(?::| \()", re.MULTILINE)
FENCE = re.compile(r"^```\w*\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def readme_files() -> dict[str, str]:
    """Each `DRILL_HOME/…` path that starts a README line as a label (`path`: or `path` (…), with
    the code block after it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    files = {}
    for label in LABEL.finditer(readme):
        block = FENCE.search(readme, label.end())
        assert block is not None, f"no code block after {label.group(0)}"
        files[label.group(1)] = block.group(1)
    return files


@pytest.fixture
def own_content(drill_home: Path) -> Paths:
    for relative, text in readme_files().items():
        path = drill_home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Paths(drill_home)


def run_json(capsys, *argv: str) -> tuple[int, object]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_the_readme_shows_one_problem_and_one_whole_drill() -> None:
    assert sorted(readme_files()) == [
        "kernels/scale-rows/drill.toml",
        "kernels/scale-rows/prompt.md",
        "kernels/scale-rows/solution.py",
        "kernels/scale-rows/starter.py",
        "kernels/scale-rows/test_scale_rows.py",
        "problems/weights-bf16.toml",
    ]


@pytest.mark.slow
def test_the_readme_examples_are_valid_and_listed(own_content: Paths, capsys) -> None:
    code, report = run_json(capsys, "check", "--json")
    assert (code, report["errors"]) == (0, [])
    _, problems = run_json(capsys, "problems", "--json")
    assert "weights-bf16" in [row["id"] for row in problems]
    _, drills = run_json(capsys, "kernel", "list", "--json")
    assert "scale-rows" in [row["id"] for row in drills]
    assert main(["solve", "weights-bf16", "billions=7"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 14e9


def test_the_readme_examples_reach_the_daily_queue(own_content: Paths, clock) -> None:
    own_content.ensure()
    own_content.config.write_text("new_mix = { card = 0, pitch = 0, estimate = 60, coding = 40 }\n")
    study = Study.open(own_content, clock)
    try:
        queue = study.reviews.queue()
        assert family_item_id("weights-bf16") in queue and drill_item_id("scale-rows") in queue
        assert "scale-rows" in [drill.id for drill in load_drills(study.paths.kernel_dirs())]
        assert study.estimation.new_problem(family_item_id("weights-bf16")).prompt.startswith("How many bytes")
    finally:
        study.close()


@pytest.mark.slow
def test_kernel_verify_runs_the_readme_drill_with_the_shipped_fixtures(own_content: Paths, capsys) -> None:
    assert main(["kernel", "verify", "scale-rows", "--device", "cpu", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok   scale-rows") and "reference pass 3/3" in out and "starter fail" in out


@pytest.mark.slow
def test_ids_that_clash_with_shipped_ones_are_errors_and_the_shipped_item_stays(drill_home: Path, capsys) -> None:
    paths = Paths(drill_home)
    paths.user_problems.mkdir(parents=True)
    shipped_problem = paths.problems / "pipeline-bubble.toml"
    shutil.copy(shipped_problem, paths.user_problems)
    shutil.copytree(paths.kernels / "online-softmax", paths.user_kernels / "online-softmax")
    code, report = run_json(capsys, "check", "--json")
    assert code == 1
    assert [(error["path"], error["line"]) for error in report["errors"]] == [
        (str(paths.user_problems / "pipeline-bubble.toml"), 1),
        (str(paths.user_kernels / "online-softmax" / "drill.toml"), 1),
    ]
    assert str(shipped_problem) in report["errors"][0]["message"]
    assert str(paths.kernels / "online-softmax") in report["errors"][1]["message"]
    decks = {loaded.item.id: loaded.deck for loaded in load_library(paths).items}
    assert decks[family_item_id("pipeline-bubble")] == str(shipped_problem)
    assert decks[drill_item_id("online-softmax")] == str((paths.kernels / "online-softmax").resolve())


@pytest.mark.slow
def test_a_broken_problem_and_drill_of_your_own_say_path_and_line(own_content: Paths, capsys) -> None:
    problem = own_content.user_problems / "weights-bf16.toml"
    problem.write_text(problem.read_text().replace('unit = "byte"', 'unit = "bytes"'))
    toml = own_content.user_kernels / "scale-rows" / "drill.toml"
    toml.write_text(toml.read_text().replace("budget_s = 300", "budget_s = 5"))
    assert main(["check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{problem}:6: `unit`: unknown unit 'bytes'")
    assert out[1].startswith(f"{toml}:4: `budget_s`")
    assert main(["kernel", "verify", "scale-rows"]) == 2  # not loadable: its error, and no run
    assert capsys.readouterr().out.startswith(f"{toml}:4: `budget_s`")
