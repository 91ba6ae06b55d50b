"""Card browser speed on 10,000 items: a search or filter in memory (what every keystroke in `/`
costs), the table repainted after it, and reading every item from the store once (the browser's
worker). Prints JSON.

Each figure has a baseline measured in the same run on the same machine, and the ratio: the filter
against a plain Python list comprehension testing one field of the same rows; the repaint against
Textual's DataTable refilled with the same rows; the store read against a plain SELECT of the same
columns."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import large_home

from drill.paths import Paths
from drill.store.browse import ItemRow
from drill.store.browse_filter import ItemFilter, ItemIndex
from drill.study import Study

ITEMS = 10_000
TODAY = date(2026, 11, 22)
KINDS = ("card", "pitch", "estimate", "coding")
WORDS = (
    "KV cache",
    "all-reduce",
    "tensor parallel",
    "roofline",
    "HBM bandwidth",
    "FlashAttention",
    "ZeRO-3",
    "pipeline bubble",
    "speculative decoding",
    "NCCL ring",
    "activation memory",
    "FP8 scaling",
)


def synthetic_rows(count: int = ITEMS) -> list[ItemRow]:
    """`count` rows shaped like the shipped content: prompts of a sentence, answers of a paragraph."""
    rng = random.Random(7)
    rows = []
    for i in range(count):
        topic = rng.choice(WORDS)
        answer = " ".join(f"{rng.choice(WORDS)} of {rng.randint(1, 999)} layers, then the next step;" for _ in range(8))
        seen = rng.random() < 0.8
        rows.append(
            ItemRow(
                f"bench-{i:05d}",
                KINDS[i % 4],
                large_home.BLOCKS[i % 5],
                topic,
                f"Benchmark prompt {i}: how does {topic} limit model {i}?",
                answer,
                "benchmark",
                TODAY + timedelta(days=rng.randint(-30, 30)) if seen else None,
                rng.randint(1, 60) if seen else 0,
                2.5,
                float(rng.randint(1, 90)) if seen else None,
                rng.randint(0, 30),
                rng.randint(0, 9),
                rng.random() < 0.03,
                rng.random() < 0.02,
            )
        )
    return rows


def median_ms(run, times: int = 40) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append((time.perf_counter() - start) * 1000)
    return statistics.median(spent)


def filter_timings(rows: list[ItemRow]) -> dict[str, object]:
    """The browser's select against a list comprehension testing one field, per kind of choice."""
    index = ItemIndex(rows)
    cases = {
        "search": (
            ItemFilter(search="speculative dec"),
            lambda: [row for row in rows if "speculative dec" in row.answer],
        ),
        "block_and_due": (
            ItemFilter(block="compute", due=True),
            lambda: [row for row in rows if row.block == "compute"],
        ),
        "search_kind_leech": (
            ItemFilter(search="roofline", kind="card", leech=True),
            lambda: [row for row in rows if "roofline" in row.answer],
        ),
        "nothing_chosen": (ItemFilter(), lambda: [row for row in rows if row.block]),
    }
    figures: dict[str, object] = {}
    for name, (choice, baseline) in cases.items():
        ours, plain = median_ms(partial(index.select, choice, TODAY)), median_ms(baseline)
        figures[name] = {
            "rows_kept": len(index.select(choice, TODAY)),
            "select_ms_median": round(ours, 3),
            "baseline_list_comprehension_ms_median": round(plain, 3),
            "ratio": round(ours / plain, 2),
        }
    start = time.perf_counter()
    ItemIndex(rows)
    figures["index_build_ms"] = round((time.perf_counter() - start) * 1000, 2)
    return figures


async def repaint_timings(rows: list[ItemRow], runs: int = 20, baseline_runs: int = 3) -> dict[str, float]:
    """Rows handed to the browser's ItemTable until the app is idle again, against DataTable.clear()
    and add_rows() of the same rows (its cells as the browser would show them); the same wait on an
    app with nothing to do is the floor under both."""
    from textual.app import App
    from textual.widgets import DataTable

    from drill.tui.screens.browser import columns
    from drill.tui.widgets.item_table import ItemTable

    table_columns = columns(TODAY, stability=False)
    half = [row for row in rows if row.block != "compute"]

    class Tables(App[None]):
        def compose(self):
            yield ItemTable(table_columns)
            yield DataTable()

    ours, theirs, idle = [], [], []
    async with Tables().run_test(size=(120, 36)) as pilot:
        table = pilot.app.query_one(ItemTable)
        for _ in range(runs):
            start = time.perf_counter()
            await pilot.pause()
            idle.append((time.perf_counter() - start) * 1000)
        for n in range(runs):
            start = time.perf_counter()
            table.show(rows if n % 2 else half)
            await pilot.pause()
            ours.append((time.perf_counter() - start) * 1000)
        data = pilot.app.query_one(DataTable)
        data.add_columns(*(column.label for column in table_columns))
        cells = [[column.cell(row) for column in table_columns] for row in rows]
        for _ in range(baseline_runs):
            start = time.perf_counter()
            data.clear()
            data.add_rows(cells)
            await pilot.pause()
            theirs.append((time.perf_counter() - start) * 1000)
    mine, floor = statistics.median(ours), statistics.median(theirs)
    return {
        "item_table_show_ms_median": round(mine, 2),
        "item_table_show_ms_max": round(max(ours), 2),
        "idle_app_pause_ms_median": round(statistics.median(idle), 2),
        "baseline_datatable_refill_ms_median": round(floor, 2),
        "ratio": round(mine / floor, 4),
    }


def store_timings(home: Path, runs: int = 5) -> dict[str, float]:
    """The browser's read, item_rows (every item with reviews, lapses and leeches), against a plain SELECT
    of the item table."""
    from sqlalchemy import text

    from drill.store.browse import item_rows

    study = Study.open(Paths(home))
    ours = median_ms(lambda: item_rows(study.engine, study.config.leech_threshold), runs)

    def plain() -> None:
        with study.engine.connect() as connection:
            connection.execute(text("SELECT id, kind, block, topic, prompt, answer, due_day FROM item")).all()

    floor = median_ms(plain, runs)
    study.close()
    return {
        "browse_ms_median": round(ours, 1),
        "baseline_plain_select_ms_median": round(floor, 1),
        "ratio": round(ours / floor, 2),
    }


def main() -> None:
    rows = synthetic_rows()
    figures: dict[str, object] = {"items": len(rows)}
    figures["filter"] = filter_timings(rows)
    figures["repaint"] = asyncio.run(repaint_timings(rows))
    home = Path(tempfile.mkdtemp(prefix="drill-bench-")) / "home"
    large_home.build(home)
    figures["store"] = {"reviews": 100_000, **store_timings(home)}
    # A search is done within one frame; the repaint after it (the idle floor included) stays
    # well below the ~100 ms at which a pause is seen.
    figures["targets"] = {"select_ms_median": 16, "item_table_show_ms_median": 100}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
