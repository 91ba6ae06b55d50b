"""The README's first Quickstart line sets up everything: in a fresh venv (no system site
packages) its install part alone is enough for a coding drill's hidden tests to run and pass."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def quickstart_lines() -> list[str]:
    """The lines of the first code block under README.md's "## Quickstart"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Quickstart\n", 1)[1]
    block = re.search(r"```[^\n]*\n(.*?)```", section, re.S)
    assert block is not None, "no code block under ## Quickstart"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def install_command() -> list[str]:
    """The first Quickstart line up to `&& drill`: what a new user runs to install drill."""
    first = quickstart_lines()[0]
    install, _, rest = first.partition("&&")
    assert rest.strip() == "drill", f"the first Quickstart line should end by opening drill: {first!r}"
    words = shlex.split(install)
    assert words[:2] == ["pip", "install"], words
    return words


def test_the_first_quickstart_line_is_the_plain_install() -> None:
    assert quickstart_lines()[0] == "pip install -e . && drill"
    assert install_command() == ["pip", "install", "-e", "."]


@pytest.mark.slow
def test_the_first_quickstart_line_alone_runs_coding_drills(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)  # no system site packages
    bin_dir = venv / "bin"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        DRILL_HOME=str(tmp_path / "home"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    # `pip install -e .` in the checkout, run with the venv's pip, as a user with it activated would
    pip, *args = install_command()
    installed = subprocess.run(
        [bin_dir / "python", "-m", pip, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    drill = bin_dir / "drill"
    for drill_id in ("quantize-per-channel", "triton-vector-add"):
        if drill_id.startswith("triton") and not (sys.platform == "linux" and os.uname().machine == "x86_64"):
            continue  # Triton has no wheels here: that drill skips itself
        ran = subprocess.run(
            [drill, "kernel", "test", drill_id, "--solution", f"kernels/{drill_id}/solution.py", "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert ran.returncode == 0, ran.stderr
        result = json.loads(ran.stdout)
        assert (result["status"], result["environment"]) == ("pass", False), result["reason"]
        assert result["passed"] > 0 and result["failed"] == 0
    # the app process itself never imports torch
    code = (
        "import sys, drill.cli, drill.coding.runner.environment as e; "
        "print(e.missing_requirements(), 'torch' in sys.modules)"
    )
    out = subprocess.run(
        [bin_dir / "python", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["[]", "False"]
