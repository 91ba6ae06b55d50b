"""fsrs is imported on first use only (tests/system/test_layering.py checks no module imports it early)."""

import subprocess
import sys


def loaded_after(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(','.join(m for m in ('fsrs', 'textual') if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


def test_fsrs_loads_when_a_state_is_first_computed() -> None:
    code = (
        "from datetime import date\nfrom drill.schedule import fsrs_model\nfsrs_model.replay([(date(2026, 1, 1), 3)])\n"
    )
    assert loaded_after(code) == ["fsrs"]
