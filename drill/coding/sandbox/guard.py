"""The in-process guard: once the tests are collected, the code under test cannot read them.

An audit hook (PEP 578; it cannot be removed once added) refuses, when a frame of the candidate's
file is on the stack, to open or list anything in the hidden folders: the copy of the hidden
tests, the kernels folders (references, mutants) and drill's state folder. Where the sandbox
has no namespaces it also refuses to start programs (a fresh interpreter would not carry the
hook). The modules loaded from the hidden copy leave sys.modules, so `import test_<drill>` finds
nothing. This is a guard against ordinary reads and imports, not a wall against code that goes
through ctypes; the namespaces of contain.py are the wall where the kernel gives them.
"""

from __future__ import annotations

import os
import sys
from types import FrameType

# Audited events whose arguments name files: reading, listing, and changing them.
FILE_EVENTS = frozenset(
    {
        "open",
        "os.listdir",
        "os.scandir",
        "os.remove",
        "os.rmdir",
        "os.rename",
        "os.truncate",
        "shutil.rmtree",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.utime",
        "os.mkdir",
        "shutil.copyfile",
        "shutil.move",
    }
)
PROGRAM_EVENTS = frozenset({"os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "os.system", "pty.spawn"})


class Hidden(PermissionError):
    """What the code under test gets for touching what it must not."""


def forget_modules(folder: str) -> None:
    """Drop every module loaded from `folder` from sys.modules."""
    prefix = os.path.realpath(folder) + os.sep
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and os.path.realpath(path).startswith(prefix):
            del sys.modules[name]


def install(candidate: str, hidden: list[str], block_programs: bool) -> None:
    """Add the audit hook for the candidate file `candidate`."""
    roots = tuple(os.path.realpath(folder) + os.sep for folder in hidden)
    events = FILE_EVENTS | (PROGRAM_EVENTS if block_programs else frozenset())
    getframe, realpath, fspath, fsdecode = sys._getframe, os.path.realpath, os.fspath, os.fsdecode

    def from_candidate() -> bool:
        frame: FrameType | None = getframe(2)
        while frame is not None:
            if frame.f_code.co_filename == candidate:
                return True
            frame = frame.f_back
        return False

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event not in events:
            return
        if event in PROGRAM_EVENTS:
            if from_candidate():
                raise Hidden("a drill run may not start programs")
            return
        for target in args:
            if isinstance(target, (str, bytes, os.PathLike)):
                path = realpath(fsdecode(fspath(target)))
                if (path + os.sep).startswith(roots) and from_candidate():
                    raise Hidden(f"{path} is hidden from the code under test")

    sys.addaudithook(hook)
