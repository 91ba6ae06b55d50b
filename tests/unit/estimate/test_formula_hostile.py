"""Hostile problem formulas are refused quickly and nothing in them ever runs.

Problem files are shared between users, so a formula is untrusted text. Each formula below is
compiled (and evaluated once) in a forked child with a deadline and a memory cap, so one that
would hang or blow up fails its test instead of stalling the suite; `drill check` runs the same
way on a DRILL_HOME full of them. A marker file the smuggled commands would create must not exist.

A formula is either refused (FormulaError, with the message given here) or, where the blow-up
needs the parameters (NOT_AN_ANSWER), compiled into float arithmetic that overflows or underflows
at once: `drill check` then reports that the answer is not a finite positive number.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, reads /proc and caps memory")

MARKER = Path(tempfile.gettempdir()) / "drill-formula-hostile-marker"  # the smuggled shell commands' touch
PARSE_EXPR_MARKER = Path(tempfile.gettempdir()) / "drill-formula-hostile-parse-expr"  # sympify's way into eval
RUN = f"""exec('import os; os.system(\\"touch {MARKER}\\")')"""  # inside a "..." formula string
ESCAPED = r"""ceiling('\x5f\x5fimport\x5f\x5f("os").system("touch """ + str(MARKER) + r"""") or 1')"""
SECONDS = 5.0  # per formula: generous for a shared machine, far below a hang
NOT_AN_ANSWER = "not an answer"  # compiles into float arithmetic that quickly gives no finite positive number
EXP_TOWER = "exp(exp(exp(exp(5))))"  # sympy's evalf of this never ends, even printing it
WORKED_OUT = "from numbers alone"

# (id, where the formula goes, formula, what the refusal says)
HOSTILE = [
    # A string reaches sympify (a shell command runs on the old parse_expr code); the first parses valid.
    ("sympify-ceiling", "answer", f'x * ceiling("{RUN} or 1")', "only numbers"),
    ("sympify-min", "answer", f'x + Min(x, "{RUN}")', "only numbers"),
    ("sympify-log", "answer", f'log(x, "{RUN}")', "only numbers"),
    ("sympify-shard", "answer", f'x * shard(x, 1, "{RUN}")', "only numbers"),
    ("sympify-exp", "answer", f'Symbol("x") * exp("{RUN}")', "unknown function"),
    ("sympify-function", "answer", f'Function("f")("{RUN}")', "calls"),
    ("sympify-subs", "answer", f'x.subs(x, "{RUN}")', "attribute access"),
    ("sympify-diff", "answer", f'x.diff("{RUN}")', "attribute access"),
    ("sympify-escaped-dunder", "answer", ESCAPED, "only numbers"),
    ("sympify-require", "require", f'x < ceiling("{RUN} or 3")', "only numbers"),
    ("sympify-derived", "derived", f'x * floor("{RUN} or 1")', "only numbers"),
    ("sympify-slip", "slip", f'max(1, "{RUN}")', "only numbers"),
    ("symbol-string", "answer", 'Symbol("os.system")', "unknown function"),
    ("integer-string", "answer", 'Integer("1" * 9)', "unknown function"),
    ("float-string", "answer", 'Float("1e999999999")', "unknown function"),
    ("rational-string", "answer", 'Rational("1/3")', "unknown function"),
    ("builtin-import", "answer", "__import__('os').system('true')", "attribute access"),
    ("builtin-eval", "answer", "eval('1')", "unknown function"),
    ("builtin-open", "answer", "open('/etc/passwd')", "unknown function"),
    ("sympify-name", "answer", "sympify('1')", "unknown function"),
    # Attribute chains, indexing and other Python.
    ("dunder-class", "answer", "x.__class__", "attribute access"),
    ("dunder-bases", "answer", "().__class__.__bases__[0].__subclasses__()", "attribute access"),
    ("evalf", "answer", "pi.evalf(subs={pi: 1})", "attribute access"),
    ("subscript", "answer", "(x, y)[0]", "indexing"),
    ("lambda", "answer", "(lambda: 1)()", "lambda"),
    ("lambda-bare", "answer", "lambda x: x", "lambda"),
    ("list-comprehension", "answer", "[x for x in (1,)]", "comprehension"),
    ("generator", "answer", "max(x for x in (1, 2))", "comprehension"),
    ("walrus", "answer", "(z := x) * z", "walrus"),
    ("f-string", "answer", "f'{x}'", "f-string"),
    ("string", "answer", "'x'", "only numbers"),
    ("bytes", "answer", "b'x'", "only numbers"),
    ("complex", "answer", "2j * x", "only numbers"),
    ("bool", "answer", "True * x", "only numbers"),
    ("if-else", "answer", "x if y else 1", "if/else"),
    ("floor-division", "answer", "x // 2", "FloorDiv"),
    ("keyword-argument", "answer", "log(x, base=2)", "keyword"),
    ("starred", "answer", "max(*x)", "keyword or *"),
    ("parameter-called", "answer", "x(1)", "unknown function"),
    ("chained-comparison", "require", "x < y < 2", "one comparison"),
    ("equality", "require", "x == 2", "one comparison"),
    ("statement", "answer", "import os", "cannot parse"),
    ("two-statements", "answer", "x; y", "cannot parse"),
    # Unicode look-alikes: Python's parser would fold these to x, e, fi by NFKC.
    ("fullwidth", "answer", "ｘ * 2", "printable ASCII"),
    ("math-bold", "answer", "𝐱 * 2", "printable ASCII"),
    ("script-e", "answer", "ℯ * x", "printable ASCII"),
    ("ligature", "answer", "x * ﬁ", "printable ASCII"),
    ("nul", "answer", "x\x00", "printable ASCII"),
    # Towers, huge numbers, deep nesting, length.
    ("tower-2-2-2-30", "answer", "2**2**2**30", "no towers"),
    ("tower-symbols", "answer", "x**x**x", "no towers"),
    ("tower-parenthesised", "answer", "x * 2**(2**30)", "no towers"),
    ("constant-exponent", "answer", "x * 9**10000000", WORKED_OUT),
    ("nested-bases", "answer", "x * (((2**99)**99)**99)**99", WORKED_OUT),
    ("constant-product", "answer", "1e30 * 1e30 * 1e30 * 1e30 * x", WORKED_OUT),
    ("floor-of-exp-tower", "answer", f"x * floor({EXP_TOWER})", WORKED_OUT),
    ("min-of-exp-tower", "answer", f"Min(x, {EXP_TOWER} - 1)", WORKED_OUT),
    ("log-of-exp-tower", "answer", f"log({EXP_TOWER} - x)", WORKED_OUT),
    ("compare-exp-tower", "require", f"x < {EXP_TOWER}", WORKED_OUT),
    ("derived-exp-tower", "derived", EXP_TOWER, WORKED_OUT),
    ("derived-value-carried", "derived-exp", "x * exp(exp(d))", WORKED_OUT),
    ("negative-root", "answer", "x * (-8)**(1/3)", WORKED_OUT),
    ("constant-division-by-zero", "answer", "x * (1 / (2 - 2))", WORKED_OUT),
    ("derived-tower", "derived-chain", "", "exact number beyond"),
    ("exact-coefficient-power", "answer", "(x * 10**30 * 10**30 * 10**30 * 10**30) ** 2", "exact number beyond"),
    ("cancelled-parameters", "answer", "(x - x) * 10 ** 99", "cancel out"),
    ("min-of-complex-power", "answer", "Min(y, ((log2(x*0 - 2)) ** 99) ** 99)", "cancel out"),
    ("cancelled-exp-tower", "derived", "exp(exp(exp(exp(5 + x - x))))", "cancel out"),
    ("tiny-power", "answer", "x * (1e-30)**99 * (1e-30)**99", NOT_AN_ANSWER),
    ("derived-doubling", "derived-doubling", "", "terms"),
    ("too-many-formulas", "many-derived", "", "at most"),
    ("huge-integer", "answer", "x * 1" + "0" * 1000, "beyond"),
    ("huge-integer-5000", "answer", "x * 1" + "0" * 5000, "longer than"),
    ("product-of-large", "answer", "x" + " * 1e30" * 12, "beyond"),
    ("float-infinity", "answer", "x * 1e999", "beyond"),
    ("division-by-zero", "answer", "x / (y - y)", "infinite or undefined"),
    ("parentheses-1000", "answer", "(" * 999 + "x" + ")" * 999, "cannot parse"),
    ("calls-60-deep", "answer", "ceil(" * 60 + "x" + ")" * 60, "nested more than"),
    ("minus-60", "answer", "-" * 60 + "x", "nested more than"),
    ("minus-1500", "answer", "-" * 1500 + "x", "parts"),
    ("long-sum", "answer", "x+" * 999 + "x", "parts"),
    ("very-long", "answer", "x" + " " * 10_000_000, "longer than"),
]

FAMILY = {
    "id": "hostile",
    "block": "memory",
    "topic": "Hostile",
    "prompt": "{x} and {y}?",
    "params": {"x": {"choice": [2, 3]}, "y": {"choice": [5, 7]}},
    "answer": "x * y",
    "unit": "byte",
}
SAMPLE = {"x": 2, "y": 5}


def family_data(where: str, text: str) -> dict:
    """A small valid family with the hostile formula put `where` (or a hostile shape)."""
    data = json.loads(json.dumps(FAMILY))
    if where == "answer":
        data["answer"] = text
    elif where == "require":
        data["require"] = [text]
    elif where == "derived":
        data["derived"] = {"d": text}
        data["answer"] = "d * y"
    elif where == "slip":
        data["slips"] = [{"factor": text, "message": "slip"}]
    elif where == "derived-exp":  # a derived number that is fine alone; raised further where it is used
        data["derived"] = {"d": "exp(200)"}
        data["answer"] = text
    elif where == "derived-chain":  # each derived value raises the one before: (1e30 x) ** 99 ** 99 ...
        data["derived"] = {"d0": "10**30 * x", **{f"d{i}": f"d{i - 1}**99" for i in range(1, 6)}}
        data["answer"] = "d5"
    elif where == "derived-doubling":  # each derived value holds the one before twice
        data["derived"] = {"d0": "x", **{f"d{i}": f"d{i - 1} * y + d{i - 1}" for i in range(1, 40)}}
        data["answer"] = "d39"
    elif where == "many-derived":
        data["derived"] = {f"d{i}": "x" for i in range(200)}
    return data


def child_compile(rows: list[tuple[str, str, str]]) -> None:
    """In a child: compile each family in a forked grandchild (deadline, memory cap); print JSON."""
    from sympy.parsing import sympy_parser

    from drill.estimate import formula
    from drill.estimate.schema import Family

    parse_expr = sympy_parser.parse_expr

    def watched(*args: object, **kwargs: object) -> object:
        PARSE_EXPR_MARKER.touch()
        return parse_expr(*args, **kwargs)

    sympy_parser.parse_expr = watched  # sympify reaches Python's eval only through here
    formula.compile_family(Family.model_validate(FAMILY))  # pay the imports once, before forking
    for name, where, text in rows:
        read, write = os.pipe()
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            _cap_memory(_vm() + (2 << 30))
            family = Family.model_validate(family_data(where, text))
            try:
                formula.compile_family(family)
                value = formula.evaluate(family, SAMPLE)
                out = {"outcome": "compiled", "message": repr(value), "answer": math.isfinite(value) and value > 0}
            except formula.FormulaError as exc:
                out = {"outcome": "refused", "message": str(exc)}
            except BaseException as exc:  # noqa: BLE001 - reported, and fails the test
                out = {"outcome": "crashed", "message": f"{type(exc).__name__}: {exc}"[:500]}
            os.write(write, json.dumps(out).encode())
            os._exit(0)
        os.close(write)
        while time.perf_counter() - start < SECONDS and os.waitpid(pid, os.WNOHANG) == (0, 0):
            time.sleep(0.005)
        seconds = time.perf_counter() - start
        finished = seconds < SECONDS
        if not finished:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        with os.fdopen(read) as pipe:
            got = pipe.read()
        result = json.loads(got) if got else {"outcome": "hung", "message": f"no answer in {seconds:.1f} s"}
        ran = {"ran": MARKER.exists(), "parse_expr": PARSE_EXPR_MARKER.exists()}
        MARKER.unlink(missing_ok=True)
        PARSE_EXPR_MARKER.unlink(missing_ok=True)
        print(json.dumps({"name": name, "seconds": seconds, "finished": finished, **ran, **result}), flush=True)


def _cap_memory(limit: int) -> None:
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def _vm() -> int:
    """This process's virtual memory size in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict]:
    MARKER.unlink(missing_ok=True)
    PARSE_EXPR_MARKER.unlink(missing_ok=True)
    rows = [(name, where, text) for name, where, text, _ in HOSTILE]
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('hostile', {str(Path(__file__))!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "module.child_compile(json.load(sys.stdin))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            input=json.dumps(rows),
            capture_output=True,
            text=True,
            timeout=300,
        )
        out = done.stdout
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
    found = {}
    for line in out.splitlines():
        row = json.loads(line)
        found[row["name"]] = row
    return found


@pytest.mark.slow
@pytest.mark.parametrize("name, where, text, message", HOSTILE, ids=[row[0] for row in HOSTILE])
def test_hostile_formula_refused_quickly(verdicts, name, where, text, message):
    verdict = verdicts.get(name, {"outcome": "missing", "message": "no verdict: the child stopped before it"})
    assert not verdict.get("ran") and not verdict.get("parse_expr"), "the formula's code ran"
    if message == NOT_AN_ANSWER:
        assert verdict["outcome"] == "compiled" and not verdict["answer"], verdict["message"]
    else:
        assert verdict["outcome"] == "refused", verdict["message"]
        assert message in verdict["message"], verdict["message"]
    assert verdict["finished"] and verdict["seconds"] < SECONDS


@pytest.mark.slow
def test_the_corpus_timings_are_reported(verdicts):
    slowest = max(verdicts.values(), key=lambda row: row["seconds"])
    print(
        f"\n{len(verdicts)} hostile formulas; slowest {slowest['name']} {slowest['seconds']:.3f} s; "
        f"all {sum(row['seconds'] for row in verdicts.values()):.2f} s"
    )
    assert len(verdicts) == len(HOSTILE)


GOOD_LINES = """id = "{id}"
block = "memory"
topic = "Hostile"
prompt = "{{x}} and {{y}}?"
unit = "byte"
answer = {answer}
require = {require}

[params.x]
choice = [2, 3]

[params.y]
choice = [5, 7]

[derived]
d = {derived}
"""
LINE = {"answer": 6, "require": 7, "derived": 16}


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


@pytest.mark.slow
def test_drill_check_names_each_file_and_line_and_runs_nothing(tmp_path):
    """`drill check` on a DRILL_HOME of hostile problem files: exit 1, each file:line named, quickly."""
    MARKER.unlink(missing_ok=True)
    home = tmp_path / "home"
    (home / "problems").mkdir(parents=True)
    expected = {}
    for name, where, text, message in HOSTILE:
        if where not in LINE or len(text) > 10_000:
            continue
        fields = {"answer": '"x * y"', "require": "[]", "derived": '"x"'}
        fields[where] = toml_string(text) if where != "require" else f"[{toml_string(text)}]"
        path = home / "problems" / f"hostile-{name}.toml"
        path.write_text(GOOD_LINES.format(id=f"hostile-{name}", **fields), encoding="utf-8")
        expected[path] = LINE["answer" if message == NOT_AN_ANSWER else where]

    env = {**os.environ, "DRILL_HOME": str(home)}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "drill", "check"],
            check=False,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=lambda: _cap_memory(4 << 30),
        )
    except subprocess.TimeoutExpired:
        pytest.fail("drill check did not finish in 120 s")
    seconds = time.perf_counter() - start
    print(f"\ndrill check on {len(expected)} hostile files: {seconds:.2f} s")
    assert not MARKER.exists()
    assert done.returncode == 1, done.stderr[-2000:]
    for path, line in expected.items():
        assert f"{path}:{line}: " in done.stdout, (path, done.stdout[-3000:])
    assert seconds < 60
