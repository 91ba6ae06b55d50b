"""Estimation problems: fresh numbers, a safe answer parser with units, scoring, worked solutions.

Import each entry point from the module that defines it:

    schema.families(problems_dirs) -> [Family]      valid families, cached until files change (no sympy)
    schema.family(problems_dirs, id) -> Family      one family; KeyError if unknown
    schema.load_dir(problems_dirs)                  (families, catalogs, errors) as read
    validate.check(problems_dirs) -> [ContentError] what `drill check` reports for problems/
    params.parse_assignments(["k=v", ...])          CLI key=value pairs (values stay strings)
    draw.generate(family, rng) -> Problem           params, prompt text, truth (rng: random.Random)
    score.solve(family, params)                     {"value", "unit", "pretty"}
    score.grade(family, params, answer) -> GradeResult   the verdict, score, worked solution (result.py)
    result.quality_from_score(score) -> int         SM-2 quality 0..5
    parser.parse_answer(text) -> Parsed             the safe parser (AnswerError on bad input)
    answer_check.check_answer(problem, text)        None if the answer can be graded, else what to fix
    formula.warm_up(family)                         pay for sympy and compiling now, in a worker

`problems_dirs` is one folder or a list of them (Paths.problem_dirs(): the shipped problems,
then DRILL_HOME/problems); catalogs are shared across them and a family id is used once.
`params` may hold numbers or strings (`"8192"`, `"50GB/s"`, `model="llama-3-70b"`); bad params
raise params.ParamError (a ValueError) with a message for the user. `grade` never raises for
any answer text: a malformed or hostile answer yields `error`. `check_answer` is the gate before
`grade` where a person types: an empty box, an unreadable or wrong-dimension answer and a bare
number where the question has a unit ("2.7" for bytes) each get a message instead of a grade.

Import cost: the parser, units and answer check are stdlib only; pydantic loads with the
modules that read problems/, sympy (about 0.5 s) only when a formula is first evaluated.
Textual is never imported.
"""
