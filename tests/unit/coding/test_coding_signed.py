"""The signed report: only the reporter's own lines, in order, once each, are accepted."""

from __future__ import annotations

import json
from pathlib import Path

from drill.coding.signed import Verifier, new_key, read_signed, signer


def signed_lines(key: str, events: list[dict]) -> list[str]:
    sign = signer(key)
    return [sign(event) for event in events]


EVENTS = [
    {"event": "collected", "names": ["t"]},
    {"event": "result", "name": "t", "outcome": "failed"},
    {"event": "end", "exitstatus": 1},
]


def test_the_reporters_lines_are_accepted_as_they_arrive() -> None:
    key = new_key()
    verifier = Verifier(key)
    text = "".join(signed_lines(key, EVENTS)).encode()
    assert verifier.feed(text[:10]) == []  # a partial line waits
    assert verifier.feed(text[10:]) == EVENTS and not verifier.tampered


def test_a_line_signed_with_another_key_is_tampering() -> None:
    key = new_key()
    forged = signed_lines(new_key(), [{"event": "result", "name": "t", "outcome": "passed"}])
    verifier = Verifier(key)
    verifier.feed((signed_lines(key, EVENTS[:1])[0] + forged[0]).encode())
    assert verifier.tampered and verifier.events == EVENTS[:1]


def test_replayed_reordered_or_edited_lines_are_tampering() -> None:
    key = new_key()
    lines = signed_lines(key, EVENTS)
    for bad in (
        [*lines[:2], lines[1]],
        [lines[0], lines[2], lines[1]],
        [lines[0], lines[1].replace("failed", "passed")],
        [lines[0], json.dumps({"seq": 1, "event": json.dumps(EVENTS[1]), "mac": "0" * 64}) + "\n"],
    ):
        verifier = Verifier(key)
        verifier.feed("".join(bad).encode())
        assert verifier.tampered, bad


def test_a_torn_last_line_is_not_tampering(tmp_path: Path) -> None:
    key = new_key()
    path = tmp_path / "report.jsonl"
    path.write_text("".join(signed_lines(key, EVENTS))[:-20])
    read = read_signed(path, key)
    assert read.events == EVENTS[:2] and not read.tampered
    assert read_signed(tmp_path / "missing", key).events == []
