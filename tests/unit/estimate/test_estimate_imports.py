"""drill.estimate never imports textual, and sympy stays off the start-up path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run(code: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_answer_check_loads_neither_sympy_nor_textual_nor_pydantic():
    got = run(
        "import json, sys; import drill.estimate.answer_check; "
        "print(json.dumps({m: m in sys.modules for m in ('sympy', 'textual', 'pydantic')}))"
    )
    assert got == {"sympy": False, "textual": False, "pydantic": False}


def test_listing_families_needs_no_sympy():
    got = run(
        "import json, sys; from drill.estimate.schema import families; fams = families('problems'); "
        "rows = [f.describe() for f in fams]; "
        "print(json.dumps({'n': len(rows), 'sympy': 'sympy' in sys.modules, 'textual': 'textual' in sys.modules}))"
    )
    assert got["n"] >= 20 and got == {"n": got["n"], "sympy": False, "textual": False}


@pytest.mark.slow
def test_grading_never_imports_textual():
    got = run(
        "import json, sys, random; from drill.estimate.schema import family; "
        "from drill.estimate.draw import generate; from drill.estimate.score import grade; "
        "from drill.estimate.validate import check; f = family('problems', 'kv-cache'); "
        "p = generate(f, random.Random(0)); r = grade(f, p.params, '2 GB'); check('problems'); "
        "print(json.dumps({'textual': 'textual' in sys.modules, 'sympy': 'sympy' in sys.modules}))"
    )
    assert got == {"textual": False, "sympy": True}
