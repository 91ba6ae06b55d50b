"""Readiness against simulated candidates: does drill's predicted interview score come true?

Each candidate studies the shipped content through drill's own daily queue and graders (a Study
on a fake clock, every grade written as the app writes it) for 14 to 60 days with one habit:
every day, weekends off, little until a cram in the last week, or stopping early. Their memory
is a ground truth that is not drill's scheduler: power-law forgetting, recall = (1 + t / S) ** -k,
with a per-person ability and decay k, a per-item difficulty, a strength S that a pass multiplies
the more the harder it was, a first sight that some items already pass, and a bad day now and
then. On the interview day drill draws a mock interview as it draws one, predicts its score
(drill.store.forecast.predicted), and the ground truth scores it: its expected score (what the
prediction aims at) and one sitting drawn from it. drill's readiness (the same forecast over every
question the interview may ask) is checked against the ground truth's over the same pools.

    python benchmarks/sim_readiness.py [--candidates 200] [--seed 1] [--jobs 1]

prints JSON: per candidate, and a summary (N, MAE, bias, share within ±5 points, range coverage).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drill.coding.attempt import CodingAttempt  # noqa: E402
from drill.estimate.draw import Problem  # noqa: E402
from drill.estimate.score import score_from_log_error  # noqa: E402
from drill.interview.forecast import forecast as predicted_score  # noqa: E402
from drill.interview.pace import outlook  # noqa: E402
from drill.interview.plan import section_pools  # noqa: E402
from drill.interview.scorecard import CODING_RESULTS, InterviewAnswer, Scorecard, button_score  # noqa: E402
from drill.interview.settings import InterviewSettings  # noqa: E402
from drill.paths import Paths  # noqa: E402
from drill.schedule.records import Card  # noqa: E402
from drill.store.forecast import expectations as expected_scores  # noqa: E402
from drill.store.forecast import plan_course, recent_pace  # noqa: E402
from drill.store.interviews import pool  # noqa: E402
from drill.study import Study  # noqa: E402
from drill.study.writes import write_coding, write_estimate, write_grade  # noqa: E402

HABITS = ("daily", "weekends off", "cram", "stop early")
SCHEDULERS = ("sm2", "fsrs")
START = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)  # a Monday afternoon
SETTINGS = InterviewSettings()  # the default mock interview: 3 grill questions, a 2-minute pitch, 3 estimates
BAD_DAY_RECALL = 0.75  # on a bad day every recall chance is this much of itself
WITHIN = 0.05  # "within ±5 points"


# -- the ground truth ------------------------------------------------------------------------------


def _unit_normal(*key: object) -> float:
    """A standard normal drawn from `key` alone, the same in every run."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    u1, u2 = (int.from_bytes(digest[i : i + 8], "big") / 2**64 for i in (0, 8))
    return math.sqrt(-2 * math.log(max(u1, 1e-300))) * math.cos(2 * math.pi * u2)


def difficulty(item_id: str) -> float:
    """An item's difficulty, the same for every candidate (higher: learnt slower, known less)."""
    return 0.6 * _unit_normal("difficulty", item_id)


@dataclass(frozen=True)
class Person:
    """One simulated candidate: who they are and how they study."""

    ability: float  # higher: stronger memories, more known at first sight
    decay: float  # k of the power law
    prior: float  # what they knew before drill, on the logit scale
    bad_days: float  # chance that a day is a bad one
    seconds_per_card: float
    daily_minutes: float
    habit: str
    days: int
    scheduler: str

    @classmethod
    def draw(cls, rng: random.Random, days: tuple[int, int]) -> Person:
        return cls(
            ability=rng.gauss(0, 0.5),
            decay=rng.uniform(0.35, 0.8),
            prior=rng.gauss(-1.6, 0.7),
            bad_days=rng.uniform(0, 0.15),
            seconds_per_card=rng.uniform(15, 45),
            daily_minutes=rng.uniform(20, 90),
            habit=rng.choice(HABITS),
            days=rng.randint(*days),
            scheduler=rng.choice(SCHEDULERS),
        )

    def studies(self, day: int, stop: int) -> bool:
        """Whether the candidate opens drill on study day `day` (0 the first) of `self.days`."""
        weekday = (START + timedelta(days=day)).weekday()
        if self.habit == "weekends off":
            return weekday < 5
        if self.habit == "cram":
            return day >= self.days - 7 or weekday in (1, 4)
        if self.habit == "stop early":
            return day < stop
        return True

    def minutes(self, day: int) -> float:
        """The time they give drill that day (a cram doubles it)."""
        return self.daily_minutes * (2 if self.habit == "cram" and day >= self.days - 7 else 1)


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@dataclass
class Memory:
    """The candidate's true memory of every item: strength S in days and the day of its last study."""

    person: Person
    strength: dict[str, float] = field(default_factory=dict)
    studied: dict[str, int] = field(default_factory=dict)

    def first_sight(self, item_id: str) -> float:
        """The chance of answering an item never studied."""
        return _logistic(self.person.prior - difficulty(item_id))

    def recall(self, item_id: str, day: int, bad: bool) -> float:
        if item_id in self.strength:
            elapsed = day - self.studied[item_id]
            chance = (1 + elapsed / self.strength[item_id]) ** -self.person.decay
        else:
            chance = self.first_sight(item_id)
        return chance * (BAD_DAY_RECALL if bad else 1.0)

    def learn(self, item_id: str, day: int, chance: float, recalled: bool) -> None:
        """One study of the item on `day` that recalled it or not (its answer is then seen)."""
        gain = math.exp(self.person.ability - difficulty(item_id))
        if item_id not in self.strength:
            self.strength[item_id] = (8.0 if recalled else 0.8) * gain
        elif recalled:
            self.strength[item_id] *= 1 + 3.0 * math.sqrt(gain) * (1 - chance)
        else:
            self.strength[item_id] = max(0.3, 0.3 * self.strength[item_id])
        self.studied[item_id] = day


def pass_buttons(chance: float) -> dict[int, float]:
    """How a recalled self-graded answer is graded: Easy when it came easily, Hard when barely."""
    easy = 0.6 * max(0.0, chance - 0.75) / 0.25
    hard = 0.6 * max(0.0, 0.65 - chance) / 0.65
    return {2: hard, 3: 1 - easy - hard, 4: easy}


def estimate_error(known: bool, rng: random.Random) -> float:
    """The |log10| error of an estimate: small when the method is recalled, a guess when not."""
    return abs(rng.gauss(0, 0.05 if known else 0.6))


ERROR_QUANTILES = [statistics.NormalDist().inv_cdf(0.5 + (i + 0.5) / 400) for i in range(200)]


def expected_estimate(known: bool, tolerance: float) -> float:
    """The mean score the grader's rule gives such errors (half-normal quantiles)."""
    sigma = 0.05 if known else 0.6
    return statistics.fmean(score_from_log_error(sigma * q, tolerance) for q in ERROR_QUANTILES)


# -- studying through drill -------------------------------------------------------------------------


def answer_text(problem: Problem, value: float) -> str:
    return f"{value:.4g}" if problem.unit == "1" else f"{value:.4g} {problem.unit}"


def study_day(study: Study, memory: Memory, day: int, bad: bool, rng: random.Random) -> int:
    """Work through the day's queue, in its order, until the day's time runs out; the grades given."""
    clock = study.clock
    budget = memory.person.minutes(day) * 60
    given = 0
    for card in study.reviews.cards(study.reviews.queue()):
        if budget <= 0:
            break
        chance = memory.recall(card.item_id, day, bad)
        recalled = rng.random() < chance
        if card.kind == "estimate":
            problem = study.estimation.new_problem(card.item_id)
            error = estimate_error(recalled, rng) * rng.choice((-1, 1))
            attempt = study.estimation.answer(problem, answer_text(problem, problem.truth * 10**error), 90.0)
            write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())
            budget -= 90
        elif card.kind == "coding":
            status = "pass" if recalled else "gave up"
            seconds = float(card.target_seconds or 900)
            run = CodingAttempt(
                card.item_id, clock(), clock(), "pass" if recalled else "fail", 1, 0, "cpu", 0, seconds, None, "sim"
            )
            write_coding(study, run, study.drills.grade(card, status, seconds, 0))
            budget -= seconds
        else:
            button = rng.choices(*zip(*pass_buttons(chance).items(), strict=True))[0] if recalled else 1
            seconds = memory.person.seconds_per_card + (card.target_seconds or 0)
            write_grade(study, study.reviews.grade(card, button, int(seconds * 1000)))
            if button == 1:  # the session brings it back until it is passed
                write_grade(study, study.reviews.grade(study.reviews.cards([card.item_id])[0], 3, 5000))
            budget -= seconds
        memory.learn(card.item_id, day, chance, recalled)
        given += 1
    return given


# -- the interview day ------------------------------------------------------------------------------


def true_score(memory: Memory, section: str, card: Card, day: int, bad: bool, tolerance: float) -> float:
    """The ground truth's expected score of one question."""
    chance = memory.recall(card.item_id, day, bad)
    if section in ("grill", "pitch"):
        return chance * sum(share * button_score(button) for button, share in pass_buttons(chance).items())
    if section == "estimate":
        return chance * expected_estimate(True, tolerance) + (1 - chance) * expected_estimate(False, tolerance)
    return chance


def sitting(memory: Memory, steps: Sequence[tuple[str, Card, float]], day: int, bad: bool, rng: random.Random) -> float:
    """One sitting of the interview, answered by the ground truth and scored by drill's scorecard."""
    answers = []
    for position, (section, card, tolerance) in enumerate(steps):
        chance = memory.recall(card.item_id, day, bad)
        recalled = rng.random() < chance
        if section in ("grill", "pitch"):
            button = rng.choices(*zip(*pass_buttons(chance).items(), strict=True))[0] if recalled else 1
            score = button_score(button)
        elif section == "estimate":
            score = score_from_log_error(estimate_error(recalled, rng), tolerance)
        else:
            score = CODING_RESULTS["pass" if recalled else "gave up"]
        answers.append(InterviewAnswer(position, section, card.item_id, 60.0, score))
    planned: dict[str, int] = {}
    for section, _, _ in steps:
        planned[section] = planned.get(section, 0) + 1
    return Scorecard(settings=SETTINGS, planned=planned, answers=tuple(answers), seconds_used=0.0, ended="done").score


def true_readiness(memory: Memory, pools: dict[str, list[Card]], day: int, tolerances: dict[str, float]) -> float:
    """The ground truth's expected score of an interview drawn at random from the pools (no bad day)."""
    wanted = SETTINGS.wanted()
    sections = [
        statistics.fmean(
            true_score(memory, section, card, day, False, tolerances.get(card.item_id, 0.05)) for card in cards
        )
        for section, cards in pools.items()
        if cards and wanted[section]
    ]
    return statistics.fmean(sections)


# -- one candidate ----------------------------------------------------------------------------------


def template(folder: Path) -> Path:
    """A home whose database already holds the shipped content (copied for each candidate)."""
    home = folder / "template"
    home.mkdir()
    Study.open(Paths(home), lambda: START, random.Random(0), say=lambda _line: None).close()
    return home


def candidate(index: int, seed: int, days: tuple[int, int], base: Path, folder: Path) -> dict[str, object]:
    """Simulate one candidate from enrolment to the interview; their figures."""
    rng = random.Random(f"{seed}:{index}")
    person = Person.draw(rng, days)
    home = folder / f"candidate-{index}"
    shutil.copytree(base, home)
    interview_day = (START + timedelta(days=person.days)).date()
    (home / "config.toml").write_text(f'scheduler = "{person.scheduler}"\ninterview_date = {interview_day}\n')
    now = [START]
    study = Study.open(Paths(home), lambda: now[0], random.Random(rng.random()), say=lambda _line: None)
    memory = Memory(person)
    stop = rng.randint(person.days * 2 // 5, person.days * 4 // 5)
    grades = 0
    projected: dict[str, float] = {}
    checkpoints = {"halfway": person.days // 2, "week_before": person.days - 7}  # the same day when 14 days
    try:
        for day in range(person.days):
            now[0] = START + timedelta(days=day)
            for when in (when for when, at in checkpoints.items() if at == day):
                projected[when] = projection(study)
            if person.studies(day, stop):
                grades += study_day(study, memory, day, rng.random() < person.bad_days, rng)
        now[0] = START + timedelta(days=person.days)
        today = study.today
        assert today == interview_day, (today, interview_day)
        bad = rng.random() < person.bad_days
        plan = study.interviews.plan(SETTINGS)
        drawn = [(step.section, step.card) for step in plan.steps]
        tolerances = {step.item_id: step.problem.tolerance for step in plan.steps if step.problem is not None}
        expectations = expected_scores(study.engine, drawn, today, person.scheduler)
        forecast = predicted_score(expectations)
        by_section = {
            section: statistics.fmean(
                true_score(memory, section, card, person.days, bad, tolerances.get(card.item_id, 0.05))
                for s, card in drawn
                if s == section
            )
            for section in dict.fromkeys(s for s, _ in drawn)
        }
        truth = statistics.fmean(by_section.values())
        steps = [(section, card, tolerances.get(card.item_id, 0.05)) for section, card in drawn]
        sat = sitting(memory, steps, person.days, bad, rng)
        pools = section_pools(pool(study.engine), SETTINGS)
        family_tolerance = {card.item_id: tolerance_of(study, card) for card in pools["estimate"]}
        drawable = [(section, card) for section, cards in pools.items() for card in cards]
        ready = predicted_score(expected_scores(study.engine, drawable, today, person.scheduler), SETTINGS.wanted())
        ready_truth = true_readiness(memory, pools, person.days, family_tolerance)
    finally:
        study.close()
        shutil.rmtree(home, ignore_errors=True)
    return {
        "candidate": index,
        **{key: value for key, value in asdict(person).items() if key in ("habit", "days", "scheduler")},
        "grades": grades,
        "bad_interview_day": bad,
        "predicted": round(forecast.score, 4),
        "low": round(forecast.low, 4),
        "high": round(forecast.high, 4),
        "expected": round(truth, 4),
        "sitting": round(sat, 4),
        "readiness_predicted": round(ready.score, 4),
        "readiness_expected": round(ready_truth, 4),
        **{f"projected_{when}": round(score, 4) for when, score in projected.items()},
        "sections": {
            section.section: {"predicted": round(section.score, 4), "expected": round(by_section[section.section], 4)}
            for section in forecast.sections
        },
        "steps": [
            {
                "section": section,
                "item": card.item_id,
                "seen": not card.state.is_new,
                "predicted": round(each.mean, 4),
                "expected": round(
                    true_score(memory, section, card, person.days, bad, tolerances.get(card.item_id, 0.05)), 4
                ),
            }
            for (section, card), each in zip(drawn, expectations, strict=True)
        ],
    }


def projection(study: Study) -> float:
    """The readiness drill's plan projects for the interview day at the candidate's pace so far."""
    course = plan_course(study.engine, study.config, study.today, study.fsrs_settings)
    pace = recent_pace(study.engine, study.today)
    assert course is not None and pace is not None  # an interview date ahead, a week of history
    return outlook(course, pace).predicted.score


def tolerance_of(study: Study, card: Card) -> float:
    from drill.estimate.items import family_id
    from drill.estimate.schema import family

    return family(study.paths.problem_dirs(), family_id(card.item_id)).tolerance


# -- the figures ------------------------------------------------------------------------------------


def errors(runs: Iterable[dict[str, object]], predicted_key: str, actual_key: str) -> dict[str, object]:
    """MAE, bias (predicted minus actual) and the share within ±5 points, in points of 100."""
    pairs = [(float(run[predicted_key]), float(run[actual_key])) for run in runs]  # type: ignore[arg-type]
    if not pairs:
        return {"n": 0, "mae": None, "bias": None, "within_5": None}
    differences = [p - a for p, a in pairs]
    return {
        "n": len(pairs),
        "mae": round(100 * statistics.fmean(abs(d) for d in differences), 2),
        "bias": round(100 * statistics.fmean(differences), 2),
        "within_5": round(sum(abs(d) <= WITHIN + 1e-9 for d in differences) / len(pairs), 4),
    }


def summary(runs: Sequence[dict[str, object]]) -> dict[str, object]:
    """The figures over every candidate and per habit."""
    covered = [float(run["low"]) <= float(run["sitting"]) <= float(run["high"]) for run in runs]  # type: ignore[arg-type]
    return {
        "candidates": len(runs),
        "interview": errors(runs, "predicted", "expected"),
        "sitting": errors(runs, "predicted", "sitting") | {"range_coverage": round(statistics.fmean(covered), 4)},
        "readiness": errors(runs, "readiness_predicted", "readiness_expected"),
        "projection": {
            when: errors(runs, f"projected_{when}", "readiness_expected")
            | {
                "by_habit": {
                    habit: errors(
                        [run for run in runs if run["habit"] == habit], f"projected_{when}", "readiness_expected"
                    )
                    for habit in HABITS
                    if any(run["habit"] == habit for run in runs)
                }
            }
            for when in ("halfway", "week_before")
        },
        "by_habit": {
            habit: errors([run for run in runs if run["habit"] == habit], "predicted", "expected")
            for habit in HABITS
            if any(run["habit"] == habit for run in runs)
        },
    }


def simulate(candidates: int, seed: int, days: tuple[int, int] = (14, 60)) -> dict[str, object]:
    """Run every candidate; the summary first, then each one."""
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="drill-sim-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    try:
        base = template(folder)
        runs = [candidate(index, seed, days, base, folder) for index in range(candidates)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"summary": summary(runs), "seconds": round(time.perf_counter() - started, 1), "runs": runs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--days", type=int, nargs=2, default=(14, 60), metavar=("MIN", "MAX"))
    args = parser.parse_args(argv)
    json.dump(simulate(args.candidates, args.seed, tuple(args.days)), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
