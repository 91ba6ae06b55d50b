"""The installed wheel carries decks/, problems/ and kernels/ and finds them."""

import json
import site
import subprocess
import sys
from pathlib import Path

import pytest

from drill.content.decks import load_decks

ROOT = Path(__file__).resolve().parents[2]


def venv_over_these_packages(venv: Path) -> Path:
    """A fresh virtualenv that finds drill's dependencies in this interpreter's site-packages, behind
    its own (a .pth of plain paths: this environment's own .pth files, an editable drill among
    them, are not run); returns its python. `--system-site-packages` would not do: from inside a
    virtualenv it reaches the base interpreter's packages, not this environment's."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    own = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(own) / "drill_test_dependencies.pth").write_text("".join(f"{path}\n" for path in site.getsitepackages()))
    return python


@pytest.mark.slow
def test_wheel_install_finds_its_content(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = (tmp_path / "dist").glob("drill-*.whl")
    venv = tmp_path / "venv"
    python = venv_over_these_packages(venv)
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    env = {"DRILL_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    where = subprocess.run(
        [python, "-c", "import drill.paths as p; print(p.content_root())"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    site_packages = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    assert where == str(site_packages / "drill" / "_content")
    listed = subprocess.run(
        [venv / "bin" / "drill", "list", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert listed.returncode == 0, listed.stderr
    shipped = load_decks([ROOT / "decks"]).items
    decks = [row["id"] for row in json.loads(listed.stdout) if row["kind"] in ("card", "pitch")]
    assert decks == [loaded.item.id for loaded in shipped]
    for folder in ("problems", "kernels"):
        assert (Path(where) / folder).is_dir()
