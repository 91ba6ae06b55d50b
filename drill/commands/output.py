"""How every command prints JSON."""

from __future__ import annotations

import json


def print_json(value: object) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=str))
