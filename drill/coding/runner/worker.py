"""The warm worker process: torch and pytest imported once, one forked child per test run.

Run as `python -m drill.coding.runner.worker`. JSON lines; requests on stdin, answers on stdout:
  -> {"op": "run", "id", ...Invocation.request()}   one run (drill.coding.sandbox.child)
  -> {"op": "cancel"}                      kill the running child
  <- {"event": "ready", "pid"}             imports done
  <- {"event": "started", "id", "pid"}     the child's pid (it leads its own process group)
  <- {"event": "done", "id", "returncode", "timed_out", "over_memory", "cancelled"}
End of stdin kills the running child and ends the worker. The parent never touches CUDA or
runs a torch op, so each child starts clean (CUDA and OpenMP are not fork-safe once used). The
worker is a child subreaper: whatever a run leaves behind comes back to it and is killed.
It is the runner's side of the boundary (it supervises and never runs the candidate's code);
each forked child crosses to the test side at once (drill.coding.sandbox.child).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import TextIO

from drill.coding.runner.pipe import Answer, Lines, WorkerRun

PRELOAD = (
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.testing",
    "torch.utils.checkpoint",
    "torch.autograd.graph",
    "torch.distributed.tensor",  # torch.testing.assert_close imports it on first use: 0.6 s
    "pytest",
    "_pytest.python",
    "_pytest.fixtures",
    "_pytest.assertion.rewrite",
    "_pytest.skipping",
    "_pytest.faulthandler",
    "_pytest.junitxml",
    "_pytest.pastebin",
    "_pytest.helpconfig",
    "_pytest.warnings",
    "_pytest.unittest",
    "_pytest.setuponly",
    "_pytest.setupplan",
    "_pytest.tracemalloc",
    "_pytest.threadexception",
    "pdb",
    "drill.coding.processes",
    "drill.coding.signed",
    "drill.coding.sandbox.child",
    "drill.coding.sandbox.contain",
    "drill.coding.sandbox.guard",
    "drill.coding.sandbox.limits",
    "drill.coding.sandbox.plugin",
    "drill.coding.sandbox.timing",
)


def preload() -> None:
    """Import what every run needs, then freeze those objects out of the garbage collector's
    sight, so a child's collections neither scan them nor copy their pages (copy-on-write)."""
    import gc
    import importlib

    for name in PRELOAD:
        with contextlib.suppress(Exception):  # a missing optional module only makes runs a little slower
            importlib.import_module(name)
    gc.collect()
    gc.freeze()


def child(request: WorkerRun, private_fds: list[int]) -> None:
    """In the forked child: own process group, none of the worker's pipes, then the run; it
    never returns into the worker's loop, whatever fails."""
    try:
        try:
            os.setpgid(0, 0)
            for fd in private_fds:
                os.close(fd)
        except OSError:
            pass
        from drill.coding.sandbox.child import run_child

        run_child(request)
    finally:
        os._exit(3)


def serve(request: WorkerRun, lines: Lines, answer: TextIO) -> None:
    """Fork a child for one run and supervise it until it ends."""
    from drill.coding.runner.supervise import supervise

    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        child(request, [answer.fileno(), lines.fd])
    with contextlib.suppress(OSError):  # also done in the child; whichever runs first wins the race
        os.setpgid(pid, pid)
    send(answer, {"event": "started", "id": request["id"], "pid": pid})

    def poll() -> int | None:
        done, status = os.waitpid(pid, os.WNOHANG)
        return os.waitstatus_to_exitcode(status) if done else None

    def tick() -> bool:
        line = lines.next(timeout=0.01)
        if line is None:
            return True  # the client is gone
        return bool(line) and json.loads(line).get("op") == "cancel"

    exit = supervise(pid, poll, float(request["timeout_s"]), request.get("rss_limit"), tick)
    _sweep()
    send(
        answer,
        {
            "event": "done",
            "id": request["id"],
            "returncode": exit.returncode,
            "timed_out": exit.timed_out,
            "over_memory": exit.over_memory,
            "cancelled": exit.cancelled,
        },
    )


def _sweep(wait_s: float = 5.0) -> None:
    """Kill the orphans that came back to this subreaper and collect them, so none outlives the
    run, not even as a zombie: a SIGKILL lands a moment after it is sent, so one pass of
    waitpid can miss a process still dying (seen on a loaded machine)."""
    from drill.coding.processes import descendants, kill_tree

    deadline = time.monotonic() + wait_s
    while left := descendants(os.getpid()):
        for pid in left:
            kill_tree(pid)
        _reap()
        if time.monotonic() > deadline:
            return  # a process stuck in the kernel (D state); the next run's sweep tries again
        time.sleep(0.002)


def _reap() -> None:
    """Collect the exit status of every finished child (orphans of earlier runs)."""
    while True:
        try:
            done, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if done == 0:
            return


def send(answer: TextIO, message: Answer) -> None:
    answer.write(json.dumps(message) + "\n")
    answer.flush()


def main() -> int:
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # a stray print can never corrupt the protocol
    from drill.coding.sandbox.contain import become_subreaper

    become_subreaper()
    preload()
    send(answer, {"event": "ready", "pid": os.getpid()})
    lines = Lines(0)
    while (line := lines.next(timeout=None)) is not None:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "run":
            serve(request, lines, answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
