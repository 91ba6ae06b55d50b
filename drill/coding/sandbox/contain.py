"""Containing a test process: what the code under test can see, reach and leave behind (Linux).

contain() runs in the child before anything else is imported. Where the kernel lets this user
create namespaces (as root, or where unprivileged user namespaces are allowed), the run gets its
own user, mount, PID and network namespaces:
- PID: the test process runs under PID 1 of its own namespace, so when it ends the kernel kills
  every process it started - new sessions and double forks included;
- network: only a loopback device that is down;
- mount: the kernels folders (references, tests) and drill's state folder (database,
  workspaces) are covered by empty read-only tmpfs mounts; seal() covers the hidden tests' copy
  once they are collected, then drops every capability, so the code cannot unmount anything.
Elsewhere the keeper process becomes a child subreaper, so orphans come back to it and are
killed when the tests end, and the guard (guard.py) also refuses to start programs.
Either way the runner's supervisor kills the whole tree on a timeout, and counts its memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import sys
from dataclasses import dataclass

from drill.coding.processes import python_path

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18
PR_SET_CHILD_SUBREAPER, PR_SET_SECUREBITS, PR_SET_NO_NEW_PRIVS = 36, 28, 38
SECBIT_NOROOT, SECBIT_NOROOT_LOCKED = 1, 2
CAPABILITY_VERSION_3 = 0x20080522


@dataclass
class Containment:
    """What contain() could set up; `namespaces` False means the subreaper fallback, with `why`."""

    namespaces: bool
    why: str = ""

    def describe(self) -> str:
        if self.namespaces:
            return "namespaces: user, mount, PID and network (no network; kernels and state folders hidden)"
        return f"subreaper and audit hook only ({self.why})"


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(text)


def _enter_namespaces(libc: ctypes.CDLL) -> None:
    uid, gid = os.getuid(), os.getgid()
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET), "unshare")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")


def become_subreaper(libc: ctypes.CDLL | None = None) -> bool:
    """Orphans below this process come back to it instead of init (Linux); False where unknown."""
    try:
        return (libc or _libc()).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except AttributeError:
        return False


def _cover(libc: ctypes.CDLL, folder: str) -> None:
    """An empty read-only tmpfs over `folder`."""
    _check(
        libc.mount(
            b"tmpfs", folder.encode(), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=4k,mode=0500"
        ),
        f"mount tmpfs on {folder}",
    )


def contain(hide: list[str], namespaces: bool = True) -> Containment:
    """Split into a keeper (this process: waits, never returns) and the test process (returns).

    With namespaces there is one more process between them: PID 1 of the new PID namespace,
    which reaps orphans and whose end makes the kernel kill every process left in the namespace
    (the test process itself is not PID 1, so signals and crashes behave as usual). The keeper
    ends as the test process did: with its exit code, or killed by the same signal.
    """
    libc = _libc()
    try:
        if not namespaces:
            raise OSError("namespaces turned off by DRILL_SANDBOX=off")
        _enter_namespaces(libc)
        containment = Containment(True)
    except (OSError, AttributeError) as error:
        become_subreaper(libc)
        containment = Containment(False, f"no namespaces here: {error}")
    if pid := os.fork():
        _keep(pid, sweep=not containment.namespaces, relay=containment.namespaces)
    if containment.namespaces:
        for folder in hide:
            with contextlib.suppress(OSError):  # a folder that vanished meanwhile: nothing to hide
                _cover(libc, folder)
        if pid := os.fork():
            _keep(pid, sweep=False, init=True)
    return containment


def _keep(pid: int, sweep: bool, init: bool = False, relay: bool = False) -> None:
    """Reap every child until `pid` ends, kill what is left (`sweep`), and end as it did.

    PID 1 of a namespace cannot be killed by its own signals: as `init` it passes a signal on
    as the exit code 128 + n, which the keeper above it (`relay`) turns back into that signal.
    """
    import signal

    from drill.coding.processes import descendants, kill_tree

    status = 1 << 8
    while True:
        try:
            done, status = os.wait()
        except ChildProcessError:
            break
        if done == pid:
            break
    if sweep:
        for child in descendants(os.getpid()):
            kill_tree(child)
    code = os.waitstatus_to_exitcode(status)
    if relay and 128 < code < 128 + signal.NSIG:
        code = -(code - 128)  # a signal, passed on by PID 1
    if code < 0:
        if init:
            os._exit(128 - code)
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        os._exit(128 - code)  # a signal that does not end a process
    os._exit(code)


def seal(containment: Containment, folder: str) -> None:
    """After collection: hide `folder` (the hidden tests' copy) and drop every capability."""
    if not containment.namespaces:
        return
    libc = _libc()
    _cover(libc, folder)
    _check(libc.prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED, 0, 0, 0), "securebits")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    header, data = _CapHeader(CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    _check(libc.capset(ctypes.byref(header), data), "capset")


def probe() -> Containment:
    """In a throwaway child of this (single-threaded) process: can it enter the namespaces?"""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            _enter_namespaces(_libc())
            message = b"ok"
        except (OSError, AttributeError) as error:
            message = str(error).encode()
        os.write(write, message)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        said = answer.read().decode()
    os.waitpid(pid, 0)
    return Containment(True) if said == "ok" else Containment(False, f"no namespaces here: {said}")


@functools.cache
def available() -> Containment:
    """What runs get on this machine, asked once per process in a fresh interpreter (the caller
    may have threads, and a forked copy of a threaded process must not run Python)."""
    import subprocess

    try:
        answer = subprocess.run(
            [sys.executable, "-m", "drill.coding.sandbox", "--json"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": python_path()},
        )
        return Containment(**json.loads(answer.stdout))
    except (OSError, ValueError, TypeError, subprocess.TimeoutExpired) as error:
        return Containment(False, f"the check failed: {error}")
