"""`python -m drill.coding.sandbox [--json]`: what containment this machine gives a run."""

from __future__ import annotations

import dataclasses
import json
import sys

from drill.coding.sandbox.contain import probe


def main() -> None:
    found = probe()
    print(json.dumps(dataclasses.asdict(found)) if "--json" in sys.argv else found.describe())


if __name__ == "__main__":
    main()
