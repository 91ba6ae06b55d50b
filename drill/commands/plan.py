"""`drill plan`: set or clear the interview date, and show the plan to it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from drill.words import counted

if TYPE_CHECKING:
    from drill.home import HomeSummary
    from drill.interview.pace import Reach
    from drill.schedule.plan import DayLoad, Plan


def day_argument(value: str) -> date:
    """A YYYY-MM-DD argument (argparse's type), or the error saying what a date looks like."""
    from drill.days import as_day

    try:
        return as_day(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    plan = commands.add_parser("plan", help="set the interview date and show the plan to it")
    which = plan.add_mutually_exclusive_group()
    which.add_argument("--interview", type=day_argument, metavar="YYYY-MM-DD", help="set the interview date")
    which.add_argument("--clear", action="store_true", help="remove the interview date")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    plan.set_defaults(handler=cmd_plan)


def cmd_plan(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.config import Config, set_interview_date
    from drill.days import study_day, utc_now
    from drill.paths import Paths
    from drill.store.forecast import plan_reach
    from drill.study import Study

    paths = Paths.resolve()
    paths.ensure()
    if args.clear:
        set_interview_date(paths, None)
        print("interview date cleared; normal scheduling", file=sys.stderr)
    elif args.interview is not None:
        today = study_day(utc_now(), Config.load(paths.config).rollover_hour)
        if args.interview <= today:
            print(f"drill: the interview date must be after today ({today.isoformat()})", file=sys.stderr)
            return 2
        set_interview_date(paths, args.interview)
        print(f"interview date set to {args.interview.isoformat()}", file=sys.stderr)
    study = Study.open(paths)
    try:
        home = study.browsing.home()
        plan = home.plan
        reach = (
            plan_reach(study.engine, study.config, study.today, study.fsrs_settings, plan.new_per_day) if plan else None
        )
        warning = over_pace(plan, study.config.new_per_day) if plan else None
    finally:
        study.close()
    if args.json:
        print_json(_json(home, reach) | {"warning": warning})
    else:
        print(_text(home, reach, warning))
    return 0


def over_pace(plan: Plan, new_per_day: int) -> str | None:
    """What to say when the plan needs more new items a day than config.toml's new_per_day (the
    daily study the user set aside); None when it does not."""
    if plan.new_per_day_needed <= new_per_day:
        return None
    return (
        f"Warning: the plan needs {plan.new_per_day_needed} new items a day, more than new_per_day = "
        f"{new_per_day} in config.toml sets aside for them; set a later interview date or a larger new_per_day"
    )


def _json(home: HomeSummary, reach: Reach | None) -> dict[str, object]:
    readiness = None if reach is None else reach.model_dump(mode="json")
    if home.plan is not None:
        return home.plan.model_dump(mode="json") | {"readiness": readiness}
    return {
        "today": home.today.isoformat(),
        "interview_date": home.interview_date.isoformat() if home.interview_date else None,
        "active": False,
        "days_left": home.days_left,
        "brought_forward": 0,
        "new_per_day_needed": None,
        "daily_load": [],
        "readiness": readiness,
    }


def _text(home: HomeSummary, reach: Reach | None, warning: str | None = None) -> str:
    if home.interview_date is None:
        return "No interview date set. Set one with: drill plan --interview YYYY-MM-DD"
    plan = home.plan
    if plan is None:
        return f"Interview {home.interview_date.isoformat()} has come: normal scheduling."
    lines = [
        f"Interview {plan.interview.isoformat()}: {counted(plan.days_left, 'day')} left",
        f"Brought forward: {counted(plan.brought_forward, 'item')} due after the interview, "
        f"spread over {plan.window_start:%a %d %b} … {plan.days[-1].day:%a %d %b}",
        f"New items: {plan.unseen} unseen → {plan.new_per_day_needed}/day needed, pace {plan.new_per_day}/day"
        + ("" if plan.finishes_new else " (cannot finish within the daily maximum)"),
    ]
    if warning is not None:
        lines.append(warning)
    if plan.days_over_maximum:
        lines.append(
            f"{counted(plan.days_over_maximum, 'day')} plan more than "
            f"max_reviews_per_day = {plan.max_reviews_per_day}; the queue stops there and what is left is spread again"
        )
    if reach is not None:
        lines += reach.said()
    return "\n".join([*lines, "", *load_lines(plan.days)])


def load_lines(days: Sequence[DayLoad]) -> list[str]:
    """The daily load as a table, each run of days with nothing planned on one line of its own."""
    lines = [f"{'day':<12}{'reviews':>8}{'forward':>8}{'new':>6}{'total':>7}"]
    empty: list[DayLoad] = []
    for day in [*days, None]:
        if day is not None and not day.total:
            empty.append(day)
            continue
        if empty:
            span = f"{empty[0].day:%a %d %b}" + (f" … {empty[-1].day:%a %d %b}" if len(empty) > 1 else "")
            lines.append(f"{span}  nothing planned ({counted(len(empty), 'day')})")
            empty = []
        if day is not None:
            lines.append(f"{day.day:%a %d %b}  {day.reviews:>8}{day.brought_forward:>8}{day.new:>6}{day.total:>7}")
    return lines
