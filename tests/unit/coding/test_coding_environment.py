"""Coding drills in a Python that cannot run them: found before any run, said with the fixing
command, `drill kernel test|verify` exit 2, and a run that fails for that reason is flagged."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from helpers.import_blocker import blocker

from drill.coding.drills import find_drill
from drill.coding.runner import environment
from drill.coding.runner.api import run_tests
from drill.coding.runner.environment import (
    REQUIREMENTS,
    describe,
    drill_needs,
    fix_command,
    missing_modules_in,
    missing_requirements,
)
from drill.coding.runner.result import Exit, interpret
from drill.coding.runner.warm import WarmWorker

REPO = Path(__file__).resolve().parents[3]
KERNELS = REPO / "kernels"
DRILL = "quantize-per-channel"


def cli(tmp_path: Path, *args: str, block: str, runner_only: bool = False) -> subprocess.CompletedProcess:
    """`drill ...` in a fresh interpreter in which the modules in `block` cannot be imported."""
    env = {**os.environ, "PYTHONPATH": str(blocker(tmp_path)), "DRILL_TEST_BLOCK": block}
    if runner_only:
        env["DRILL_TEST_BLOCK_RUNNER_ONLY"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "drill", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


def only_missing(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """This process's check finds every module but `names`."""
    real = environment.find_spec
    monkeypatch.setattr(environment, "find_spec", lambda name: None if name in names else real(name))


# -- the check and the message ----------------------------------------------------------------


def test_pins_are_pyprojects() -> None:
    """The fixing command asks for exactly what `pip install -e .` installs."""
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    declared = {}
    for line in dependencies:
        spec = line.split(";")[0].strip()
        name = spec.split("=")[0].split(">")[0].split("<")[0].split("[")[0].strip()
        declared[name] = spec
    for name, spec in REQUIREMENTS.items():
        assert declared.get(name) == spec, f"{name}: pyproject says {declared.get(name)!r}, environment.py {spec!r}"


def test_what_each_drill_needs() -> None:
    assert drill_needs(find_drill(KERNELS, DRILL)) == ["torch", "pytest"]
    triton = find_drill(KERNELS, "triton-vector-add")
    expected = ["torch", "pytest", "triton", "numpy"] if environment.triton_installable() else ["torch", "pytest"]
    assert drill_needs(triton) == expected


def test_triton_is_not_asked_for_where_it_has_no_wheels(monkeypatch) -> None:
    monkeypatch.setattr(environment, "triton_installable", lambda: False)
    needs = drill_needs(find_drill(KERNELS, "triton-vector-add"))
    assert "triton" not in needs and needs[:2] == ["torch", "pytest"]  # numpy (a dependency anyway) may stay
    monkeypatch.setattr(environment, "triton_installable", lambda: True)
    only_missing(monkeypatch, "triton", "numpy")
    assert missing_requirements() == []  # no drill named: the basics only
    assert missing_requirements(find_drill(KERNELS, DRILL)) == []
    assert missing_requirements(find_drill(KERNELS, "triton-vector-add")) == ["triton", "numpy"]


def test_nothing_is_missing_here_and_torch_is_not_imported() -> None:
    code = (
        "import sys; from pathlib import Path; from drill.coding.drills import load_drills; "
        "from drill.coding.runner.environment import missing_requirements; "
        f"print(missing_requirements(*load_drills(Path({str(KERNELS)!r}))), 'torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "False"]


def test_missing_and_broken_modules_are_found(monkeypatch) -> None:
    only_missing(monkeypatch, "torch")
    assert missing_requirements() == ["torch"]

    def broken(name):
        raise ValueError(f"{name}.__spec__ is None")

    monkeypatch.setattr(environment, "find_spec", broken)
    assert missing_requirements(find_drill(KERNELS, DRILL)) == ["torch", "pytest"]


def test_the_message_names_what_is_missing_and_the_exact_command() -> None:
    python = "/opt/my python/bin/python3"
    assert (
        fix_command(["torch", "pytest"], python)
        == "'/opt/my python/bin/python3' -m pip install torch==2.13.0 'pytest>=8'"
    )
    message = describe(["torch", "pytest"], python)
    assert "Coding drills need torch and pytest, which are not installed" in message
    assert fix_command(["torch", "pytest"], python) in message and "pip install -e ." in message
    assert "\n" not in message
    # the command is real shell: it splits into the interpreter and pyproject's pins
    assert shlex.split(fix_command(["triton", "numpy"], python))[-2:] == ["triton>=3.6", "numpy"]
    assert describe(["pytest"], python).startswith("Coding drills need pytest, which is not installed")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("/usr/bin/python3: No module named pytest", ["pytest"]),  # `python -m pytest` without pytest
        ("E   ModuleNotFoundError: No module named 'torch'", ["torch"]),
        ("ModuleNotFoundError: No module named '_pytest'\nNo module named 'numpy'", ["pytest", "numpy"]),
        ("ModuleNotFoundError: No module named 'torch.not_a_module'", []),  # torch is there: the code is wrong
        ("ModuleNotFoundError: No module named 'scipy'", []),  # the candidate's own import
        ("AssertionError: wrong", []),
    ],
)
def test_output_that_says_a_requirement_is_missing(text, expected) -> None:
    assert missing_modules_in(text) == expected


# -- a run that fails because of the environment ------------------------------------------------


def judge(events, exit, output=""):
    collected = [{"event": "collected", "names": [event["name"] for event in events if event.get("event") == "result"]}]
    return interpret(collected + events, exit, seconds=0.5, timeout_s=60, memory_mb=4096, device="cpu", output=output)


def test_a_test_process_without_pytest_is_an_environment_failure() -> None:
    output = "Traceback (most recent call last):\n  ...\nModuleNotFoundError: No module named 'pytest'\n"
    run = judge([], Exit(3), output)
    assert run.status == "error" and run.environment
    assert "could not import pytest" in run.reason and "pip install 'pytest>=8'" in run.reason
    assert run.as_json()["environment"] is True


def test_a_conftest_without_torch_is_an_environment_failure() -> None:
    output = (
        "ImportError while loading conftest '/k/conftest.py'.\n/k/conftest.py:14: in <module>\n"
        "    import torch\nE   ModuleNotFoundError: No module named 'torch'\n"
    )
    run = judge([], Exit(4), output)
    assert run.environment and "torch==2.13.0" in run.reason
    collect = [
        {
            "event": "collect_error",
            "name": "test_x.py",
            "message": "E   ModuleNotFoundError: No module named 'torch'",
            "summary": "",
        },
        {"event": "end", "exitstatus": 2},
    ]
    assert judge(collect, Exit(2)).environment


def test_the_candidates_own_failures_are_not_environment_failures() -> None:
    errored = {
        "event": "result",
        "name": "test_a",
        "outcome": "error",
        "message": "ModuleNotFoundError: No module named 'torch'",
        "summary": "",
    }
    assert not judge([errored, {"event": "end", "exitstatus": 1}], Exit(1)).environment
    started = [{"event": "start", "name": "test_a"}]  # it died inside a test: its code ran
    assert not judge(started, Exit(3), "No module named 'torch'").environment
    assert not judge([], Exit(3), "SystemExit: 3").environment
    assert not judge([], Exit(None, cancelled=True), "No module named 'torch'").environment


def test_nothing_ran_is_not_the_users_attempt() -> None:
    skipped = {"event": "result", "name": "test_a", "outcome": "skipped", "message": "Triton is not installed"}
    run = judge([skipped, {"event": "end", "exitstatus": 0}], Exit(0))
    assert run.status == "error" and run.environment and "skipped" in run.reason


def test_run_tests_checks_before_starting_anything(monkeypatch, tmp_path) -> None:
    only_missing(monkeypatch, "torch")

    def no_process(*args, **kwargs):
        raise AssertionError("no test process may start")

    monkeypatch.setattr("drill.coding.runner.invocation.prepare", no_process)
    drill = find_drill(KERNELS, DRILL)
    run = run_tests(drill, drill.solution, warm=False)
    assert run.status == "error" and run.environment and "torch==2.13.0" in run.reason


def test_a_runner_that_cannot_start_is_an_environment_failure(monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise OSError("[Errno 2] No such file or directory: 'python'")

    monkeypatch.setattr("drill.coding.runner.invocation.prepare", broken)
    drill = find_drill(KERNELS, DRILL)
    run = run_tests(drill, drill.solution, warm=False)
    assert run.status == "error" and run.environment and "the runner failed" in run.reason


@pytest.mark.slow
@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("block", ["pytest", "torch"])
def test_a_test_process_that_cannot_import_is_flagged(tmp_path, monkeypatch, warm, block) -> None:
    """The app's check passes (this process has both), the test process lacks one: the real
    runner, cold (`python -m pytest`) and warm (a forked child of the worker), flags it."""
    monkeypatch.setenv("PYTHONPATH", str(blocker(tmp_path)))  # read by the processes the runner starts
    monkeypatch.setenv("DRILL_TEST_BLOCK", block)
    drill = find_drill(KERNELS, DRILL)
    worker = WarmWorker()
    try:
        run = run_tests(drill, drill.solution, warm=warm, worker=worker)
    finally:
        worker.close()
    assert (run.status, run.passed, run.failed, run.environment) == ("error", 0, 0, True), run.reason
    assert f"could not import {block}" in run.reason and REQUIREMENTS[block] in run.reason


# -- the command line ----------------------------------------------------------------------------


def test_kernel_test_without_torch_exits_2_with_the_command(tmp_path) -> None:
    solution = str(KERNELS / DRILL / "solution.py")
    plain = cli(tmp_path, "kernel", "test", DRILL, "--solution", solution, block="torch")
    assert plain.returncode == 2 and plain.stdout == ""
    [line] = plain.stderr.splitlines()
    assert line.startswith("drill: Coding drills need torch") and "-m pip install torch==2.13.0" in line
    as_json = cli(tmp_path, "kernel", "test", DRILL, "--solution", solution, "--json", block="torch")
    assert as_json.returncode == 2 and as_json.stderr == plain.stderr
    assert json.loads(as_json.stdout)["environment"] is True


def test_kernel_test_whose_test_process_lacks_pytest_exits_2(tmp_path) -> None:
    solution = str(KERNELS / DRILL / "solution.py")
    result = cli(tmp_path, "kernel", "test", DRILL, "--solution", solution, "--json", block="pytest", runner_only=True)
    assert result.returncode == 2, result.stderr
    data = json.loads(result.stdout)
    assert (data["status"], data["environment"]) == ("error", True)
    assert "could not import pytest" in result.stderr and "pip install 'pytest>=8'" in result.stderr


def test_kernel_verify_without_pytest_exits_2(tmp_path) -> None:
    result = cli(tmp_path, "kernel", "verify", block="pytest")
    assert result.returncode == 2 and result.stdout == ""
    assert "Coding drills need pytest" in result.stderr and "pip install 'pytest>=8'" in result.stderr


def test_sitecustomize_trick_really_blocks(tmp_path) -> None:
    """The tests above mean something: in the blocked interpreter `import torch` fails."""
    env = {**os.environ, "PYTHONPATH": str(blocker(tmp_path)), "DRILL_TEST_BLOCK": "torch"}
    code = textwrap.dedent("""
        try:
            import torch
        except ModuleNotFoundError as error:
            print(error)
    """)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "No module named 'torch'"
