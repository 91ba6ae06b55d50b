"""drill.estimate never imports textual, and sympy stays off the start-up path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_loads_neither_sympy_nor_textual():
    got = run(
        "import json, sys; import drill.estimate; "
        "print(json.dumps({m: m in sys.modules for m in ('sympy', 'textual', 'pydantic')}))"
    )
    assert got == {"sympy": False, "textual": False, "pydantic": False}


def test_listing_families_needs_no_sympy():
    got = run(
        "import json, sys; import drill.estimate as e; fams = e.families('problems'); "
        "rows = [e.describe(f) for f in fams]; "
        "print(json.dumps({'n': len(rows), 'sympy': 'sympy' in sys.modules, 'textual': 'textual' in sys.modules}))"
    )
    assert got["n"] >= 20 and got == {"n": got["n"], "sympy": False, "textual": False}


def test_grading_never_imports_textual():
    got = run(
        "import json, sys, random; import drill.estimate as e; f = e.family('problems', 'kv-cache'); "
        "p = e.generate(f, random.Random(0)); r = e.grade(f, p.params, '2 GB'); e.check('problems'); "
        "print(json.dumps({'textual': 'textual' in sys.modules, 'sympy': 'sympy' in sys.modules}))"
    )
    assert got == {"textual": False, "sympy": True}
