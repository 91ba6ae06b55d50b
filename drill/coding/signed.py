"""The report channel between the test process and the runner: numbered, HMAC-signed JSON lines.

The runner makes a fresh random key for every run and hands it to the test process's reporter
before any candidate code is imported; the key is never in the environment or a file. Each line
carries its sequence number and a signature over both, so a line written by anyone else, a
replayed line, a dropped line or a reordered one is noticed: the Verifier keeps the events up
to the first bad line and says that the report was tampered with.

It is the contract between the two sides of a run, so it belongs to neither: the test child
(sandbox/) signs with signer(), the runner (runner/) makes the key and reads with Verifier.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypedDict, cast

KEY_BYTES = 32

Outcome = Literal["passed", "failed", "error", "skipped"]


class ReportEvent(TypedDict, total=False):
    """One event of the report, as the test side writes it (sandbox/plugin.py; child.py's timing).

    `event` names its kind: "collect_error" (name, message), "collected" (names), "start" (name),
    "result" (name, outcome, message, summary, output), "end" (exitstatus), and "timing"
    (reference_s, candidate_s, speed_ratio; or error).
    """

    event: str
    name: str
    names: list[str]
    outcome: Outcome
    message: str
    summary: str
    output: str
    exitstatus: int
    reference_s: float
    candidate_s: float
    speed_ratio: float
    error: str


def new_key() -> str:
    """A fresh key for one run, as hex (it travels in the run request)."""
    return secrets.token_hex(KEY_BYTES)


def _mac(key: bytes, seq: int, body: str) -> str:
    return hmac.new(key, f"{seq}\n{body}".encode(), hashlib.sha256).hexdigest()


def signer(key_hex: str) -> Callable[[ReportEvent], str]:
    """A function turning each event into its signed line; it numbers them itself (0, 1, 2, ...)."""
    key = bytes.fromhex(key_hex)
    counter = iter(range(2**62))

    def sign(event: ReportEvent) -> str:
        seq = next(counter)
        body = json.dumps(event, separators=(",", ":"))
        return json.dumps({"seq": seq, "event": body, "mac": _mac(key, seq, body)}) + "\n"

    return sign


class Verifier:
    """Accepts a report's bytes as they arrive; keeps the good events in order.

    At the first line that is not the next signed event it stops accepting and sets `tampered`.
    A partial last line waits for more bytes (a crash mid-write leaves it unfinished: ignored).
    """

    def __init__(self, key_hex: str) -> None:
        self.key = bytes.fromhex(key_hex)
        self.events: list[ReportEvent] = []
        self.tampered = False
        self._partial = b""

    def feed(self, chunk: bytes) -> list[ReportEvent]:
        """The new events in `chunk` (and whatever partial line came before it)."""
        *lines, self._partial = (self._partial + chunk).split(b"\n")
        fresh = []
        for raw in lines:
            if self.tampered or not raw.strip():
                continue
            event = self._check(raw)
            if event is None:
                self.tampered = True
                continue
            self.events.append(event)
            fresh.append(event)
        return fresh

    def _check(self, raw: bytes) -> ReportEvent | None:
        try:
            line = json.loads(raw)
            body, seq, mac = line["event"], line["seq"], line["mac"]
            if not (isinstance(body, str) and isinstance(mac, str) and seq == len(self.events)):
                return None
            if not hmac.compare_digest(mac, _mac(self.key, seq, body)):
                return None
            event = json.loads(body)
        except (ValueError, KeyError, TypeError):
            return None
        # a line signed with this run's key was written by the reporter, in the shape it writes
        return cast(ReportEvent, event) if isinstance(event, dict) else None


def read_signed(path: Path, key_hex: str) -> Verifier:
    """The report file at `path`, checked whole (a missing file has no events)."""
    verifier = Verifier(key_hex)
    with contextlib.suppress(OSError):
        verifier.feed(path.read_bytes())
    return verifier
