"""How every command prints JSON: compact through the C encoder into a pipe or a file, indented
for a person on a terminal (an indent makes the json module fall back to its pure-Python encoder,
several times slower on a large report)."""

from __future__ import annotations

import json
import sys

COMPACT = (",", ":")


def print_json(value: object) -> None:
    if sys.stdout.isatty():
        print(json.dumps(value, indent=2, ensure_ascii=False, default=str))
    else:
        print(json.dumps(value, separators=COMPACT, ensure_ascii=False, default=str))
