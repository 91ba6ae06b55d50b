"""$EDITOR as a script a test controls."""

from __future__ import annotations

from pathlib import Path

import pytest


def fake_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sed: str) -> Path:
    """$EDITOR as a script that logs its arguments and applies `sed` to the file it is given."""
    log = tmp_path / "editor.log"
    script = tmp_path / "fake-editor"
    script.write_text(f'#!/bin/sh\necho "$@" >> {log}\nsed -i \'{sed}\' "$2"\n')
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    return log
