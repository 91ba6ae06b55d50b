"""`drill check` for problems/: every file loads, every formula parses with every symbol
bound, units are known, templates name real fields, sampling gives finite positive
answers, each family's hand-computed examples hold, a family that can be impossible (it draws
real models or hardware) declares constraints or says why none is needed, and its constraints
reject at most 90 % of draws.
"""

from __future__ import annotations

import math
import random

from drill.content.errors import ContentError
from drill.estimate import formula
from drill.estimate.draw import GenerationError, generate
from drill.estimate.feasible import MAX_REJECTED, rejected_share
from drill.estimate.params import ParamError, complete
from drill.estimate.schema import Family, ProblemDirs, load_dir
from drill.estimate.template import KINDS, TemplateError, fields
from drill.estimate.worked import worked_solution

SAMPLES = 40


def _check_template(
    family: Family, template: str, allowed: set[str], where: tuple[str | int, ...]
) -> list[ContentError]:
    errors = []
    try:
        used = fields(template)
    except TemplateError as exc:
        return [ContentError(family.path, family.line_of(*where), f"{'.'.join(map(str, where))}: {exc}")]
    for name, spec in used:
        if name not in allowed:
            errors.append(
                ContentError(
                    family.path, family.line_of(*where), f"{'.'.join(map(str, where))}: unknown field {{{name}}}"
                )
            )
        if spec.startswith(("of ", "noun ")) and spec.split(" ", 1)[1].strip():
            continue
        if spec in ("a", "A") or spec[:2] in ("a ", "A "):
            spec = spec[2:]
        if spec and spec not in KINDS:
            try:
                format(1.5, spec)
            except ValueError:
                errors.append(
                    ContentError(
                        family.path,
                        family.line_of(*where),
                        f"{'.'.join(map(str, where))}: bad format {{{name}:{spec}}}",
                    )
                )
    return errors


def check_family(family: Family) -> list[ContentError]:
    errors: list[ContentError] = []
    path = family.path
    try:
        formula.compile_family(family)
    except formula.FormulaError as exc:
        where = tuple(p for p in exc.where)
        return [ContentError(path, family.line_of(*where), f"{'.'.join(str(p) for p in where)}: {exc}")]

    names = set(family.params) | set(family.derived)
    for draw in family.draws:
        names |= family.draw_text_names(draw)
    errors += _check_template(family, family.prompt, names, ("prompt",))
    for step in family.steps:
        errors += _check_template(family, step.text, names | {"answer", "answer_value"}, ("steps",))
    for i, requirement in enumerate(family.require):
        errors += _check_template(family, requirement.reason, names, ("require", i, "reason"))
    for draw, spec in family.draws.items():
        for text in spec.unnamed.values():
            errors += _check_template(family, text, set(family.params), ("draws", draw, "unnamed"))
    for i, slip in enumerate(family.slips):
        errors += _check_template(family, slip.message, names, ("slips", i, "message"))
    if errors:
        return errors
    errors += _coverage_errors(family)
    rejecting = _share_errors(family)
    if rejecting:
        return errors + rejecting

    for seed in range(SAMPLES):
        try:
            problem = generate(family, random.Random(seed))
        except GenerationError as exc:
            errors.append(ContentError(path, family.line_of(exc.where), str(exc)))
            break
        except (TemplateError, ValueError, KeyError) as exc:
            errors.append(ContentError(path, family.line_of("prompt"), f"prompt: {exc}"))
            break
        if not (math.isfinite(problem.truth) and problem.truth > 0):
            errors.append(
                ContentError(path, family.line_of("answer"), f"answer: sample {problem.params} gives {problem.truth}")
            )
            break
        if seed == 0:
            try:
                worked_solution(family, problem.params, problem.truth, problem.truth)
            except (TemplateError, ValueError, KeyError) as exc:
                errors.append(ContentError(path, family.line_of("steps"), f"steps: {exc}"))

    for i, example in enumerate(family.examples):
        line = family.line_of("examples", i)
        try:
            params = complete(family, example.params)
        except ParamError as exc:
            errors.append(ContentError(path, line, f"examples[{i}]: {exc}"))
            continue
        got = formula.evaluate(family, params)
        if not (math.isfinite(got) and abs(got - example.answer) <= example.rel * abs(example.answer)):
            errors.append(
                ContentError(path, line, f"examples[{i}]: formula gives {got:.6g}, example says {example.answer:.6g}")
            )
            continue
        try:
            worked_solution(family, params, got)
        except (TemplateError, ValueError, KeyError) as exc:
            errors.append(ContentError(path, line, f"examples[{i}]: worked steps: {exc}"))
    return errors


def _coverage_errors(family: Family) -> list[ContentError]:
    """A family that can be impossible declares its limits or says why it has none."""
    if family.can_be_impossible and not family.physical_limits and not family.always_possible.strip():
        message = (
            "draws real models or hardware, so a draw can be impossible: declare [[require]] limits "
            "(e.g. seq_len <= context, the weights within the GPUs' memory; not draws_only) or say in "
            "always_possible why none is needed"
        )
        return [ContentError(family.path, family.line_of("draws", next(iter(family.draws))), message)]
    return []


def _share_errors(family: Family) -> list[ContentError]:
    """Constraints that reject most draws: the distributions should hold the possible values."""
    if not family.require:
        return []
    share = rejected_share(family)
    if share <= MAX_REJECTED:
        return []
    message = (
        f"require: the constraints reject {share:.0%} of draws (at most {MAX_REJECTED:.0%}); "
        "narrow the distributions to the possible values"
    )
    return [ContentError(family.path, family.line_of("require"), message)]


def check(problems_dirs: ProblemDirs) -> list[ContentError]:
    """Every problem in the folders (shipped, then the user's) found by `drill check` (empty when
    all is well)."""
    families, _, errors = load_dir(problems_dirs)
    for family in families:
        errors += check_family(family)
    return errors


__all__ = ["check", "check_family"]
