"""Line numbers for TOML content: which line an `[[item]]` or one of its keys starts on."""

from __future__ import annotations

import re

TABLE_HEADER = re.compile(r"^\s*\[\[\s*item\s*\]\]\s*(#.*)?$")
KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
DECODE_LINE = re.compile(r"at line (\d+)")


def toml_lines(text: str) -> list[str]:
    """The lines of TOML text as tomllib and editors number them: broken at newlines only
    (str.splitlines() also breaks at U+0085, U+2028 and U+2029, which TOML strings may hold)."""
    return text.split("\n")


class ItemLines:
    """Where each `[[item]]` table of a file starts and where its keys are."""

    def __init__(self, text: str) -> None:
        self.headers: list[int] = []
        self.keys: list[dict[str, int]] = []
        for number, line in enumerate(toml_lines(text), start=1):
            if TABLE_HEADER.match(line):
                self.headers.append(number)
                self.keys.append({})
            elif self.keys and (match := KEY.match(line)):
                self.keys[-1].setdefault(match.group(1), number)

    def item(self, index: int) -> int:
        return self.headers[index] if index < len(self.headers) else 1

    def key(self, index: int, name: str) -> int:
        if index < len(self.keys) and name in self.keys[index]:
            return self.keys[index][name]
        return self.item(index)


def decode_error_line(message: str) -> int:
    """The line tomllib names in its error message (1 when it names none)."""
    match = DECODE_LINE.search(message)
    return int(match.group(1)) if match else 1
