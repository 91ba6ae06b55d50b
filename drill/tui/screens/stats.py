"""Stats: readiness per block and its calibration, the load ahead, the year's heatmap,
retention, estimation, mock rounds, coding drills and the pitch ladder, for a period (p) and a
block (b).

The figures load in a thread worker (drill.stats.report.load_report) that posts `Loaded`;
only its handler touches the widgets. Plotting (textual-plotext) is imported with this module,
which the app imports only when the screen opens.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Static
from textual_plotext import PlotextPlot

from drill.content.vocabulary import BLOCKS
from drill.interview.settings import SECTION_TITLES
from drill.schedule import memory
from drill.stats.text import (
    band,
    clock,
    duration,
    local_time,
    percent,
    readiness_line,
    score,
    steering_line,
    topic_text,
)
from drill.store.stats.scope import DEFAULT_PERIOD, PERIODS, period_label
from drill.tui.widgets.heatmap import Heatmap
from drill.tui.widgets.stats_charts import (
    RELIABILITY_COLOURS,
    FitsWidth,
    ReadinessChart,
    ReliabilityChart,
    day_label,
    spaced_ticks,
)
from drill.tui.workers import ShowsWorkerFailures
from drill.words import counted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual_plotext.plot import Plot

    from drill.store.readiness_history import ReadinessPoint
    from drill.store.stats.activity import PassRate
    from drill.store.stats.estimation import FamilyStats, TrendPoint
    from drill.store.stats.figures import StatsReport
    from drill.store.stats.interviews import MockCheck
    from drill.study import Study

WIDE = 120  # from this many columns the sections sit in two columns
FAMILIES_SHOWN = 8
ROUNDS_SHOWN = 5
TIME_BARS = 62  # beyond this many days, minutes are shown per week
PLAN_COLOURS = ("blue", "magenta", "green")  # the forecast's stacked bars under an interview plan
COLUMN_GAP = 2  # cells between a table's columns
BAR_WIDTH = 6  # the readiness bars' cells where the section has room
MIN_BAR = 3  # narrower than this, no bar is drawn
READINESS_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("block", "left"),
    ("seen", "right"),
    ("mature", "right"),
    ("recall", "right"),
    ("expected", "right"),
)


def _whole_ticks(peak: float) -> list[float]:
    """At most five whole-number ticks from 0 to `peak` (plot values, so typed as plotext takes them)."""
    step = max(1, -(-int(peak) // 4))
    return list(range(0, int(peak) + step, step))


def _table(*columns: tuple[str, JustifyMethod]) -> Table:
    table = Table(box=None, padding=(0, COLUMN_GAP, 0, 0), header_style="bold", expand=False, pad_edge=False)
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=True, overflow="ellipsis")
    return table


def _bar(value: float | None, width: int = 6) -> Text:
    """A recall bar: filled eighths of `width` cells."""
    if value is None:
        return Text("")
    eighths = round(max(0.0, min(1.0, value)) * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + ("" if part == 0 else " ▏▎▍▌▋▊▉"[part])
    style = "green" if value >= 0.85 else "yellow" if value >= 0.7 else "red"
    return Text(text.ljust(width), style=style)


def readiness_view(report: StatsReport, width: int) -> Group:
    """Per block: seen of items (coverage), mature, recall of the seen items, and expected: the
    share of all the block's items recalled on the target day, unseen ones counting 0; its bar
    takes what `width` leaves (up to BAR_WIDTH cells, none under MIN_BAR), so it is never cut."""
    ready = report.readiness
    rows = [
        (block.block, f"{block.seen}/{block.items}", str(block.mature), percent(block.recall), percent(block.expected))
        for block in ready.blocks
    ]
    rows.append(
        ("all", f"{ready.seen}/{ready.items}", str(ready.mature), percent(ready.recall), percent(ready.expected))
    )
    header = [name for name, _ in READINESS_COLUMNS]
    used = sum(max(len(cell) for cell in column) + COLUMN_GAP for column in zip(header, *rows, strict=True))
    bar = min(BAR_WIDTH, width - used)
    table = _table(*READINESS_COLUMNS)
    if bar >= MIN_BAR:
        table.add_column("", justify="left", no_wrap=True)
    values = [*(block.expected for block in ready.blocks), ready.expected]
    for number, (row, value) in enumerate(zip(rows, values, strict=True)):
        cells: list[str | Text] = list(row)
        if number == len(rows) - 1:  # the total, in bold
            cells[0], cells[4] = Text(row[0], style="bold"), Text(row[4], style="bold")
        table.add_row(*cells, *([_bar(value, bar)] if bar >= MIN_BAR else []))
    weakest = Text("weakest: ", style="bold")
    if ready.weakest:
        weakest.append(", ".join(topic_text(topic) for topic in ready.weakest[:3]))
    else:
        weakest.append("nothing to review", style="dim")
    check = mock_check_line(ready.mock_check)
    return Group(table, weakest, Text(steering_line(report.steering)), *([check] if check else []))


def mock_check_line(check: MockCheck) -> Text | None:
    """Mock interviews' predicted scores against their scores (None before the first)."""
    if not check.interviews or check.mean_absolute_error is None or check.bias is None:
        return None
    latest = check.interviews[-1]
    error = counted(round(100 * check.mean_absolute_error), "point")
    bias = counted(round(100 * abs(check.bias)), "point")
    text = Text("mock check: ", style="bold")
    text.append(
        f"latest predicted {percent(latest.predicted)}, scored {percent(latest.actual)} · "
        f"{counted(len(check.interviews), 'interview')}: off by {error} on average, "
        f"{bias} too {'high' if check.bias > 0 else 'low'} overall"
    )
    if check.within_range is not None:
        text.append(f", {check.within_range:.0%} inside their range")
    return text


def calibration_view(report: StatsReport, narrow: bool = False) -> Group | Text:
    """Predicted recall against what happened and the Brier score; `narrow` (under WIDE columns,
    where the reliability chart is left out), the bands in a table too."""
    calibration = report.readiness.calibration
    if not calibration.reviews:
        return Text("No review of an item seen before in the last 30 days: nothing to check yet.", style="dim")
    head = Text()
    head.append(
        f"{counted(calibration.reviews, 'review')}: predicted {percent(calibration.predicted)}, "
        f"passed {percent(calibration.actual)}"
    )
    head.append(f" · Brier {calibration.brier:.3f}", style="bold")
    legend = Text("Brier = mean (p − outcome)²: 0 best, 0.25 a coin flip", style="dim")
    if not narrow:  # the reliability chart follows: its colours
        key = Text()
        for colour, name in zip(RELIABILITY_COLOURS, ("predicted", "passed"), strict=True):
            key.append("■ ", style=colour)
            key.append(f"{name}  ")
        key.append("per band (·its reviews)", style="dim")
        return Group(head, legend, key)
    table = _table(("predicted", "left"), *((band(b.low, b.high), "right") for b in calibration.bins))
    table.add_row("reviews", *(str(b.reviews) for b in calibration.bins))
    table.add_row("mean", *(percent(b.predicted) for b in calibration.bins))
    table.add_row("passed", *(_passed(b.predicted, b.actual) for b in calibration.bins))
    return Group(head, table, legend)


def _passed(predicted: float | None, actual: float | None) -> Text:
    """The pass rate, red when it falls 10 points or more below the prediction (overconfident)."""
    if predicted is None or actual is None:
        return Text(percent(actual))
    return Text(percent(actual), style="red" if actual <= predicted - 0.1 else "")


def today_view(report: StatsReport) -> Text:
    """Two lines: what is left today, and what is done (or the interview plan's pace)."""
    today = report.today
    text = Text()
    text.append(f"{today.due} due", style="bold")
    text.append(f" ({today.overdue} overdue)")
    if today.brought_forward:
        text.append(f" + {today.brought_forward} brought forward")
    text.append(f" · {today.new} new")
    if today.minutes_left is not None and today.due + today.brought_forward + today.new:
        text.append(f" · about {duration(today.minutes_left * 60)}")
    text.append(f"\n{today.done} done today in {duration(today.seconds_done)}")
    plan = report.plan
    if plan is not None and report.scope.block is None:
        text.append(f"\ninterview in {counted(plan.days_left, 'day')}, {plan.new_per_day} new a day: ", style="bold")
        for colour, name in zip(PLAN_COLOURS, ("due", "brought forward", "new"), strict=True):
            text.append("■ ", style=colour)
            text.append(f"{name}  ")
    return text


def activity_view(report: StatsReport) -> Text:
    activity, streak = report.activity, report.activity.streak
    text = Text()
    text.append(f"streak {counted(streak.current, 'day')}", style="bold")
    text.append(f" · longest {streak.longest} · {counted(streak.days_studied, 'study day')} in all\n")
    text.append(
        f"{counted(int(activity.heatmap.total), 'review')} in the last year · "
        f"{period_label(report.scope.period)}: {counted(int(activity.reviews.total), 'review')}, "
        f"{duration(activity.seconds.total)} on {counted(activity.reviews.active_days, 'day')}"
    )
    return text


def retention_view(report: StatsReport) -> Table:
    table = _table(
        ("true retention", "left"), *((counted(window.days, "day"), "right") for window in report.activity.retention)
    )

    def cell(rate: PassRate) -> str:
        return "—" if rate.rate is None else f"{percent(rate.rate)} of {rate.reviews}"

    table.add_row("young (1–20 d)", *(cell(window.young) for window in report.activity.retention))
    table.add_row("mature (21+ d)", *(cell(window.mature) for window in report.activity.retention))
    return table


def estimation_view(report: StatsReport, narrow: bool = False) -> Group | Text:
    """Per family: attempts, mean score, median |log10 error|, trend and the commonest slip. `narrow`
    (under WIDE columns): the slips go under the table, one line each, so no column is squeezed."""
    est = report.estimation
    if not est.attempts:
        return Text("No estimation attempts in this period.", style="dim")
    head = Text()
    head.append(counted(est.attempts, "attempt"), style="bold")
    head.append(f" · mean score {score(est.mean_score)} · median |log10 error| {score(est.median_log_error)}")
    table = _table(("family", "left"), ("n", "right"), ("score", "right"), ("|log err|", "right"), ("trend", "right"))
    if not narrow:
        table.add_column("commonest slip", overflow="fold")  # the one column that wraps rather than squeeze the rest
    shown = est.families[:FAMILIES_SHOWN]
    for family in shown:
        trend = Text("")
        if family.trend is not None:
            trend = Text(
                f"{'▲' if family.trend >= 0 else '▼'}{abs(family.trend):.2f}",
                style="green" if family.trend >= 0 else "red",
            )
        cells: list[str | Text] = [
            family.family,
            str(family.attempts),
            score(family.mean_score),
            score(family.median_log_error),
            trend,
        ]
        if not narrow:
            cells.append(_slip(family))
        table.add_row(*cells)
    parts: list[RenderableType] = [head, table]
    if narrow and any(family.slips for family in shown):
        parts.append(Text("commonest slips", style="bold"))
        parts += [Text(f"{family.family}: {_slip(family)}") for family in shown if family.slips]
    if len(est.families) > FAMILIES_SHOWN:
        parts.append(Text(f"+{len(est.families) - FAMILIES_SHOWN} more families (weakest shown)", style="dim"))
    return Group(*parts)


def _slip(family: FamilyStats) -> str:
    """A family's commonest slip and how often it was made ('' when none was)."""
    return f"{family.slips[0].slip} ×{family.slips[0].count}" if family.slips else ""


def mock_view(report: StatsReport) -> Group | Text:
    mock = report.mock
    if not mock.count:
        return Text("No mock rounds in this period.", style="dim")
    head = Text(f"{counted(mock.count, 'round')} · mean {percent(mock.mean_score)} · best {percent(mock.best_score)}")
    table = _table(("started", "left"), ("done", "right"), ("score", "right"), ("time", "right"), ("", "left"))
    for row in mock.rounds[:ROUNDS_SHOWN]:
        table.add_row(
            local_time(row.started_at),
            f"{row.answered}/{row.problems}",
            percent(row.score),
            f"{clock(row.seconds)}/{clock(row.time_limit_s)}",
            "abandoned" if row.abandoned else "",
        )
    return Group(head, table)


def interview_view(report: StatsReport) -> Group | Text:
    """Mock interviews (all time): how many, mean and best, per section, and the latest ones."""
    figures = report.interviews
    if not figures.count:
        return Text("No mock interviews yet: M on home starts one.", style="dim")
    head = Text(
        f"{counted(figures.count, 'interview')} · mean {percent(figures.mean_score)} · "
        f"best {percent(figures.best_score)}"
    )
    sections = Text(
        " · ".join(
            f"{SECTION_TITLES[name]} {percent(score)}"
            for name, score in (figures.by_section or {}).items()
            if score is not None
        )
    )
    table = _table(("started", "left"), ("score", "right"), ("time", "right"), ("", "left"))
    for card in figures.recent[:ROUNDS_SHOWN]:
        started = local_time(card.started_at) if card.started_at else ""
        table.add_row(
            started,
            percent(card.score),
            f"{clock(card.seconds_used)}/{clock(card.settings.seconds)}",
            "abandoned" if card.abandoned else "",
        )
    return Group(head, sections, table)


def coding_view(report: StatsReport) -> Group | Text:
    coding = report.coding
    if not coding.drills:
        return Text(f"No coding drill attempted in this period ({coding.available} available).", style="dim")
    head = Text(
        f"{len(coding.drills)} of {counted(coding.available, 'drill')} tried · {coding.passed}/"
        f"{counted(coding.attempts, 'attempt')} passed · {counted(coding.hints, 'hint')}"
    )
    table = _table(
        ("drill", "left"),
        ("tries", "right"),
        ("pass", "right"),
        ("best", "right"),
        ("last", "right"),
        ("budget", "right"),
        ("hints", "right"),
    )
    for drill in coding.drills:
        last = Text(clock(drill.last_s), style="" if drill.last_passed else "red")
        best = Text(
            clock(drill.best_s),
            style="red" if drill.best_s and drill.budget_s and drill.best_s > drill.budget_s else "",
        )
        table.add_row(
            drill.drill,
            str(drill.attempts),
            percent(drill.pass_rate),
            best,
            last,
            clock(drill.budget_s),
            str(drill.hints),
        )
    return Group(head, table)


def pitch_view(report: StatsReport) -> Table:
    table = _table(
        ("rung", "left"),
        ("items", "right"),
        ("pitches", "right"),
        ("median", "right"),
        ("in time", "right"),
        ("last", "right"),
    )
    for rung in report.pitch:
        last = Text(clock(rung.last_s), style="red" if rung.last_s and rung.last_s > rung.target_s else "")
        table.add_row(
            clock(rung.target_s),
            str(rung.items),
            str(rung.reviews),
            clock(rung.median_s),
            percent(rung.within_rate),
            last,
        )
    return table


def plot_estimation(plt: Plot, trend: Sequence[TrendPoint]) -> bool:
    """The estimation scores over the period on `plt`: mean score and median |log10 error| per bucket.
    False (nothing drawn) when no bucket has an attempt."""
    plt.clear_figure()
    points = [(n, p) for n, p in enumerate(trend) if p.attempts]
    if not points:
        return False
    plt.plot([n for n, _ in points], [p.mean_score for _, p in points], label="mean score", marker="braille")
    errors = [(n, p.median_log_error) for n, p in points if p.median_log_error is not None]
    if errors:
        plt.plot([n for n, _ in errors], [e for _, e in errors], label="median |log10 err|", marker="braille")
    ticks = spaced_ticks(len(trend))
    # positions are ints: the stub's list[float] is invariant, plotext takes any numbers
    plt.xticks(ticks, [day_label(trend[n].start) for n in ticks])  # type: ignore[arg-type]
    plt.xlim(0, max(1, len(trend) - 1))
    plt.ylim(0, max(1.0, max((e for _, e in errors), default=0)))
    return True


class StatsScreen(ShowsWorkerFailures, Screen[None]):
    """Every figure from the store, for a period and a block; `p` and `b` switch them."""

    BINDINGS = [
        Binding("escape", "app.home", "Home"),
        Binding("p", "period", "Period"),
        Binding("b", "block", "Block"),
    ]

    class Loaded(Message):
        """The worker's figures, for the handler to show."""

        def __init__(self, report: StatsReport) -> None:
            super().__init__()
            self.report = report

    class HistoryLoaded(Message):
        """The predicted interview score on each of the last weeks' points."""

        def __init__(self, history: tuple[ReadinessPoint, ...]) -> None:
            super().__init__()
            self.history = history

    def __init__(self, study: Study, period: int | None = DEFAULT_PERIOD, block: str | None = None) -> None:
        super().__init__()
        self.study = study
        self.period = period
        self.block = block
        self.report: StatsReport | None = None
        self.history: tuple[ReadinessPoint, ...] | None = None  # read once a visit: it spans no period

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="stats-head")
        with VerticalScroll(id="stats-body"):
            with Vertical(classes="stats-section", id="sec-readiness"):
                yield Static("Readiness", classes="stats-title", id="readiness-title")
                yield FitsWidth("", id="readiness")
                yield Static("", id="readiness-line")
                yield ReadinessChart(id="readiness-plot", classes="stats-plot")
            with Vertical(classes="stats-section", id="sec-load"):
                yield Static("Today and the next 30 days", classes="stats-title")
                yield Static("", id="today")
                yield PlotextPlot(id="forecast-plot", classes="stats-plot")
            with Vertical(classes="stats-section wide-span", id="sec-activity"):
                yield Static("Reviews over the last year", classes="stats-title")
                yield Heatmap(id="heatmap")
                yield Static("", id="activity")
            with Vertical(classes="stats-section", id="sec-time"):
                yield Static("Minutes per day", classes="stats-title", id="time-title")
                yield PlotextPlot(id="time-plot", classes="stats-plot")
            with Vertical(classes="stats-section", id="sec-retention"):
                yield Static("True retention (not Again, counted reviews)", classes="stats-title")
                yield Static("", id="retention")
                yield Static("Calibration, last 30 days", classes="stats-title", id="calibration-title")
                yield Static("", id="calibration")
                yield ReliabilityChart(id="reliability-plot")
                yield Static("Pitch ladder", classes="stats-title")
                yield Static("", id="pitch")
            with Vertical(classes="stats-section wide-span", id="sec-estimation"):
                yield Static("Estimation", classes="stats-title")
                yield Static("", id="estimation")
                yield PlotextPlot(id="estimate-plot", classes="stats-plot")
            with Vertical(classes="stats-section", id="sec-mock"):
                yield Static("Mock rounds", classes="stats-title")
                yield Static("", id="mock")
            with Vertical(classes="stats-section", id="sec-interviews"):
                yield Static("Mock interviews", classes="stats-title")
                yield Static("", id="interviews")
            with Vertical(classes="stats-section", id="sec-coding"):
                yield Static("Coding drills", classes="stats-title")
                yield Static("", id="coding")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Stats"
        self.query_one("#stats-body").focus()
        self.reload()

    def on_resize(self) -> None:
        self.query_one("#stats-body").set_class(self.size.width >= WIDE, "wide")
        if self.report is not None:
            self.show_sized(self.report)

    def show_sized(self, report: StatsReport) -> None:
        """What differs under WIDE columns: the estimation slips go under their table, and the
        calibration's bands are a table instead of the reliability chart."""
        narrow = self.size.width < WIDE
        self.query_one("#estimation", Static).update(estimation_view(report, narrow=narrow))
        self.query_one("#calibration", Static).update(calibration_view(report, narrow=narrow))
        chart = self.query_one(ReliabilityChart)
        chart.display = not narrow and bool(report.readiness.calibration.reviews)
        chart.draw(report.readiness.calibration)

    # -- loading -----------------------------------------------------------------------------

    def reload(self) -> None:
        self.remove_class("loaded")
        self.query_one("#stats-head", Static).update(self._head(loading=True))
        self.load(self.period, self.block)

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def load(self, period: int | None, block: str | None) -> None:
        from drill.stats.report import load_report

        # the figures shown keep those no period changes: a visit reads them once a block
        self.post_message(self.Loaded(load_report(self.study, period, block, self.report)))

    @work(thread=True, exclusive=True, group="readiness-history", exit_on_error=False)
    def load_history(self) -> None:
        """Started once the first figures are in (their load waits for pending grades)."""
        from drill.store.readiness_history import readiness_history

        self.post_message(self.HistoryLoaded(readiness_history(self.study.engine, self.study.config, self.study.today)))

    @on(HistoryLoaded)
    def _history_loaded(self, message: HistoryLoaded) -> None:
        self.history = message.history
        target = self.study.config.readiness_target
        self.query_one("#readiness-line", Static).update(readiness_line(message.history, target))
        self.query_one(ReadinessChart).draw(message.history, target)
        self._mark_loaded()

    def _mark_loaded(self) -> None:
        """Loaded once the period's figures and the readiness history are both shown."""
        self.set_class(self.report is not None and self.history is not None, "loaded")

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        report = message.report
        if (report.scope.period, report.scope.block) != (self.period, self.block):
            return  # an earlier choice's figures, overtaken by a newer one
        self.report = report
        self.show(report)

    def _head(self, loading: bool = False) -> Text:
        text = Text()
        text.append(period_label(self.period), style="bold")
        text.append(" · ")
        text.append(self.block or "all blocks", style="bold")
        if self.report is not None and not loading:
            ready = self.report.readiness
            when = "today" if ready.target_day == self.report.scope.today else f"the interview, {ready.target_day}"
            model = memory.get(self.report.scope.scheduler).recall_label
            text.append(f" · recall ({model}) predicted for {when}")
        if loading:
            text.append(" · loading…", style="dim")
        return text

    # -- showing -------------------------------------------------------------------------------

    def show(self, report: StatsReport) -> None:
        self.query_one("#stats-head", Static).update(self._head())
        self.query_one(FitsWidth).draw(lambda width: readiness_view(report, width))
        self.query_one("#today", Static).update(today_view(report))
        heatmap = report.activity.heatmap
        self.query_one(Heatmap).data = (heatmap.start, heatmap.values)
        self.query_one("#activity", Static).update(activity_view(report))
        self.query_one("#retention", Static).update(retention_view(report))
        self.query_one("#pitch", Static).update(pitch_view(report))
        self.show_sized(report)
        self.query_one("#mock", Static).update(mock_view(report))
        self.query_one("#interviews", Static).update(interview_view(report))
        self.query_one("#coding", Static).update(coding_view(report))
        step = "week" if len(report.activity.seconds.values) > TIME_BARS else "day"
        self.query_one("#time-title", Static).update(f"Minutes per {step}, {period_label(report.scope.period)}")
        self._plot_forecast(report)
        self._plot_time(report)
        self._plot_estimation(report)
        if self.history is None:
            self.load_history()
        self._mark_loaded()

    def _plot_forecast(self, report: StatsReport) -> None:
        widget = self.query_one("#forecast-plot", PlotextPlot)
        plt = widget.plt
        plt.clear_figure()
        due = list(report.forecast.due)
        days = list(range(len(due)))
        plan = report.plan if report.scope.block is None else None
        if plan is None:
            plt.bar(days, due, marker="sd", width=0.6)
            peak = max(due, default=0)
        else:  # the interview plan's days: items brought forward and new items on top of what is due
            forward, new = [0] * len(due), [0] * len(due)
            for n, load in enumerate(plan.days[: len(due)]):
                forward[n], new[n] = load.brought_forward, load.new
            # textual-plotext's stub (guessed, it says) types one colour; plotext's stacked_bar takes one per series
            plt.stacked_bar(
                days,
                [due, forward, new],
                color=list(PLAN_COLOURS),  # type: ignore[arg-type]
                marker="sd",
                width=0.6,
            )
            peak = max((a + b + c for a, b, c in zip(due, forward, new, strict=True)), default=0)
        plt.xticks([0, 7, 14, 21, 28], [day_label(report.forecast.day(n)) for n in (0, 7, 14, 21, 28)])
        plt.yticks(_whole_ticks(peak))
        widget.refresh()

    def _plot_time(self, report: StatsReport) -> None:
        widget = self.query_one("#time-plot", PlotextPlot)
        plt = widget.plt
        plt.clear_figure()
        series = report.activity.seconds
        minutes = [value / 60 for value in series.values]
        step = 1 if len(minutes) <= TIME_BARS else 7  # weeks beyond two months, so bars stay legible
        bins = [sum(minutes[n : n + step]) for n in range(0, len(minutes), step)]
        plt.bar(list(range(len(bins))), bins, marker="sd", width=0.6)
        ticks = spaced_ticks(len(bins))
        labels = [day_label(series.start + timedelta(days=n * step)) for n in ticks]
        plt.xticks(ticks, labels)  # type: ignore[arg-type]  # int positions, as in plot_estimation
        widget.refresh()

    def _plot_estimation(self, report: StatsReport) -> None:
        widget = self.query_one("#estimate-plot", PlotextPlot)
        widget.display = plot_estimation(widget.plt, report.estimation.trend)
        widget.refresh()

    # -- actions ---------------------------------------------------------------------------------

    def action_period(self) -> None:
        """Next period: 7, 30, 365 days, all time."""
        self.period = PERIODS[(PERIODS.index(self.period) + 1) % len(PERIODS)]
        self.reload()

    def action_block(self) -> None:
        """Next block filter: all blocks, then each block."""
        choices: tuple[str | None, ...] = (None, *BLOCKS)
        self.block = choices[(choices.index(self.block) + 1) % len(choices)]
        self.reload()
