"""Random formulas from the whitelist's own grammar, laced with hostile numbers, compiled and
evaluated: how long the slowest takes against the shipped families, and that none crashes.
Prints JSON.

    python benchmarks/bench_formula_fuzz.py [--count N] [--seed S]

  compiled, refused     how many compiled, how many were refused with a FormulaError
  crashed               any other exception (must be 0), with the first formulas that raised it
  slowest_ms, median_ms compile + one evaluation of each random family
  shipped_median_ms     the same for the shipped families (the baseline), and the ratio
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drill.estimate import formula
from drill.estimate.schema import FUNCTION_NAMES, Family, load_dir

ROOT = Path(__file__).resolve().parents[1]

ARITY = {"Min": 4, "Max": 4, "min": 4, "max": 4, "log": 2, "shard": 3}
LEAVES = (
    "0",
    "1",
    "2",
    "-1",
    "0.5",
    "99",
    "100",
    "3.7",
    "1e15",
    "1e30",
    "1e-30",
    "1e-300",
    "pi",
    "exp(230)",
    "x",
    "y",
    "d",
)
SAMPLE = {"x": 2.0, "y": 5.0}


def formula_text(rng: random.Random, depth: int, names: tuple[str, ...] = LEAVES) -> str:
    """A random formula the grammar allows: numbers, names, + - * / **, unary -, calls."""
    roll = rng.random()
    if depth <= 0 or roll < 0.25:
        return rng.choice(names)
    if roll < 0.6:
        op = rng.choice(["+", "-", "*", "/", "**"])
        return f"({formula_text(rng, depth - 1, names)} {op} {formula_text(rng, depth - 1, names)})"
    if roll < 0.65:
        return f"-{formula_text(rng, depth - 1, names)}"
    name = rng.choice(sorted(FUNCTION_NAMES - {"pi"}))
    count = 3 if name == "shard" else rng.randint(1, ARITY.get(name, 1))
    return f"{name}({', '.join(formula_text(rng, depth - 1, names) for _ in range(count))})"


def family(rng: random.Random) -> Family:
    no_d = tuple(n for n in LEAVES if n != "d")
    return Family.model_validate(
        {
            "id": "fuzz",
            "block": "memory",
            "topic": "fuzz",
            "prompt": "{x}",
            "unit": "byte",
            "params": {"x": {"choice": [2]}, "y": {"choice": [5]}},
            "derived": {"d": formula_text(rng, 3, no_d)},
            "answer": formula_text(rng, rng.randint(1, 9)),
            "require": [f"x < {formula_text(rng, 3)}"],
        }
    )


def _timed(fam: Family, params: dict) -> float:
    start = time.perf_counter()
    formula.compile_family(fam)
    formula.evaluate(fam, params)
    formula.requirements_met(fam, params)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    shipped = []
    for fam in load_dir(ROOT / "problems")[0]:
        shipped.append(_timed(fam, dict.fromkeys(fam.params, 1.0)))
    times, refused, crashed = [], 0, []
    for _ in range(args.count):
        fam = family(rng)
        start = time.perf_counter()
        try:
            _timed(fam, SAMPLE)
        except formula.FormulaError:
            refused += 1
        except Exception as exc:  # noqa: BLE001 - counted: the point of the run
            crashed.append(f"{type(exc).__name__}: {fam.answer} | {fam.derived} | {fam.require}"[:300])
        times.append((time.perf_counter() - start) * 1000)
    shipped_median = statistics.median(shipped)
    print(
        json.dumps(
            {
                "count": args.count,
                "compiled": args.count - refused - len(crashed),
                "refused": refused,
                "crashed": len(crashed),
                "first_crashes": crashed[:3],
                "median_ms": round(statistics.median(times), 2),
                "slowest_ms": round(max(times), 2),
                "shipped_median_ms": round(shipped_median, 2),
                "slowest_vs_shipped": round(max(times) / shipped_median, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
