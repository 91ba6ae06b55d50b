"""The unit table: names a user may type, each a factor to a base unit and a dimension.

Dimensions are exponent tuples over three base quantities, (byte, second, FLOP).
Counts (tokens, GPUs, parameters, users, sequences) are dimensionless, so
"50 tokens/s" is 50 per second and "4.2M params" is 4.2e6.

Some names are ambiguous ("B" is a byte or a billion, "tflops" a count or a rate);
an atom therefore has one or more candidate meanings and `parse_unit` returns every
combination, best guess first. The grader picks the one whose dimension the question
asks for (`resolve`).

Stdlib only: this module is on the app's start-up path.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

Dim = tuple[int, int, int]

NONE: Dim = (0, 0, 0)
BYTE: Dim = (1, 0, 0)
SECOND: Dim = (0, 1, 0)
FLOP: Dim = (0, 0, 1)
PER_SECOND: Dim = (0, -1, 0)
FLOP_RATE: Dim = (0, -1, 1)
BANDWIDTH: Dim = (1, -1, 0)
INTENSITY: Dim = (-1, 0, 1)

GIB_OVER_GB = 2**30 / 1e9


class UnitError(ValueError):
    """A unit string that is not in the table or not well formed."""


@dataclass(frozen=True)
class Quantity:
    """A factor to base units and the dimension of a (possibly compound) unit."""

    factor: float
    dim: Dim

    def __mul__(self, other: Quantity) -> Quantity:
        (bytes1, seconds1, flop1), (bytes2, seconds2, flop2) = self.dim, other.dim
        return Quantity(self.factor * other.factor, (bytes1 + bytes2, seconds1 + seconds2, flop1 + flop2))

    def __truediv__(self, other: Quantity) -> Quantity:
        (bytes1, seconds1, flop1), (bytes2, seconds2, flop2) = self.dim, other.dim
        return Quantity(self.factor / other.factor, (bytes1 - bytes2, seconds1 - seconds2, flop1 - flop2))


ONE = Quantity(1.0, NONE)

# The units a problem family may declare for its answer, with their base dimension.
# Values are always reported in these base units (bytes, seconds, FLOP, ...).
FAMILY_UNITS: dict[str, Dim] = {
    "byte": BYTE,
    "s": SECOND,
    "FLOP": FLOP,
    "FLOP/s": FLOP_RATE,
    "byte/s": BANDWIDTH,
    "FLOP/byte": INTENSITY,
    "token/s": PER_SECOND,
    "1": NONE,
    "GPU": NONE,
    "param": NONE,
}

# How an answer of some dimension is described: (what it is, what a question asks for).
_DIM_NAMES: dict[Dim, tuple[str, str]] = {
    NONE: ("a plain number", "a plain number (a ratio, a percentage or a count, e.g. 0.35, 35% or 12)"),
    BYTE: ("a size in bytes", "bytes"),
    SECOND: ("a time", "a time"),
    FLOP: ("an amount of compute (FLOP)", "an amount of compute (FLOP)"),
    PER_SECOND: ("a rate per second", "a rate per second"),
    FLOP_RATE: ("a compute rate (FLOP/s)", "a compute rate (FLOP/s)"),
    BANDWIDTH: ("a bandwidth (bytes/s)", "a bandwidth (bytes/s)"),
    INTENSITY: ("an arithmetic intensity (FLOP/byte)", "an arithmetic intensity (FLOP/byte)"),
    (0, -1, 0): ("a rate per second", "a rate per second"),
    (-1, 1, 0): ("seconds per byte", "seconds per byte"),
    (0, 1, -1): ("seconds per FLOP", "seconds per FLOP"),
}


def describe_dim(dim: Dim) -> str:
    """'a time', 'a size in bytes', ... for messages about what the user typed."""
    if dim in _DIM_NAMES:
        return _DIM_NAMES[dim][0]
    return "a quantity in " + dim_unit_text(dim)


def asked_dim(dim: Dim) -> str:
    """'bytes', 'a time', ... for messages about what the question asks for."""
    if dim in _DIM_NAMES:
        return _DIM_NAMES[dim][1]
    return dim_unit_text(dim)


def dim_unit_text(dim: Dim) -> str:
    num: list[str] = []
    den: list[str] = []
    for name, power in zip(("byte", "s", "FLOP"), dim, strict=True):
        if power:
            text = name if abs(power) == 1 else f"{name}^{abs(power)}"
            (num if power > 0 else den).append(text)
    top = "·".join(num) or "1"
    return top + ("/" + "·".join(den) if den else "")


def mismatch_message(got: Dim, want: Dim) -> str:
    """The message for an answer with the wrong dimension; one upside down (`8/(2+2) FLOP/byte`
    is 8 over (2+2) FLOP/byte) says how to give the whole expression its unit."""
    said = f"that is {describe_dim(got)}; the question asks for {asked_dim(want)}"
    if any(want) and tuple(-power for power in want) == got:
        said += f" (a unit belongs to the number or bracket just before it: write (…) {dim_unit_text(want)})"
    return said


# ---------------------------------------------------------------------------
# The table of atoms.

_DECIMAL = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21}
_BINARY = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}
_LONG_DECIMAL = {"kilo": 1e3, "mega": 1e6, "giga": 1e9, "tera": 1e12, "peta": 1e15, "exa": 1e18}
_LONG_BINARY = {"kibi": 2.0**10, "mebi": 2.0**20, "gibi": 2.0**30, "tebi": 2.0**40, "pebi": 2.0**50}


def _build_table() -> dict[str, tuple[Quantity, ...]]:
    table: dict[str, list[Quantity]] = {}

    def add(name: str, factor: float, dim: Dim) -> None:
        table.setdefault(name, [])
        q = Quantity(factor, dim)
        if q not in table[name]:
            table[name].append(q)

    # bytes and bits
    for name in ("B", "byte", "bytes", "Byte", "Bytes"):
        add(name, 1.0, BYTE)
    for name in ("b", "bit", "bits"):
        add(name, 1 / 8, BYTE)
    for prefix, f in {**_DECIMAL, **_BINARY}.items():
        add(prefix + "B", f, BYTE)
        add(prefix + "b", f / 8, BYTE)
        add(prefix + "bit", f / 8, BYTE)
        add(prefix + "bits", f / 8, BYTE)
        add(prefix + "Bps", f, BANDWIDTH)
        add(prefix + "bps", f / 8, BANDWIDTH)
    add("bps", 1 / 8, BANDWIDTH)
    add("Bps", 1.0, BANDWIDTH)
    for prefix, f in {**_LONG_DECIMAL, **_LONG_BINARY}.items():
        add(prefix + "byte", f, BYTE)
        add(prefix + "bytes", f, BYTE)
        add(prefix + "bit", f / 8, BYTE)
        add(prefix + "bits", f / 8, BYTE)

    # FLOP: "FLOP"/"FLOPs" are counts, "FLOPS" a rate; all-lowercase is ambiguous.
    for prefix, f in {"": 1.0, **_DECIMAL}.items():
        for name in ("FLOP", "FLOPs", "Flop", "Flops"):
            add(prefix + name, f, FLOP)
        add(prefix + "FLOPS", f, FLOP_RATE)
        add(prefix + "flop", f, FLOP)
        add(prefix + "flops", f, FLOP)
        add(prefix + "flops", f, FLOP_RATE)
        add(prefix + "OPS", f, FLOP_RATE)
        add(prefix + "ops", f, FLOP)
        add(prefix + "op", f, FLOP)
        add(prefix + "OP", f, FLOP)
        add(prefix + "OPs", f, FLOP)
    for prefix, f in _LONG_DECIMAL.items():
        add(prefix + "flop", f, FLOP)
        add(prefix + "flops", f, FLOP)

    # time
    for name in ("s", "sec", "secs", "second", "seconds"):
        add(name, 1.0, SECOND)
    for name in ("ms", "msec", "millisecond", "milliseconds"):
        add(name, 1e-3, SECOND)
    for name in ("µs", "μs", "us", "usec", "microsecond", "microseconds"):
        add(name, 1e-6, SECOND)
    for name in ("ns", "nsec", "nanosecond", "nanoseconds"):
        add(name, 1e-9, SECOND)
    for name in ("min", "mins", "minute", "minutes"):
        add(name, 60.0, SECOND)
    for name in ("h", "hr", "hrs", "hour", "hours"):
        add(name, 3600.0, SECOND)
    for name in ("d", "day", "days"):
        add(name, 86400.0, SECOND)
    for name in ("wk", "week", "weeks"):
        add(name, 7 * 86400.0, SECOND)
    for name in ("yr", "year", "years"):
        add(name, 365 * 86400.0, SECOND)

    # dimensionless: percent, ratios, counts and count multipliers
    for name in ("%", "percent"):
        add(name, 0.01, NONE)
    for name in ("x", "×", "times"):
        add(name, 1.0, NONE)
    for name in (
        "token",
        "tokens",
        "tok",
        "toks",
        "param",
        "params",
        "parameter",
        "parameters",
        "GPU",
        "GPUs",
        "gpu",
        "gpus",
        "user",
        "users",
        "request",
        "requests",
        "req",
        "reqs",
        "seq",
        "seqs",
        "sequence",
        "sequences",
        "step",
        "steps",
        "layer",
        "layers",
        "expert",
        "experts",
        "elem",
        "elems",
        "element",
        "elements",
        "weight",
        "weights",
    ):
        add(name, 1.0, NONE)
    for name, f in MULTIPLIERS.items():
        add(name, f, NONE)
    return {name: tuple(qs) for name, qs in table.items()}


# Bare multipliers: "4.2M", "2.4K", "1.2 billion" scale a number without giving it a
# dimension, so they also work where the question's own unit is implied.
MULTIPLIERS: dict[str, float] = {
    "k": 1e3,
    "K": 1e3,
    "thousand": 1e3,
    "M": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "B": 1e9,
    "T": 1e12,
    "trillion": 1e12,
}


def only_multipliers(text: str) -> bool:
    """Whether a unit is made only of bare multipliers ('M', 'K', 'billion', 'K M')."""
    atoms = text.split()
    return bool(atoms) and all(a in MULTIPLIERS for a in atoms)


def _build_folded() -> dict[str, tuple[Quantity, ...]]:
    """Case-insensitive fallbacks. Readings of names that differ only in case are merged
    when the question's dimension can still tell them apart ('tflops': count or rate);
    names like 'mb' (MB or Mb, both sizes) are left out as ambiguous."""
    groups: dict[str, list[Quantity]] = {}
    for name, readings in TABLE.items():
        merged = groups.setdefault(name.casefold(), [])
        merged.extend(q for q in readings if q not in merged)
    out = {}
    for key, qs in groups.items():
        dims = [q.dim for q in qs]
        if len(dims) == len(set(dims)):
            out[key] = tuple(qs)
    return out


TABLE: dict[str, tuple[Quantity, ...]] = _build_table()
_FOLDED = _build_folded()

MAX_UNIT_ATOMS = 6


def lookup(atom: str) -> tuple[Quantity, ...]:
    """The candidate meanings of one unit name, best first; UnitError if unknown."""
    if atom in TABLE:
        return TABLE[atom]
    if atom == "m":
        raise UnitError("unit 'm' is ambiguous: write min for minutes or ms for milliseconds")
    folded = _FOLDED.get(atom.casefold())
    if folded is not None:
        return folded
    if atom.casefold() in {"mb", "gb", "tb", "kb", "pb", "gib", "mib", "tib", "kib"}:
        raise UnitError(f"unit {atom!r} is ambiguous: write B for bytes and b for bits (e.g. GB or Gb)")
    raise UnitError(f"unknown unit {atom!r}")


def parse_unit(text: str) -> tuple[Quantity, ...]:
    """Every reading of a unit string such as 'GB/s', 'TFLOP per s' or 'M params', best first.

    Grammar: atoms separated by spaces (or · * ×) form a product; one '/' (or the
    word 'per') separates numerator from denominator; '1' may stand for an empty
    numerator ('1/s').
    """
    text = text.strip()
    if not text:
        return (ONE,)
    spaced = " " + text.replace("·", " ").replace("*", " ") + " "
    spaced = spaced.replace(" per ", " / ")
    parts = spaced.split("/")
    if len(parts) > 2:
        raise UnitError(f"unit {text!r} has more than one '/'")
    sides: list[list[tuple[Quantity, ...]]] = []
    n_atoms = 0
    for i, part in enumerate(parts):
        atoms = part.split()
        if not atoms and i == 1:
            raise UnitError(f"unit {text!r} has nothing after '/'")
        side: list[tuple[Quantity, ...]] = []
        for atom in atoms:
            n_atoms += 1
            if n_atoms > MAX_UNIT_ATOMS:
                raise UnitError("unit has too many parts")
            if atom == "1" and i == 0 and len(atoms) == 1:
                side.append((ONE,))
            else:
                side.append(lookup(atom))
        sides.append(side)
    num = sides[0]
    den = sides[1] if len(sides) > 1 else []
    readings: list[Quantity] = []
    for combo_num in itertools.product(*num) if num else [()]:
        for combo_den in itertools.product(*den) if den else [()]:
            q = ONE
            for a in combo_num:
                q = q * a
            for a in combo_den:
                q = q / a
            if q not in readings:
                readings.append(q)
    return tuple(readings)


def resolve(readings: tuple[Quantity, ...], want: Dim | None) -> Quantity:
    """The reading whose dimension is `want`, else the first (best guess)."""
    if want is not None:
        for q in readings:
            if q.dim == want:
                return q
    return readings[0]
