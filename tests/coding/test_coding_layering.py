"""`drill kernel list` starts light: no torch (tests/test_layering.py covers every module's imports)."""

from __future__ import annotations

import subprocess
import sys

def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(','.join(m for m in ('torch', 'textual', 'triton') if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


def test_drill_kernel_list_does_not_import_torch() -> None:
    code = "import contextlib, io\nfrom drill.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n" \
           "    main(['kernel', 'list', '--json'])\n"
    assert _loaded_after(code) == []


def test_the_parser_does_not_load_the_runner() -> None:
    code = "from drill.cli import _parser\n_parser()\nimport sys\nassert 'drill.coding.api' not in sys.modules\n"
    assert _loaded_after(code) == []
