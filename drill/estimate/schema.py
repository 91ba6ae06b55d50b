"""Problem families and catalogs: TOML files → validated pydantic models.

A directory of problems holds two kinds of TOML file:

* a *catalog* (a top-level `catalog = "models"` key, then one table per entry:
  `[llama-3-70b] name = "Llama-3-70B"  layers = 80 ...`), and
* a *family*, one per file: id, block, topic, prompt template, `[params.<name>]`
  distributions, optional `[draws.<name>]` catalog draws, optional `[derived]`
  intermediate formulas, the `answer` formula, its `unit`, a `tolerance`, worked
  solution `steps` (a step with `when` is shown only where that comparison holds), `[[slips]]`,
  `[[examples]]` and `[[require]]` constraints.

Constraints keep draws physically possible: each `[[require]]` is a comparison over parameters
and derived values (`check = "seq_len <= context"`) and the `reason` a draw breaking it is
impossible (a template). Drawing rejects and redraws such parameters, and `drill solve` refuses
them with the reason (a `draws_only` constraint only filters draws: values outside it solve).
A family that draws a catalog entry (a real model, GPU or topology, with its context window,
memory and GPUs per node) can be impossible: it declares limits, or says in `always_possible`
why no draw can break one; `drill check` enforces this and fails constraints that reject more
than 90 % of draws.

Loading needs no sympy. Problems are reported as `ContentError(path, line, message)`.
"""

from __future__ import annotations

import keyword
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from drill.content.errors import ContentError
from drill.content.locate import toml_lines
from drill.content.toml_file import read_toml, validation_errors
from drill.content.vocabulary import Block
from drill.estimate.units import FAMILY_UNITS

DISPLAYS = ("auto", "%", "x", "count", "sci")
# Names usable as functions in formulas (see formula.py); parameters may not shadow them.
FUNCTION_NAMES = frozenset(
    {"ceil", "ceiling", "floor", "Min", "Max", "min", "max", "sqrt", "log", "log2", "log10", "exp", "shard", "pi"}
)
RESERVED_NAMES = FUNCTION_NAMES | {"answer", "answer_value", "answer_gib", "yours", "E", "I", "N", "S", "O", "Q"}

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

Number = int | float
# Where problems are read from: one folder, or several (shipped first, then the user's own).
ProblemDirs = Path | str | Sequence[Path]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ParamSpec(_Strict):
    """How one parameter is drawn, and what explicit values it accepts."""

    choice: list[Number] | None = None
    log_uniform: tuple[float, float] | None = None
    uniform: tuple[float, float] | None = None
    int_range: tuple[int, int] | None = None
    from_: str | None = Field(default=None, alias="from")  # "<draw>.<field>"
    default: Number | None = None
    sig: int = Field(default=2, ge=1, le=6)  # significant figures kept by log_uniform / uniform
    step: float | None = Field(default=None, gt=0)  # round uniform / int_range draws to a multiple
    integer: bool = False
    unit: str | None = None  # a family unit, so key=value may carry units (bandwidth=50GB/s)
    range: tuple[float, float] | None = None  # inclusive bounds for explicit values
    description: str = ""

    @model_validator(mode="after")
    def _one_source(self) -> ParamSpec:
        sources = [
            s for s in ("choice", "log_uniform", "uniform", "int_range", "from_") if getattr(self, s) is not None
        ]
        if len(sources) > 1:
            raise ValueError(
                f"give only one of choice, log_uniform, uniform, int_range, from (got {', '.join(sources)})"
            )
        if not sources and self.default is None:
            raise ValueError("needs a distribution: choice, log_uniform, uniform, int_range, from, or a default")
        if self.choice is not None and not self.choice:
            raise ValueError("choice must not be empty")
        for name in ("log_uniform", "uniform", "int_range", "range"):
            bounds = getattr(self, name)
            if bounds is not None and bounds[0] > bounds[1]:
                raise ValueError(f"{name}: lower bound above upper bound")
        if self.log_uniform is not None and self.log_uniform[0] <= 0:
            raise ValueError("log_uniform bounds must be positive")
        if self.from_ is not None and not re.fullmatch(r"[a-z][a-z0-9_]*\.[A-Za-z0-9_]+", self.from_):
            raise ValueError("from must look like '<draw>.<field>', e.g. 'model.layers'")
        if self.unit is not None and self.unit not in FAMILY_UNITS:
            raise ValueError(f"unknown unit {self.unit!r}; known: {', '.join(FAMILY_UNITS)}")
        return self

    @property
    def is_integer(self) -> bool:
        if self.integer or self.int_range is not None:
            return True
        if self.choice is not None:
            return all(isinstance(c, int) for c in self.choice)
        return False


class DrawSpec(_Strict):
    """A draw of one catalog entry; parameters bind its fields with `from = "<draw>.<field>"`.

    Templates show the entry as `{<draw>}` (its display name) and each of its other text
    fields as `{<draw>_<field>}`. `unnamed` gives those texts (`name` for `{<draw>}`) for
    parameters that give values instead of naming an entry (`bandwidth=50e9`, no network);
    they are templates over the parameters.
    """

    catalog: str
    pick: list[str] | None = None
    exclude: list[str] = []
    reason: str = ""  # why `exclude` entries are left out, shown if a user names one
    unnamed: dict[str, str] = {}

    @model_validator(mode="after")
    def _unnamed_has_a_name(self) -> DrawSpec:
        if self.unnamed and "name" not in self.unnamed:
            raise ValueError("unnamed needs a name (what {<draw>} says when no entry is named)")
        return self


class SlipSpec(_Strict):
    """A family-specific slip: the answer is `factor` × the truth (factor: formula over params)."""

    factor: str
    message: str


class Requirement(_Strict):
    """A constraint on drawn parameters: `check` (one comparison) must hold; `reason` (a template
    over the parameters and derived values) says why parameters breaking it are impossible.
    `draws_only` marks a constraint that only keeps draws interesting (an MFU between 10 % and 70 %):
    values outside it are possible, so `drill solve` accepts them."""

    check: str
    reason: str = ""
    draws_only: bool = False


class Step(_Strict):
    """One line of the worked solution (a template), shown only `when` its comparison holds."""

    text: str
    when: str | None = None


class ExampleSpec(_Strict):
    """A hand-computed case checked by `drill check` and the tests."""

    params: dict[str, int | float | str]
    answer: float
    rel: float = Field(default=1e-3, gt=0)
    source: str = ""


class Catalog(BaseModel):
    """Named entries of real figures (models, GPUs): {id: {field: value}}."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str = ""
    entries: dict[str, dict[str, int | float | str | list[str]]]

    _path: Path = PrivateAttr(default=Path("<memory>"))
    _text: str = PrivateAttr(default="")

    @property
    def path(self) -> Path:
        return self._path

    def find(self, key: str) -> str | None:
        """The entry id for a user's spelling: an id or a display name, any case."""
        if key in self.entries:
            return key
        folded = key.strip().casefold()
        for entry_id, fields in self.entries.items():
            if entry_id.casefold() == folded or str(fields.get("name", "")).casefold() == folded:
                return entry_id
        return None

    def display_name(self, entry_id: str) -> str:
        return str(self.entries[entry_id].get("name", entry_id))


class Family(_Strict):
    """One problem family, validated. Formulas are compiled lazily (see formula.py)."""

    id: str
    block: Block
    topic: str
    prompt: str
    params: dict[str, ParamSpec]
    draws: dict[str, DrawSpec] = {}
    derived: dict[str, str] = {}
    answer: str
    unit: str
    display: Literal["auto", "%", "x", "count", "sci"] = "auto"
    tolerance: float = Field(default=0.05, gt=0, le=0.5)
    steps: list[Step] = []
    slips: list[SlipSpec] = []
    examples: list[ExampleSpec] = []
    require: list[Requirement] = []
    always_possible: str = ""  # why no draw can be physically impossible, where no `require` is needed
    notes: str = ""

    _path: Path = PrivateAttr(default=Path("<memory>"))
    _text: str = PrivateAttr(default="")
    _catalogs: dict[str, Catalog] = PrivateAttr(default_factory=dict)
    _compiled: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @field_validator("id")
    @classmethod
    def _check_id(cls, v: str) -> str:
        if not _ID.fullmatch(v):
            raise ValueError("id must be lower-case words joined by '-', e.g. 'kv-cache'")
        return v

    @field_validator("steps", "require", mode="before")
    @classmethod
    def _strings_as_tables(cls, value: Any, info: ValidationInfo) -> Any:
        """A bare string is the step's text, or the constraint's check."""
        key = "text" if info.field_name == "steps" else "check"
        if isinstance(value, list):
            return [{key: item} if isinstance(item, str) else item for item in value]
        return value

    @field_validator("unit")
    @classmethod
    def _check_unit(cls, v: str) -> str:
        if v not in FAMILY_UNITS:
            raise ValueError(f"unknown unit {v!r}; known: {', '.join(FAMILY_UNITS)}")
        return v

    @model_validator(mode="after")
    def _check_names(self) -> Family:
        names = list(self.params) + list(self.derived) + list(self.draws)
        for name in names:
            if not _NAME.fullmatch(name) or keyword.iskeyword(name):
                raise ValueError(f"name {name!r} must be lower_snake_case and not a Python keyword")
            if name in RESERVED_NAMES:
                raise ValueError(f"name {name!r} is reserved")
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"names used twice among params, derived and draws: {', '.join(sorted(dup))}")
        for pname, spec in self.params.items():
            if spec.from_ is not None:
                draw = spec.from_.split(".", 1)[0]
                if draw not in self.draws:
                    raise ValueError(f"params.{pname}: 'from' {spec.from_!r} names no draw (declare [draws.{draw}])")
        return self

    # -- conveniences -----------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def catalogs(self) -> dict[str, Catalog]:
        return self._catalogs

    @property
    def can_be_impossible(self) -> bool:
        """Whether a draw could break a real limit: the family draws a catalog entry (a model's
        context window and size, a GPU's memory, a topology's GPUs per node)."""
        return bool(self.draws)

    @property
    def physical_limits(self) -> list[Requirement]:
        """The constraints that make parameters impossible (not `draws_only`)."""
        return [r for r in self.require if not r.draws_only]

    @property
    def display_kind(self) -> str:
        """How answers are shown: the display override, else the unit."""
        return self.unit if self.display == "auto" else self.display

    def bound_params(self, draw: str) -> dict[str, str]:
        """{param: field} for the params a draw binds."""
        out = {}
        for pname, spec in self.params.items():
            if spec.from_ is not None and spec.from_.split(".", 1)[0] == draw:
                out[pname] = spec.from_.split(".", 1)[1]
        return out

    def draw_entries(self, draw: str) -> list[str]:
        """The catalog entry ids a draw may pick, in catalog order."""
        spec = self.draws[draw]
        catalog = self._catalogs.get(spec.catalog)
        if catalog is None:
            return []
        ids = spec.pick if spec.pick is not None else list(catalog.entries)
        return [i for i in ids if i in catalog.entries and i not in spec.exclude]

    def draw_texts(self, draw: str, entry: str | None) -> dict[str, str]:
        """What templates see of a draw: `{draw}` and `{draw_field}` for its text fields.

        `entry` None means the parameters name no entry: the draw's `unnamed` texts.
        """
        spec = self.draws[draw]
        if entry is None:
            texts = dict(spec.unnamed)
        else:
            catalog = self._catalogs[spec.catalog]
            fields = catalog.entries[entry]
            texts = {k: v for k, v in fields.items() if isinstance(v, str)}
            texts["name"] = catalog.display_name(entry)
        return {(draw if k == "name" else f"{draw}_{k}"): v for k, v in texts.items()}

    def draw_text_names(self, draw: str) -> set[str]:
        """The template names a draw always fills: texts every entry it can take has."""
        entries = self.draw_entries(draw)
        shared = set.intersection(*(set(self.draw_texts(draw, e)) for e in entries)) if entries else {draw}
        if self.draws[draw].unnamed:
            shared &= set(self.draw_texts(draw, None))
        return shared

    def describe(self) -> dict[str, Any]:
        """The JSON shape for `drill problems --json`."""
        return {
            "id": self.id,
            "block": self.block,
            "topic": self.topic,
            "parameters": list(self.params),
            "draws": {name: d.catalog for name, d in self.draws.items()},
            "unit": self.unit,
            "tolerance": self.tolerance,
        }

    def line_of(self, *loc: str | int) -> int:
        return find_line(self._text, loc)


# ---------------------------------------------------------------------------
# Line numbers for errors (tomllib keeps none, so search the text).


def find_line(text: str, loc: tuple[str | int, ...]) -> int:
    """Best-effort line (1-based) of a key path like ('params', 'alpha', 'uniform')."""
    if not text:
        return 1
    lines = toml_lines(text)
    pos = 0
    found = 0
    table_prefix: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int):
            # the part-th [[array]] of the previous key
            if i == 0:
                continue
            key = str(loc[i - 1])
            hits = [n for n in range(len(lines)) if re.match(rf"\s*\[\[\s*{re.escape(key)}\s*\]\]", lines[n])]
            if part < len(hits):
                pos = found = hits[part]
            continue
        table_prefix.append(re.escape(str(part)))
        header = re.compile(r"\s*\[+\s*" + r"\s*\.\s*".join(f'"?{p}"?' for p in table_prefix) + r"\s*\]+")
        assignment = re.compile(rf'\s*"?{re.escape(str(part))}"?\s*=')
        for n in range(pos, len(lines)):
            if header.match(lines[n]) or assignment.match(lines[n]):
                pos = found = n
                break
    return found + 1


def _refine_line(text: str, loc: tuple[str | int, ...], msg: str) -> int:
    """The line of `loc`, or of a key inside it that the message names ('choice must...')."""
    line = find_line(text, loc)
    if loc:
        for word in re.findall(r"[a-z_]+", msg):
            deeper = find_line(text, (*loc, word))
            if deeper != line:
                return deeper
    return line


def _pydantic_errors(path: Path, text: str, exc: ValidationError) -> list[ContentError]:
    return validation_errors(path, exc, lambda loc, msg: _refine_line(text, loc, msg))


# ---------------------------------------------------------------------------
# Loading.


def load_catalog(path: Path, text: str, data: dict[str, Any]) -> tuple[Catalog | None, list[ContentError]]:
    errors: list[ContentError] = []
    name = data.get("catalog")
    entries = {k: v for k, v in data.items() if isinstance(v, dict)}
    for key, value in data.items():
        if key not in ("catalog", "description") and not isinstance(value, dict):
            errors.append(ContentError(path, find_line(text, (key,)), f"{key}: expected a table per catalog entry"))
    try:
        catalog = Catalog.model_validate(
            {"name": name, "description": str(data.get("description", "")), "entries": entries}
        )
    except ValidationError as exc:
        return None, errors + _pydantic_errors(path, text, exc)
    for entry_id, fields in catalog.entries.items():
        if not _ID.fullmatch(entry_id):
            errors.append(
                ContentError(
                    path, find_line(text, (entry_id,)), f"entry id {entry_id!r} must be lower-case words joined by '-'"
                )
            )
        if "name" not in fields:
            errors.append(ContentError(path, find_line(text, (entry_id,)), f"{entry_id}: needs a display name"))
        for field, value in fields.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
                errors.append(
                    ContentError(path, find_line(text, (entry_id, field)), f"{entry_id}.{field}: must be positive")
                )
    catalog._path = path
    catalog._text = text
    return catalog, errors


def _check_draws(family: Family) -> list[ContentError]:
    errors = []
    path, text = family._path, family._text
    for dname, spec in family.draws.items():
        catalog = family._catalogs.get(spec.catalog)
        if catalog is None:
            errors.append(
                ContentError(
                    path,
                    find_line(text, ("draws", dname, "catalog")),
                    f"draws.{dname}: no catalog named {spec.catalog!r}",
                )
            )
            continue
        for entry in (spec.pick or []) + spec.exclude:
            if entry not in catalog.entries:
                errors.append(
                    ContentError(
                        path, find_line(text, ("draws", dname)), f"draws.{dname}: {spec.catalog} has no entry {entry!r}"
                    )
                )
        allowed = family.draw_entries(dname)
        if not allowed:
            errors.append(
                ContentError(path, find_line(text, ("draws", dname)), f"draws.{dname}: no entries left to draw")
            )
        for pname, field in family.bound_params(dname).items():
            for entry in allowed:
                value = catalog.entries[entry].get(field)
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    errors.append(
                        ContentError(
                            path,
                            find_line(text, ("params", pname, "from")),
                            f"params.{pname}: {spec.catalog} entry {entry!r} has no number {field!r}",
                        )
                    )
    return errors


def problem_roots(problems_dirs: ProblemDirs) -> list[Path]:
    """The folders to read, in order: the first is required, later ones (the user's) may be absent."""
    if isinstance(problems_dirs, (str, Path)):
        return [Path(problems_dirs)]
    return [Path(folder) for folder in problems_dirs]


def _problem_files(roots: list[Path]) -> list[Path]:
    return [path for root in roots if root.is_dir() for path in sorted(root.glob("*.toml"))]


def load_dir(problems_dirs: ProblemDirs) -> tuple[list[Family], dict[str, Catalog], list[ContentError]]:
    """Every family and catalog in one folder or several (not recursive), and the errors found.

    Catalogs are shared by every folder's families; a family id may be used once across all
    folders. Families with errors are left out of the list; the rest load normally.
    """
    roots = problem_roots(problems_dirs)
    errors: list[ContentError] = []
    catalogs: dict[str, Catalog] = {}
    raw_families: list[tuple[Path, str, dict[str, Any]]] = []
    if not roots[0].is_dir():
        return [], {}, [ContentError(roots[0], 1, "problems directory not found")]
    for path in _problem_files(roots):
        read = read_toml(path)
        if isinstance(read, ContentError):
            errors.append(read)
            continue
        text, data = read.text, read.data
        if isinstance(data.get("catalog"), str):
            catalog, errs = load_catalog(path, text, data)
            errors += errs
            if catalog is not None:
                if catalog.name in catalogs:
                    errors.append(
                        ContentError(path, find_line(text, ("catalog",)), f"catalog {catalog.name!r} defined twice")
                    )
                catalogs[catalog.name] = catalog
        else:
            raw_families.append((path, text, data))
    families: list[Family] = []
    seen: dict[str, Path] = {}
    for path, text, data in raw_families:
        try:
            family = Family.model_validate(data)
        except ValidationError as exc:
            errors += _pydantic_errors(path, text, exc)
            continue
        family._path = path
        family._text = text
        family._catalogs = catalogs
        if family.id in seen:
            other = seen[family.id]
            where = other.name if other.parent == path.parent else f"{other} (ids must differ from the shipped ones)"
            errors.append(ContentError(path, family.line_of("id"), f"family id {family.id!r} already used in {where}"))
            continue
        if path.stem != family.id:
            errors.append(ContentError(path, family.line_of("id"), f"file name should match the id: {family.id}.toml"))
        draw_errors = _check_draws(family)
        errors += draw_errors
        if draw_errors:
            continue
        seen[family.id] = path
        families.append(family)
    return families, catalogs, errors


Fingerprint = tuple[tuple[str, int, int], ...]  # each problem file's path, mtime and size
_cache: dict[tuple[Path, ...], tuple[Fingerprint, list[Family]]] = {}
_cache_lock = threading.Lock()


def _fingerprint(roots: list[Path]) -> Fingerprint:
    try:
        return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in _problem_files(roots))
    except OSError:
        return ()


def families(problems_dirs: ProblemDirs) -> list[Family]:
    """The valid families in one folder or several, cached until a file there changes."""
    roots = [root.resolve() for root in problem_roots(problems_dirs)]
    key = _fingerprint(roots)
    with _cache_lock:
        hit = _cache.get(tuple(roots))
        if hit is not None and hit[0] == key:
            return list(hit[1])
    loaded, _, _ = load_dir(roots)
    with _cache_lock:
        _cache[tuple(roots)] = (key, loaded)
    return list(loaded)


def family(problems_dirs: ProblemDirs, family_id: str) -> Family:
    """One valid family by id; KeyError when there is none."""
    for found in families(problems_dirs):
        if found.id == family_id:
            return found
    raise KeyError(f"no estimation problem {family_id!r}")
