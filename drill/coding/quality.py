"""SM-2 quality (0..5) of one coding attempt.

    5  passed within the time budget, no hints
    4  passed, no hints, but over the budget
    3  passed with hints (any time)
    2  failed: the tests ran and some failed
    1  error or timeout: the code did not run to a verdict (crash, syntax error, endless loop)
Qualities 3..5 count as a successful SM-2 review, 1..2 as a lapse. `seconds` is the time the
user spent on the attempt (start to the passing run), not how long the tests took.
"""

from __future__ import annotations


def quality(status: str, seconds: float, budget_s: float, hints_used: int) -> int:
    if status == "pass":
        if hints_used > 0:
            return 3
        return 5 if seconds <= budget_s else 4
    if status == "fail":
        return 2
    return 1
