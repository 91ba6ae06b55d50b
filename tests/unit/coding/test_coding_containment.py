"""Cheating and escaping candidates never record a pass and leave nothing behind.

Each cheat runs through the cold runner and the warm worker, with the sandbox's namespaces and
without them (DRILL_SANDBOX=off: the subreaper and audit-hook fallback a machine without user
namespaces gets). The wrong answer inside every cheat is `a - b`: only the cheat could pass it.
"""

from __future__ import annotations

import os
import socket
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from helpers.coding_toys import toy, worker, write_candidate  # noqa: F401 (toy, worker: fixtures)

from drill.coding.drills import Drill, find_drill
from drill.coding.runner.api import run_tests
from drill.coding.runner.result import NOT_REPORTED
from drill.coding.runner.warm import WarmWorker
from drill.coding.sandbox.contain import available
from drill.paths import Paths

NAMESPACES = available().namespaces
WRONG = "def add(a, b):\n    return a - b\n"


@pytest.fixture(params=["namespaces", "fallback"])
def sandbox(request, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "namespaces" and not NAMESPACES:
        pytest.skip(f"this machine gives no namespaces: {available().why}")
    if request.param == "fallback":
        monkeypatch.setenv("DRILL_SANDBOX", "off")
    return request.param


@pytest.fixture(params=["cold", "warm"])
def runner(request, worker, sandbox):
    """run(drill, candidate, **options) through the cold runner or the warm worker."""
    warm = request.param == "warm"
    return lambda drill, candidate, **options: run_tests(drill, candidate, warm=warm, worker=worker, **options)


def never_passes(run, words: str = "") -> None:
    assert run.status != "pass", run
    assert words in run.reason or any(words in test.message for test in run.tests), run


@pytest.mark.slow
def test_the_right_answer_still_passes_in_the_sandbox(runner, toy: Drill) -> None:
    assert runner(toy, toy.solution).status == "pass"


@pytest.mark.slow
def test_a_forged_report_is_not_a_pass(runner, toy: Drill, tmp_path: Path) -> None:
    forged = [{"event": name} for name in ("collected", "result", "end")]
    source = textwrap.dedent(f"""
        import json, os
        lines = [json.dumps({{"seq": n, "event": json.dumps(e), "mac": "0" * 64}}) for n, e in enumerate({forged!r})]
        for path in ("../report.jsonl", os.environ.get("DRILL_REPORT", "../report.jsonl")):
            with open(path, "w") as report:
                report.write("\\n".join(lines) + "\\n")
        os._exit(0)
        """)
    never_passes(runner(toy, write_candidate(tmp_path, "forge", source)), NOT_REPORTED)


def test_appending_to_the_real_report_is_noticed(runner, toy: Drill, tmp_path: Path) -> None:
    """Replaying the runner's own signed lines (its 'end' event) is tampering, not a pass."""
    source = WRONG + textwrap.dedent("""
        import atexit
        def replay():
            lines = open("../report.jsonl").read().splitlines()
            with open("../report.jsonl", "a") as report:
                report.write("\\n".join(line for line in lines if '"result' in line) + "\\n")
        atexit.register(replay)
        """)
    never_passes(runner(toy, write_candidate(tmp_path, "replay", source)))


@pytest.mark.parametrize(
    "patch",
    [
        "import _pytest.python\n_pytest.python.Function.runtest = lambda self: None\n",
        (
            "import _pytest.reports\n"
            "_pytest.reports.TestReport.outcome = property(lambda self: 'passed', lambda self, v: None)\n"
        ),
        (
            "import _pytest.runner\n_original = _pytest.runner.call_runtest_hook\n"
            "_pytest.runner.call_runtest_hook = "
            "lambda item, when, **kw: _original(item, 'setup' if when == 'call' else when, **kw)\n"
        ),
    ],
    ids=["runtest", "report-outcome", "skip-call"],
)
def test_patching_pytest_is_not_a_pass(runner, toy: Drill, tmp_path: Path, patch: str) -> None:
    never_passes(runner(toy, write_candidate(tmp_path, "patch", WRONG + patch)))


def test_skipping_the_tests_it_fails_is_not_a_pass(runner, toy: Drill, tmp_path: Path) -> None:
    """Only the tests may skip themselves: a skip raised in the candidate's code is a failure."""
    source = "import pytest\ndef add(a, b):\n    if (a, b) != (1, 2):\n        pytest.skip('not sure')\n    return 3\n"
    never_passes(runner(toy, write_candidate(tmp_path, "skip", source)), "the code under test skipped the test")
    at_import = "import pytest\npytest.skip('nothing to see', allow_module_level=True)\n"
    never_passes(runner(toy, write_candidate(tmp_path, "skip-import", at_import)), "the code under test skipped")


def test_exiting_before_the_tests_is_not_a_pass(runner, toy: Drill, tmp_path: Path) -> None:
    run = runner(toy, write_candidate(tmp_path, "exit0", "import os\nos._exit(0)\n"))
    never_passes(run, NOT_REPORTED)


@pytest.mark.slow
def test_the_reference_cannot_be_read_or_run(runner, toy: Drill, tmp_path: Path) -> None:
    assert "DRILL_SOLUTION" not in run_env(runner, toy, tmp_path)
    reference = str(toy.solution)
    source = (
        textwrap.dedent(f"""
        import subprocess, sys
        try:
            exec(open({reference!r}).read())
        except Exception:
            try:
                exec(subprocess.run([sys.executable, "-c", "print(open({reference!r}).read())"],
                                    capture_output=True, text=True).stdout)
            except Exception:
                pass
        if "add" not in globals() or add(1, 2) != 3:
        """)
        + "    "
        + WRONG.replace("\n    ", "\n        ")
    )
    never_passes(runner(toy, write_candidate(tmp_path, "steal", source)))


def test_the_hidden_tests_cannot_be_imported_or_read(runner, toy: Drill, tmp_path: Path) -> None:
    source = textwrap.dedent("""
        import glob, importlib, os, sys
        found = []
        for attempt in (lambda: importlib.import_module("test_toy_add"),
                        lambda: open(glob.glob(os.path.join(os.getcwd(), "..", "hidden", "*.py"))[0]).read(),
                        lambda: [m for m in sys.modules if "toy_add" in m and "candidate" not in m][0]):
            try:
                found.append(attempt())
            except Exception:
                pass
        def add(a, b):
            return a + b if found else a - b
        """)
    never_passes(runner(toy, write_candidate(tmp_path, "peek", source)))


def run_env(runner, toy: Drill, tmp_path: Path) -> dict[str, str]:
    """The environment the candidate's code sees."""
    dump = tmp_path / "env.txt"
    source = (
        f"import json, os\nopen({str(dump)!r}, 'w').write(json.dumps(dict(os.environ)))\n" + toy.solution.read_text()
    )
    assert runner(toy, write_candidate(tmp_path, "env", source)).status == "pass"
    import json

    return json.loads(dump.read_text())


def test_home_and_state_point_into_the_run(runner, toy: Drill, tmp_path: Path) -> None:
    env = run_env(runner, toy, tmp_path)
    assert env["HOME"] != str(Path.home()) and env["DRILL_HOME"].startswith(env["HOME"])
    assert env["DRILL_HOME"] != os.environ["DRILL_HOME"] and not env["TMPDIR"].startswith("/tmp/pytest")


def test_deleting_the_database_leaves_the_users_intact(runner, toy: Drill, tmp_path: Path) -> None:
    database = Paths.resolve().database
    database.parent.mkdir(parents=True, exist_ok=True)
    database.write_bytes(b"SQLite format 3\x00 the user's reviews")
    source = (
        textwrap.dedent(f"""
        import os, shutil
        for path in (os.path.join(os.environ["DRILL_HOME"], "drill.db"), {str(database)!r}):
            for remove in (os.remove, lambda p: open(p, "w").close()):
                try:
                    remove(path)
                except OSError:
                    pass
        """)
        + toy.solution.read_text()
    )
    runner(toy, write_candidate(tmp_path, "rm", source))
    assert database.read_bytes() == b"SQLite format 3\x00 the user's reviews"


def _with_marker(marker: str) -> list[int]:
    """Processes whose name (comm) is `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == marker:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


ORPHANS = {
    "child": "if os.fork() == 0:\n    sleep_marked()\n",
    "new-session": "if os.fork() == 0:\n    os.setsid()\n    sleep_marked()\n",
    "double-fork": "if os.fork() == 0:\n    os.setsid()\n    if os.fork():\n        os._exit(0)\n    sleep_marked()\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("how", sorted(ORPHANS))
def test_no_process_outlives_the_run(runner, toy: Drill, tmp_path: Path, how: str) -> None:
    marker = f"orph{uuid.uuid4().hex[:11]}"
    source = (
        f"import os, time\ndef sleep_marked():\n    open('/proc/self/comm', 'w').write({marker!r})\n"
        "    time.sleep(300)\n    os._exit(0)\n" + ORPHANS[how] + toy.solution.read_text()
    )
    assert runner(toy, write_candidate(tmp_path, "orphan", source)).status == "pass"
    deadline = time.monotonic() + 5
    while (left := _with_marker(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"{how}: processes outlived the run: {left}"


@pytest.mark.slow
def test_the_memory_limit_covers_the_whole_tree(runner, toy: Drill, tmp_path: Path) -> None:
    """Three forked children of 900 MiB each stay under a per-process cap, not under the tree's."""
    source = textwrap.dedent("""
        import os, time
        def add(a, b):
            for _ in range(3):
                if os.fork() == 0:
                    block = bytearray(900 * 2**20)
                    time.sleep(60)
                    os._exit(0)
            time.sleep(60)
        """)
    started = time.monotonic()
    run = runner(toy, write_candidate(tmp_path, "fork-hog", source), memory_mb=1000, timeout_s=40)
    assert run.status == "error" and "too much memory" in run.reason, run
    assert time.monotonic() - started < 30


def test_no_network_inside_namespaces(runner, sandbox, toy: Drill, tmp_path: Path) -> None:
    if sandbox != "namespaces":
        pytest.skip("the fallback has no network namespace (documented)")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    source = textwrap.dedent(f"""
        import socket
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
            reached = True
        except OSError:
            reached = False
        def add(a, b):
            return a - b if reached else a + b
        """)
    try:
        assert runner(toy, write_candidate(tmp_path, "net", source)).status == "pass"
    finally:
        server.close()


def test_replaced_assertion_helpers_fail_the_run(worker: WarmWorker, tmp_path: Path) -> None:
    """Even the reference fails once it replaces what the tests judge with."""
    drill = find_drill(Paths.resolve().kernels, "quantize-per-channel")
    source = drill.solution.read_text() + "\nimport torch.testing\ntorch.testing.assert_close = lambda *a, **k: None\n"
    run = run_tests(drill, write_candidate(tmp_path, "helpers", source), worker=worker, maxfail=3)
    never_passes(run, "the code under test replaced torch.testing.assert_close")
