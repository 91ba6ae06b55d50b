"""`drill kernel list` starts light: no torch (tests/system/test_layering.py covers every module's imports);
the test side of a run imports nothing of the app side; the warm worker preloads modules that exist."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import drill.coding

CODING = Path(drill.coding.__file__).resolve().parent
# What the test child may import of drill: its own package, the report contract, the process tree.
TEST_SIDE_MAY_IMPORT = ("drill.coding.sandbox", "drill.coding.signed", "drill.coding.processes")


def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(','.join(m for m in ('torch', 'textual', 'triton') if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


def test_drill_kernel_list_does_not_import_torch() -> None:
    code = (
        "import contextlib, io\nfrom drill.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['kernel', 'list', '--json'])\n"
    )
    assert _loaded_after(code) == []


def test_the_parser_does_not_load_the_runner() -> None:
    code = "from drill.cli import _parser\n_parser()\nimport sys\nassert 'drill.coding.runner.api' not in sys.modules\n"
    assert _loaded_after(code) == []


def _drill_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return {name for name in names if name == "drill" or name.startswith("drill.")}


def test_the_test_side_imports_nothing_of_the_app_side() -> None:
    """sandbox/ reaches only itself, signed.py and processes.py: not the runner, the drills on disk,
    the paths of the user's data or the store (processes.py itself imports no drill module)."""
    found = {
        f"{path.name}: {name}"
        for path in [*sorted((CODING / "sandbox").glob("*.py")), CODING / "processes.py"]
        for name in _drill_imports(path)
        if not any(name == allowed or name.startswith(allowed + ".") for allowed in TEST_SIDE_MAY_IMPORT)
    }
    assert found == set()


def test_the_warm_worker_preloads_modules_that_exist() -> None:
    """preload() skips a module it cannot import without a word: a stale name would only be slower."""
    from drill.coding.runner.worker import PRELOAD

    drill_modules = [name for name in PRELOAD if name.startswith("drill.")]
    assert "drill.coding.sandbox.child" in drill_modules
    assert [name for name in drill_modules if importlib.util.find_spec(name) is None] == []
