"""Speed of the estimation core, printed as JSON.

    python benchmarks/bench_estimate.py [--repeat N]

Measures, after warm-up (sympy imported, formulas compiled):
  grade_median_ms      median time to grade one answer (mix of right, wrong, wrong-unit
                       and malformed answers over every family)       target ≤ 2 ms
  generate_median_ms   median time to generate one problem            target ≤ 2 ms
                       (a family's constraints redraw what they reject: rejected_share per family,
                       from 400 raw draws, at most 0.9 or `drill check` fails it)
and, in fresh subprocesses (median of 5):
  import_ms            `import drill.estimate.answer_check`: the parser and units (stdlib only)
  families_ms          import + load every family (pydantic, no sympy)
  first_grade_ms       import + load + first grade (pays for sympy and compiling)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drill.estimate.draw import generate  # noqa: E402
from drill.estimate.feasible import rejected_share  # noqa: E402
from drill.estimate.formula import warm_up  # noqa: E402
from drill.estimate.schema import families  # noqa: E402
from drill.estimate.score import grade  # noqa: E402

PROBLEMS = ROOT / "problems"


def _subprocess_ms(code: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                "import time; t = time.perf_counter()\n" + code + "\nprint((time.perf_counter() - t) * 1000)",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return round(statistics.median(times), 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20, help="timed rounds per (family, answer)")
    args = parser.parse_args()

    fams = families(PROBLEMS)
    rng = random.Random(0)
    cases = []
    for fam in fams:
        warm_up(fam)
        problem = generate(fam, rng)
        for answer in (problem.pretty, f"{problem.truth * 2.1:.3g}", "3 days", "2*(3+4)**2 GB", "__import__('os')"):
            cases.append((fam, problem.params, answer))

    for fam, params, answer in cases:  # warm-up
        grade(fam, params, answer)
    grade_times = []
    for _ in range(args.repeat):
        for fam, params, answer in cases:
            t = time.perf_counter()
            grade(fam, params, answer)
            grade_times.append(time.perf_counter() - t)

    gen_times = []
    for _ in range(args.repeat):
        for fam in fams:
            t = time.perf_counter()
            generate(fam, rng)
            gen_times.append(time.perf_counter() - t)

    def ms(values: list[float], q: float | None = None) -> float:
        if q is None:
            return round(statistics.median(values) * 1000, 4)
        return round(sorted(values)[int(q * (len(values) - 1))] * 1000, 4)

    result = {
        "families": len(fams),
        "grade_calls": len(grade_times),
        "grade_median_ms": ms(grade_times),
        "grade_p95_ms": ms(grade_times, 0.95),
        "generate_calls": len(gen_times),
        "generate_median_ms": ms(gen_times),
        "generate_p95_ms": ms(gen_times, 0.95),
        "rejected_share": {fam.id: round(rejected_share(fam), 3) for fam in fams if fam.require},
        "import_ms": _subprocess_ms("import drill.estimate.answer_check"),
        "families_ms": _subprocess_ms(f"from drill.estimate.schema import families; families({str(PROBLEMS)!r})"),
        "first_grade_ms": _subprocess_ms(
            "from drill.estimate.schema import family; from drill.estimate.score import grade; "
            f"f = family({str(PROBLEMS)!r}, 'kv-cache'); "
            "grade(f, {'model': 'llama-3-70b', 'seq_len': 8192, 'batch': 1, 'bytes_per_elem': 2}, '2.7 GB')"
        ),
        "targets_ms": {"grade_median": 2.0, "generate_median": 2.0},
        "python": sys.version.split()[0],
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
