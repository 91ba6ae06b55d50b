"""drill.coding never imports Textual or torch in the app's process; `drill kernel` starts light."""

from __future__ import annotations

import subprocess
import sys

MODULES = ["drill.coding", "drill.coding.drills", "drill.coding.workspace", "drill.coding.result",
           "drill.coding.limits", "drill.coding.invocation", "drill.coding.supervise", "drill.coding.cold",
           "drill.coding.warm", "drill.coding.worker", "drill.coding.api", "drill.coding.quality",
           "drill.coding.verify", "drill.coding.timing", "drill.commands.kernel"]


def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(','.join(m for m in ('torch', 'textual', 'triton') if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


def test_importing_drill_coding_loads_neither_torch_nor_textual() -> None:
    code = "".join(f"import {name}\n" for name in MODULES) + "from drill.coding import run_tests, Drill, quality\n"
    assert _loaded_after(code) == []


def test_drill_kernel_list_does_not_import_torch() -> None:
    code = "import contextlib, io\nfrom drill.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n" \
           "    main(['kernel', 'list', '--json'])\n"
    assert _loaded_after(code) == []


def test_the_parser_does_not_load_the_runner() -> None:
    code = "from drill.cli import _parser\n_parser()\nimport sys\nassert 'drill.coding.api' not in sys.modules\n"
    assert _loaded_after(code) == []
