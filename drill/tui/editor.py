"""Handing the terminal to the user's editor at a file (and line), and taking it back: the one place
an editor is started (a card's deck in the review and browser, a drill's solution)."""

from __future__ import annotations

import os
import shlex
import subprocess
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SuspendNotSupported

if TYPE_CHECKING:
    from textual.screen import Screen

    from drill.content.errors import ContentError
    from drill.content.overrides import EditTarget
    from drill.study import Study


def editor_command(path: Path, line: int | None = None, fallback: str | None = "vi") -> list[str] | None:
    """`$VISUAL`, else `$EDITOR`, else `fallback` (None: no editor), opened at `line` of `path`
    (`+LINE file`, which vi, Vim, Emacs, nano, micro and kakoune read)."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or fallback
    if editor is None:
        return None
    return [*shlex.split(editor), *([f"+{line}"] if line is not None else []), str(path)]


def run_editor(
    app: App[None], path: Path, line: int | None = None, fallback: str | None = "vi", meanwhile: str = ""
) -> str | None:
    """Suspend the app while the editor (editor_command) runs; when it could not run, a reason that
    says to edit the file in another window and then `meanwhile` (else None)."""
    place = str(path) if line is None else f"{path}:{line}"
    elsewhere = f"edit {place} in another window{meanwhile}"
    try:
        command = editor_command(path, line, fallback)
    except ValueError as error:  # unbalanced quotes, say
        return f"Could not read $VISUAL or $EDITOR ({error}); {elsewhere}."
    if command is None:
        return f"$EDITOR is not set. Edit {place} in another window{meanwhile}."
    try:
        with app.suspend():
            subprocess.run(command, check=False)
    except SuspendNotSupported:
        return f"This terminal cannot hand over to {command[0]}; {elsewhere}."
    except OSError as error:  # no such program, not executable
        return f"Could not start {command[0]} ({error.strerror or error}); set $VISUAL or $EDITOR, or {elsewhere}."
    return None


def edit_item(
    screen: Screen[Any], study: Study, item_id: str, name: str
) -> tuple[EditTarget, Future[list[ContentError]]] | None:
    """Open deck item `item_id` (`name` in notices) in the editor at its line (a shipped card: its
    copy in the override deck), then hand the file to the study to re-read and sync; the target and
    that sync's future, or None when it could not be opened or was left unchanged (said on `screen`)."""
    from drill.content.overrides import edit_target, withdraw_copy

    target = edit_target(study.paths, item_id)
    if target is None:
        screen.notify(f"No deck holds {name} any more.", severity="warning")
        return None
    before = target.path.read_bytes()
    problem = run_editor(screen.app, target.path, target.line)
    if problem is not None:
        screen.notify(problem, title="No editor", severity="warning", timeout=12)
        return None
    if target.path.exists() and target.path.read_bytes() == before:
        withdraw_copy(target)
        screen.notify(f"No change to {name}.", timeout=4)
        return None
    return target, study.save_edit(target.path)


def say_refused(screen: Screen[Any], path: Path, errors: list[ContentError]) -> None:
    """The edit of `path` broke it: its first errors, and that the card keeps its old text."""
    screen.notify(
        "\n".join(str(error) for error in errors[:3]),
        severity="error",
        timeout=20,
        title=f"{path.name} has an error: the card keeps its old text",
    )
