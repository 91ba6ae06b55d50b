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


def _prefixed(value: float, prefixes: list[tuple[float, str]], unit: str, base: str) -> str:
    for factor, prefix in prefixes:
        if abs(value) >= factor * 0.9995:
            return f"{sig(value / factor)} {prefix}{unit}"
    return f"{sig(value)} {base}"


def bytes_text(value: float) -> str:
    return _prefixed(value, [(f, p[:-1]) for f, p in _BYTE_PREFIXES], "B", "B")


def binary_bytes_text(value: float) -> str:
    return _prefixed(value, [(f, p[:-1]) for f, p in _BINARY_PREFIXES], "B", "B")


def seconds_text(value: float) -> str:
    v = abs(value)
    if v < 1e-6:
        return f"{sig(value * 1e9)} ns"
    if v < 1e-3:
        return f"{sig(value * 1e6)} µs"
    if v < 1:
        return f"{sig(value * 1e3)} ms"
    if v < 120:
        return f"{sig(value)} s"
    if v < 2 * 3600:
        return f"{sig(value / 60)} min"
    if v < 48 * 3600:
        return f"{sig(value / 3600)} h"
    if v < 2 * 365 * 86400:
        return f"{sig(value / 86400)} days"
    return f"{sig(value / (365 * 86400))} years"


def count_text(value: float) -> str:
    for factor, suffix in _COUNT_SUFFIXES:
        if abs(value) >= factor * 0.9995:
            return f"{sig(value / factor)}{suffix}"
    return sig(value)


def pretty(value: float, kind: str = "1") -> str:
    """Format `value` (base units) as `kind`; unknown kinds fall back to 3 significant figures."""
    if kind == "byte":
        return bytes_text(value)
    if kind == "GiB":
        return binary_bytes_text(value)
    if kind == "s":
        return seconds_text(value)
    if kind == "FLOP":
        if abs(value) >= 1e21:
            return f"{sig(value)} FLOP"
        return _prefixed(value, _FLOP_PREFIXES, "FLOP", "FLOP")
    if kind == "FLOP/s":
        return _prefixed(value, _FLOP_PREFIXES, "FLOP/s", "FLOP/s")
    if kind == "byte/s":
        return _prefixed(value, [(f, p[:-1]) for f, p in _BYTE_PREFIXES], "B/s", "B/s")
    if kind == "FLOP/byte":
        return f"{sig(value)} FLOP/byte"
    if kind == "token/s":
        return f"{sig(value)} tokens/s"
    if kind == "%":
        return f"{sig(value * 100)}%"
    if kind == "x":
        return f"{sig(value)}×"
    if kind == "GPU":
        n = sig(value)
        return f"{n} GPU" + ("" if n == "1" else "s")
    if kind == "param":
        return f"{count_text(value)} params"
    if kind == "count":
        return count_text(value)
    if kind == "sci":
        return sig(value)
    return sig(value)


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
