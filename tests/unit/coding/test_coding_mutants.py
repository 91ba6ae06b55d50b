"""Every shipped drill's tests catch the wrong answers a candidate would write, and accept the right ones.

`drill kernel verify` on cpu, drill by drill: the reference and every alternate pass; the starter
and every mutant fail by a judged test failure (not a crash or a timeout). Triton drills run
through Triton's interpreter.
"""

from __future__ import annotations

import pytest

from drill.coding.drills import load_drills
from drill.coding.verify import verify
from drill.paths import content_root

KERNELS = content_root() / "kernels"
DRILLS = load_drills(KERNELS)


def test_every_drill_has_mutants_and_an_alternate() -> None:
    few = {drill.id: len(drill.mutants) for drill in DRILLS if len(drill.mutants) < 5}
    assert not few, f"drills with fewer than 5 mutants: {few}"
    assert not [drill.id for drill in DRILLS if not drill.alternates], "drills without an alternate right answer"
    for drill in DRILLS:
        for path in drill.mutants + drill.alternates:
            first = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
            assert first.startswith('"""'), f"{path}: the first line says what the answer does, as a docstring"


@pytest.mark.slow
@pytest.mark.parametrize("drill_id", [drill.id for drill in DRILLS])
def test_verify_catches_every_mutant(drill_id: str) -> None:
    [verdict] = verify(KERNELS, devices=["cpu"], jobs=1, ids=[drill_id])
    assert verdict.ok, verdict.line()
    assert verdict.skipped or len(verdict.mutants) >= 5
