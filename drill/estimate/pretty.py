"""Human strings for quantities: `2.68 GB`, `61 days`, `312 TFLOP/s`, `8.6%`, `2.77×`.

`pretty(value, kind)` formats a value given in base units. Kinds are the family units
(byte, s, FLOP, FLOP/s, byte/s, FLOP/byte, token/s, 1, GPU, param) plus presentation
kinds used in templates: `%`, `x` (a ratio), `count` (70B, 4.2M), `sci` (1.2e9),
`GiB` (binary bytes).
"""

from __future__ import annotations

import math

_BYTE_PREFIXES = [(1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB")]
_BINARY_PREFIXES = [(2.0**50, "PiB"), (2.0**40, "TiB"), (2.0**30, "GiB"), (2.0**20, "MiB"), (2.0**10, "KiB")]
_FLOP_PREFIXES = [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")]
_COUNT_SUFFIXES = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]


def sig(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant figures, without exponent between 1e-3 and 1e6."""
    if value == 0 or not math.isfinite(value):
        return str(value) if value else "0"
    magnitude = abs(value)
    if magnitude >= 1e6 or magnitude < 1e-3:
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        return f"{mantissa}e{int(exponent)}"
    decimals = digits - 1 - math.floor(math.log10(magnitude))
    rounded = round(value, decimals)
    text = f"{rounded:.{max(decimals, 0)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def given_digits(value: float) -> int:
    """The fewest significant figures, 3 to 6, that give `value` back: a figure a problem gives
    (1.555 TB/s, 989.4 TFLOP/s) is shown as the answer uses it, not rounded to 3."""
    for digits in range(3, 6):
        if math.isclose(float(f"{value:.{digits - 1}e}"), value, rel_tol=1e-9):
            return digits
    return 6


def _prefixed(value: float, prefixes: list[tuple[float, str]], unit: str, base: str, digits: int = 3) -> str:
    for factor, prefix in prefixes:
        if abs(value) >= factor * 0.9995:
            return f"{sig(value / factor, digits)} {prefix}{unit}"
    return f"{sig(value, digits)} {base}"


def bytes_text(value: float, digits: int = 3) -> str:
    return _prefixed(value, [(f, p[:-1]) for f, p in _BYTE_PREFIXES], "B", "B", digits)


def binary_bytes_text(value: float, digits: int = 3) -> str:
    return _prefixed(value, [(f, p[:-1]) for f, p in _BINARY_PREFIXES], "B", "B", digits)


def seconds_text(value: float, digits: int = 3) -> str:
    v = abs(value)
    if v < 1e-6:
        return f"{sig(value * 1e9, digits)} ns"
    if v < 1e-3:
        return f"{sig(value * 1e6, digits)} µs"
    if v < 1:
        return f"{sig(value * 1e3, digits)} ms"
    if v < 120:
        return f"{sig(value, digits)} s"
    if v < 2 * 3600:
        return f"{sig(value / 60, digits)} min"
    if v < 48 * 3600:
        return f"{sig(value / 3600, digits)} h"
    if v < 2 * 365 * 86400:
        return f"{sig(value / 86400, digits)} days"
    return f"{sig(value / (365 * 86400), digits)} years"


def count_text(value: float, digits: int = 3) -> str:
    for factor, suffix in _COUNT_SUFFIXES:
        if abs(value) >= factor * 0.9995:
            return f"{sig(value / factor, digits)}{suffix}"
    return sig(value, digits)


def pretty(value: float, kind: str = "1", digits: int = 3) -> str:
    """Format `value` (base units) as `kind` to `digits` significant figures (unknown kinds: the
    plain number)."""
    if kind == "byte":
        return bytes_text(value, digits)
    if kind == "GiB":
        return binary_bytes_text(value, digits)
    if kind == "s":
        return seconds_text(value, digits)
    if kind == "FLOP":
        if abs(value) >= 1e21:
            return f"{sig(value, digits)} FLOP"
        return _prefixed(value, _FLOP_PREFIXES, "FLOP", "FLOP", digits)
    if kind == "FLOP/s":
        return _prefixed(value, _FLOP_PREFIXES, "FLOP/s", "FLOP/s", digits)
    if kind == "byte/s":
        return _prefixed(value, [(f, p[:-1]) for f, p in _BYTE_PREFIXES], "B/s", "B/s", digits)
    if kind == "FLOP/byte":
        return f"{sig(value, digits)} FLOP/byte"
    if kind == "token/s":
        return f"{sig(value, digits)} tokens/s"
    if kind == "%":
        return f"{sig(value * 100, digits)}%"
    if kind == "x":
        return f"{sig(value, digits)}×"
    if kind == "GPU":
        n = sig(value, digits)
        return f"{n} GPU" + ("" if n == "1" else "s")
    if kind == "param":
        return f"{count_text(value, digits)} params"
    if kind == "count":
        return count_text(value, digits)
    return sig(value, digits)


def plain(value: object) -> str:
    """Default rendering of a parameter in a template: integers as is, floats to 3-4 figures."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e6:
            return str(int(value))
        return sig(value, 4) if abs(value) < 1e6 else sig(value, 3)
    return str(value)
