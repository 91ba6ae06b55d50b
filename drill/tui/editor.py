"""Handing the terminal to the user's editor at a file and line, and taking it back."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from textual.app import App, SuspendNotSupported


def editor_command(path: Path, line: int) -> list[str]:
    """`$VISUAL`, else `$EDITOR`, else vi, opened at `line` of `path` (`+LINE file`, which vi,
    Vim, Emacs, nano, micro and kakoune read)."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    return [*shlex.split(editor), f"+{line}", str(path)]


def run_editor(app: App, path: Path, line: int) -> str | None:
    """Suspend the app while the editor runs; a reason when it could not run (else None)."""
    command = editor_command(path, line)
    try:
        with app.suspend():
            subprocess.run(command, check=False)
    except SuspendNotSupported:
        return f"This terminal cannot hand over to {command[0]}; edit {path}:{line} in another window."
    except OSError as error:
        return f"Could not start {command[0]} ({error.strerror or error}); set $VISUAL or $EDITOR."
    return None
