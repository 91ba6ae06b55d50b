"""Coding drills on disk: kernels/<id>/drill.toml and its files, loaded and checked.

A drill folder holds drill.toml (metadata), prompt.md, starter.py, solution.py and the hidden
tests test_<id with - as _>.py. Loading never imports the Python files; `check` only parses them.
Drills come from several kernels folders (Paths.kernel_dirs(): the shipped ones, then
DRILL_HOME/kernels); an id is used once across them, and a folder without a conftest.py of its
own gets the shipped kernels/conftest.py fixtures (candidate, device, seed).

In the store a drill is one item, "kernel:<id>" (item_id, drill_item), graded by quality():
    5  passed within the time budget, no hints (Easy)
    4  passed over the budget, or with hints (Good)
    2  failed: the tests ran and some failed (Again)
    1  error or timeout: the code did not run to a verdict (crash, syntax error, endless loop)
A pass is at least Good: it counts and comes back in a day or more, never later the same day
(quality 3, Hard, would bring it back today); a slower or helped pass only gets a shorter interval
than a clean one. 1..2 are a lapse.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from drill.content.errors import ContentError
from drill.content.locate import KEY, toml_lines
from drill.content.models import ContentItem, ItemId, Text
from drill.content.toml_file import read_toml, validation_errors
from drill.content.vocabulary import Block
from drill.errors import UserFacingError
from drill.paths import content_root

DrillId = ItemId
TOML = "drill.toml"
ITEM_PREFIX = "kernel:"
KernelDirs = Path | Sequence[Path]  # one kernels folder, or several in loading order


Difficulty = Literal["easy", "medium", "hard"]


class DrillRow(TypedDict):
    """A drill's `drill kernel list --json` row."""

    id: str
    title: str
    difficulty: Difficulty
    budget_s: int
    block: Block


class DrillError(UserFacingError):
    """A drill folder that cannot be loaded; the message says why."""


class DrillMeta(BaseModel):
    """drill.toml exactly as written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: DrillId
    title: Text
    difficulty: Difficulty
    budget_s: int = Field(ge=60, le=3600)
    block: Block
    topic: Text
    source: Text
    hints: list[Text] = Field(min_length=2, max_length=3)


class Drill(DrillMeta):
    """A drill's metadata plus the folder it was read from, and the paths of its files."""

    folder: Path

    @property
    def prompt(self) -> Path:
        return self.folder / "prompt.md"

    @property
    def starter(self) -> Path:
        return self.folder / "starter.py"

    @property
    def solution(self) -> Path:
        return self.folder / "solution.py"

    @property
    def tests(self) -> Path:
        """The hidden test file: never copied into a workspace."""
        return self.folder / f"test_{self.id.replace('-', '_')}.py"

    @property
    def mutants(self) -> list[Path]:
        """Wrong answers a candidate would write (mutants/*.py): every one must fail the tests."""
        return sorted((self.folder / "mutants").glob("*.py"))

    @property
    def alternates(self) -> list[Path]:
        """Right answers written another way (alternates/*.py): every one must pass the tests."""
        return sorted((self.folder / "alternates").glob("*.py"))

    @property
    def kernels_dir(self) -> Path:
        """The kernels folder this drill is in (holding the shared conftest.py, if it has one)."""
        return self.folder.parent

    @property
    def conftest(self) -> Path:
        """The fixtures its tests use: its kernels folder's conftest.py, else the shipped one."""
        own = self.kernels_dir / "conftest.py"
        return own if own.is_file() else content_root() / "kernels" / "conftest.py"

    def listing(self) -> DrillRow:
        """The `drill kernel list --json` row."""
        return {
            "id": self.id,
            "title": self.title,
            "difficulty": self.difficulty,
            "budget_s": self.budget_s,
            "block": self.block,
        }


def item_id(drill_id: str) -> str:
    """The store item of the drill `drill_id`."""
    return ITEM_PREFIX + drill_id


def drill_id(item_id: str) -> str:
    """The drill of the store item `item_id`."""
    return item_id.removeprefix(ITEM_PREFIX)


def drill_item(drill: Drill) -> ContentItem:
    """The store's view of a drill: its task, and the reference solution as the answer."""
    return ContentItem(
        id=item_id(drill.id),
        kind="coding",
        block=drill.block,
        topic=drill.topic,
        prompt=drill.prompt.read_text(encoding="utf-8"),
        answer=f"```python\n{drill.solution.read_text(encoding='utf-8').rstrip()}\n```",
        source=drill.source,
        target_seconds=drill.budget_s,
    )


def quality(status: str, seconds: float, budget_s: float, hints_used: int) -> int:
    """SM-2 quality (0..5) of one attempt (the table above). `seconds` is the time the user spent
    on the attempt (start to the passing run), not how long the tests took."""
    if status == "pass":
        return 5 if seconds <= budget_s and not hints_used else 4
    if status == "fail":
        return 2
    return 1


def drill_folders(kernels_dir: Path) -> list[Path]:
    """Every sub-folder of kernels/ that has a drill.toml, sorted by name."""
    if not kernels_dir.is_dir():
        return []
    return sorted(path.parent for path in kernels_dir.glob(f"*/{TOML}"))


def read_meta(toml: Path) -> DrillMeta | list[ContentError]:
    """A drill.toml validated, or its errors at their lines."""
    read = read_toml(toml)
    if isinstance(read, ContentError):
        return [read]
    try:
        return DrillMeta.model_validate(read.data)
    except ValidationError as error:
        lines = _key_lines(read.text)
        return validation_errors(toml, error, lambda loc, _message: lines.get(str(loc[0]) if loc else "", 1))


def load_drill(folder: Path) -> Drill:
    """Read one drill folder's drill.toml; raise DrillError with the first problem."""
    folder = folder.resolve()
    meta = read_meta(folder / TOML)
    if isinstance(meta, list):
        raise DrillError(str(meta[0]))
    return Drill(**meta.model_dump(), folder=folder)


def kernel_roots(kernels_dirs: KernelDirs) -> list[Path]:
    return [kernels_dirs] if isinstance(kernels_dirs, Path) else list(kernels_dirs)


def load_drills(kernels_dirs: KernelDirs) -> list[Drill]:
    """Every loadable drill, sorted by id; broken folders, and a drill whose id an earlier folder
    already gave, are skipped (`check` reports them)."""
    drills: dict[str, Drill] = {}
    for root in kernel_roots(kernels_dirs):
        for folder in drill_folders(root):
            try:
                drill = load_drill(folder)
            except DrillError:
                continue
            drills.setdefault(drill.id, drill)
    return sorted(drills.values(), key=lambda drill: drill.id)


def find_drill(kernels_dirs: KernelDirs, drill_id: str) -> Drill:
    """The drill with this id (from the first folder that has it); DrillError when there is none
    or it is broken."""
    roots = kernel_roots(kernels_dirs)
    for root in roots:
        if (root / drill_id / TOML).is_file():
            return load_drill(root / drill_id)
    raise DrillError(f"no drill named {drill_id!r} in {' or '.join(map(str, roots))}")


def _key_lines(text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(toml_lines(text), start=1):
        if match := KEY.match(line):
            lines.setdefault(match.group(1), number)
    return lines


def _check_python(path: Path, need_function: str | None = None) -> list[ContentError]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as error:
        return [ContentError(path, error.lineno or 1, f"syntax error: {error.msg}")]
    except (OSError, UnicodeDecodeError) as error:
        return [ContentError(path, 1, f"unreadable: {error}")]
    if need_function and not any(
        isinstance(node, ast.FunctionDef) and node.name == need_function for node in tree.body
    ):
        return [ContentError(path, 1, f"no module-level `def {need_function}(module, device)` (used for timing)")]
    return []


def _check_folder(folder: Path, seen_tests: dict[str, Path]) -> list[ContentError]:
    toml = folder / TOML
    meta = read_meta(toml)
    if isinstance(meta, list):
        return meta
    lines = _key_lines(toml.read_text(encoding="utf-8"))
    if meta.id != folder.name:
        return [ContentError(toml, lines.get("id", 1), f"id `{meta.id}` differs from its folder name `{folder.name}`")]
    drill = Drill(**meta.model_dump(), folder=folder)
    errors = []
    for path in (drill.prompt, drill.starter, drill.solution, drill.tests):
        if not path.is_file():
            errors.append(ContentError(toml, 1, f"missing file {path.name} next to drill.toml"))
    for path in (drill.starter, drill.solution):
        if path.is_file():
            errors.extend(_check_python(path))
    if drill.tests.is_file():
        errors.extend(_check_python(drill.tests, need_function="benchmark_case"))
        if drill.tests.name in seen_tests:
            errors.append(ContentError(drill.tests, 1, f"test file name also used by {seen_tests[drill.tests.name]}"))
        seen_tests[drill.tests.name] = drill.tests
    return errors


def check(kernels_dirs: KernelDirs) -> list[ContentError]:
    """Every problem in the drills under the kernels folders, as path:line errors; a drill id
    used in an earlier folder (a shipped drill's) is one."""
    errors: list[ContentError] = []
    seen_tests: dict[str, Path] = {}
    seen_ids: dict[str, Path] = {}
    for root in kernel_roots(kernels_dirs):
        if not root.is_dir():
            continue
        for folder in sorted(path for path in root.iterdir() if path.is_dir()):
            if folder.name.startswith((".", "_")):
                continue
            if not (folder / TOML).is_file():
                errors.append(ContentError(folder, 1, "a drill folder needs a drill.toml"))
                continue
            if folder.name in seen_ids:
                line = _key_lines((folder / TOML).read_text(encoding="utf-8")).get("id", 1)
                errors.append(
                    ContentError(
                        folder / TOML,
                        line,
                        f"drill id `{folder.name}` is already used by "
                        f"{seen_ids[folder.name]}: give yours another id (and folder name)",
                    )
                )
                continue
            seen_ids[folder.name] = folder
            errors.extend(_check_folder(folder, seen_tests))
    return errors
