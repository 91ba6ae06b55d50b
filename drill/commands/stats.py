"""`drill stats [--json] [--period 7|30|365|all] [--block BLOCK]`: progress without the TUI.

Only argparse is imported here; the handler imports the store when it runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from drill.content.vocabulary import BLOCKS

if TYPE_CHECKING:
    from drill.stats.report import Stats


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = commands.add_parser("stats", help="summary of your progress")
    stats.add_argument("--json", action="store_true", help="print every figure as JSON")
    stats.add_argument(
        "--period", choices=["7", "30", "365", "all"], default="30", help="days the history figures cover (default 30)"
    )
    stats.add_argument("--block", choices=BLOCKS, default=None, help="only this block")
    stats.set_defaults(handler=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.stats.report import Stats, load_report
    from drill.store.stats.scope import parse_period
    from drill.study import Study

    study = Study.open()
    try:
        stats = Stats(study.browsing.home(), load_report(study, parse_period(args.period), args.block))
    finally:
        study.close()
    if args.json:
        print_json(stats.model_dump(mode="json"))
    else:
        print("\n".join(summary_lines(stats)))
    return 0


def summary_lines(stats: Stats) -> list[str]:
    """The compact human summary of `drill stats`."""
    from drill.stats.text import clock, duration, percent, readiness_lines, score, sparkline, steering_line
    from drill.store.stats.scope import period_label
    from drill.words import counted

    home, report = stats.home, stats.report
    lines = [
        f"{counted(home.items, 'item')}, {counted(home.reviews_total, 'review')}, {home.due_today} due today, "
        f"{home.new_available} new available",
    ]
    scope = f"{period_label(report.scope.period)} · {report.scope.block or 'all blocks'}"
    if home.interview_date:
        scope += f" · interview {home.interview_date.isoformat()} ({counted(home.days_left or 0, 'day')})"
    lines.append(scope)
    today, activity = report.today, report.activity
    streak = activity.streak
    left = "" if today.minutes_left is None else f" · about {duration(today.minutes_left * 60)} left"
    forward = f" + {today.brought_forward} brought forward" if today.brought_forward else ""
    lines.append(
        f"today: {today.due} due ({today.overdue} overdue){forward}, {today.new} new, "
        f"{today.done} done in {duration(today.seconds_done)}{left}"
    )
    plan = report.plan
    if plan:
        lines.append(
            f"plan: {plan.brought_forward} items brought forward into the last {plan.window} "
            f"days; {plan.new_per_day} new a day ({plan.new_per_day_needed} needed to finish)"
        )
    lines.append(
        f"streak {counted(streak.current, 'day')} (longest {streak.longest}) · "
        f"{counted(int(activity.reviews.total), 'review')} in {duration(activity.seconds.total)} "
        f"on {counted(activity.reviews.active_days, 'day')}"
    )
    lines.append("")
    lines.extend(readiness_lines(report.readiness))
    lines.append(steering_line(report.steering))
    lines.append("")
    retention = " · ".join(
        f"{window.days}d {percent(window.mature.rate)} of {window.mature.reviews}" for window in activity.retention
    )
    lines.append(f"true retention (mature): {retention}")
    forecast = report.forecast.due
    lines.append(f"due, next 30 days: {sparkline(forecast)} (today {forecast[0]}, peak {max(forecast)})")
    estimation = report.estimation
    if estimation.attempts:
        worst = estimation.families[0]
        lines.append(
            f"estimation: {counted(estimation.attempts, 'attempt')}, mean score {score(estimation.mean_score)}, "
            f"median |log10 error| {score(estimation.median_log_error)}; "
            f"weakest {worst.family} {score(worst.mean_score)}"
        )
        if estimation.slips:
            lines.append("  slips: " + ", ".join(f"{s.slip} ×{s.count}" for s in estimation.slips[:3]))
    mock = report.mock
    if mock.count:
        last = mock.rounds[0]
        lines.append(
            f"mock rounds: {mock.count} (mean {percent(mock.mean_score)}, best "
            f"{percent(mock.best_score)}); last {last.started_at[:10]} {percent(last.score)}"
        )
    coding = report.coding
    if coding.attempts:
        lines.append(
            f"coding: {len(coding.drills)} of {coding.available} drills tried, "
            f"{coding.passed}/{counted(coding.attempts, 'attempt')} passed, {counted(coding.hints, 'hint')}"
        )
    rungs = [rung for rung in report.pitch if rung.reviews]
    if rungs:
        lines.append(
            "pitch: "
            + " · ".join(
                f"{clock(r.target_s)} {percent(r.within_rate)} in time (median {clock(r.median_s)})" for r in rungs
            )
        )
    return lines
