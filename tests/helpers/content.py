"""Content for a test's home: decks of plain cards, one pitch, shipped estimation families, Paths
whose shipped content comes from a test folder; and where the shipped problems and drills are."""

from __future__ import annotations

import shutil
from pathlib import Path

from drill.paths import Paths

REPO = Path(__file__).resolve().parents[2]
PROBLEMS = REPO / "problems"
KERNELS = REPO / "kernels"

CARD = """
[[item]]
id = "{id}"
kind = "card"
block = "{block}"
topic = "Topic"
prompt = "Prompt of {id}?"
answer = "Answer of {id}."
source = "seed 000 §10"
"""

PITCH = """
[[item]]
id = "p-1"
kind = "pitch"
block = "training"
topic = "ZeRO"
prompt = "Pitch ZeRO in 30 seconds."
answer = "ZeRO shards optimizer state."
source = "seed 000 §9"
points = ["shards optimizer state", "FSDP is ZeRO-3"]
target_seconds = 30
"""


def write_deck(folder: Path, name: str, ids_blocks: list[tuple[str, str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(CARD.format(id=id_, block=block) for id_, block in ids_blocks))
    return path


class TestPaths(Paths):
    """Paths whose shipped decks come from a test folder, with no estimation problems or drills."""

    __test__ = False

    def __init__(self, home: Path, decks: Path) -> None:
        super().__init__(home)
        object.__setattr__(self, "_decks", decks)
        (decks.parent / "problems").mkdir(exist_ok=True)
        (decks.parent / "kernels").mkdir(exist_ok=True)

    @property
    def decks(self) -> Path:
        return self._decks

    @property
    def problems(self) -> Path:
        return self._decks.parent / "problems"

    @property
    def kernels(self) -> Path:
        return self._decks.parent / "kernels"


def pitch_only(paths) -> None:
    """One deck: the test pitch."""
    for path in paths.decks.glob("*.toml"):
        path.unlink()
    (paths.decks / "pitch.toml").write_text(PITCH)


def add_problems(paths, *families: str) -> None:
    """These shipped estimation families, and the catalogs they draw from."""
    for name in ("models.toml", "gpus.toml", *families):
        shutil.copy(PROBLEMS / name, paths.problems / name)


def estimates_only(paths, *families: str) -> None:
    """Content of estimation problems only: the catalogs and these families, no deck."""
    for path in paths.decks.glob("*.toml"):
        path.unlink()
    add_problems(paths, *families)
