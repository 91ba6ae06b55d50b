"""14: counters the store keeps beside the reviews, so home, the leeches and the activity figures read
a row per item or per day rather than every review: each item's lapses (item.lapse_count) and each
study day's reviews per block (table review_day: their number and time, and the counted young and
mature ones with their passes; home's reviews per block are its sums).

Triggers keep them: every insert, delete or rewrite of a review row (a grade, its undo, a replay
of an item's history, an import) adds and takes away its share in the same transaction, and an
item that moves to another block takes its days' shares along. A review that is no lapse leaves
its item's row alone (a grade's write stays as quick). While the store fact PAUSED is set (inside
a bulk write's transaction: drill.store.counters) the review table's triggers do nothing, and
that write moves the counters itself, set-based. The existing reviews are counted once here,
set-based."""

import sqlalchemy as sa
from alembic import op

from drill.store.column_types import Day

revision = "0014"
down_revision = "0013"

MATURE_DAYS = 21  # drill.store.stats.scope.MATURE_DAYS, as it stood
PAUSED = "review counters paused"  # drill.store.counters.PAUSED, as it stood
RUNNING = f"NOT EXISTS (SELECT 1 FROM store_fact WHERE key = '{PAUSED}')"
# A review row's share of review_day's sums, from its row `r` (NEW, OLD, or the table itself).
DAY_SHARES = {
    "duration_ms": "{r}.duration_ms",
    "mature": f"CAST({{r}}.counted AND {{r}}.interval_before >= {MATURE_DAYS} AS INTEGER)",
    "mature_passed": f"CAST({{r}}.counted AND {{r}}.interval_before >= {MATURE_DAYS} AND {{r}}.button > 1 AS INTEGER)",
    "young": f"CAST({{r}}.counted AND {{r}}.interval_before BETWEEN 1 AND {MATURE_DAYS - 1} AS INTEGER)",
    "young_passed": (
        f"CAST({{r}}.counted AND {{r}}.interval_before BETWEEN 1 AND {MATURE_DAYS - 1} AND {{r}}.button > 1 AS INTEGER)"
    ),
}
LAPSE = "{r}.counted AND {r}.button = 1 AND {r}.reps_before > 0"  # tables.LAPSE
SUMS = ("reviews", *DAY_SHARES)
# What a review row's change can move: the columns its shares read.
COUNTED_COLUMNS = "item_id, study_day, button, counted, reps_before, interval_before, duration_ms"
ADD_TO_DAY = "ON CONFLICT (study_day, block) DO UPDATE SET " + ", ".join(
    f"{name} = review_day.{name} + excluded.{name}" for name in SUMS
)


def _row(row: str, sign: str) -> list[str]:
    """The statements that add (`sign` '+') or take away ('-') the review row `row`'s shares."""
    shares = ", ".join(f"{sign}{share.format(r=row)}" for share in DAY_SHARES.values())
    statements = [
        f"UPDATE item SET lapse_count = lapse_count {sign} 1 WHERE {LAPSE.format(r=row)} AND id = {row}.item_id",
        f"INSERT INTO review_day (study_day, block, {', '.join(SUMS)}) "
        f"SELECT {row}.study_day, item.block, {sign}1, {shares} FROM item WHERE item.id = {row}.item_id {ADD_TO_DAY}",
    ]
    if sign == "-":
        statements.append(
            f"DELETE FROM review_day WHERE study_day = {row}.study_day AND reviews = 0 "
            f"AND block = (SELECT block FROM item WHERE id = {row}.item_id)"
        )
    return statements


def _block(item_row: str, sign: str) -> list[str]:
    """The statements that add or take away every review of item `item_row` in its block `item_row.block`."""
    shares = ", ".join(f"{sign}SUM({share.format(r='review')})" for share in DAY_SHARES.values())
    statements = [
        f"INSERT INTO review_day (study_day, block, {', '.join(SUMS)}) "
        f"SELECT study_day, {item_row}.block, {sign}COUNT(*), {shares} FROM review "
        f"WHERE review.item_id = {item_row}.id GROUP BY study_day {ADD_TO_DAY}"
    ]
    if sign == "-":
        statements.append(f"DELETE FROM review_day WHERE block = {item_row}.block AND reviews = 0")
    return statements


def _sqlite_triggers() -> list[str]:
    def trigger(name: str, event: str, when: str, body: list[str]) -> str:
        return f"CREATE TRIGGER {name} AFTER {event} FOR EACH ROW WHEN {when} BEGIN {'; '.join(body)}; END"

    return [
        trigger("review_counted_insert", "INSERT ON review", RUNNING, _row("NEW", "+")),
        trigger("review_counted_delete", "DELETE ON review", RUNNING, _row("OLD", "-")),
        trigger(
            "review_counted_update",
            f"UPDATE OF {COUNTED_COLUMNS} ON review",
            RUNNING,
            _row("OLD", "-") + _row("NEW", "+"),
        ),
        trigger(
            "item_block_moves_days",
            "UPDATE OF block ON item",
            "OLD.block != NEW.block",
            _block("OLD", "-") + _block("NEW", "+"),
        ),
    ]


def _postgres_triggers() -> list[str]:
    def function(name: str, body: str) -> str:
        return f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} RETURN NULL; END $$"

    def block(statements: list[str]) -> str:
        return " ".join(f"{statement};" for statement in statements)

    return [
        function(
            "review_counted",
            f"IF {RUNNING} THEN "
            f"IF TG_OP <> 'INSERT' THEN {block(_row('OLD', '-'))} END IF; "
            f"IF TG_OP <> 'DELETE' THEN {block(_row('NEW', '+'))} END IF; "
            "END IF;",
        ),
        f"CREATE TRIGGER review_counted AFTER INSERT OR DELETE OR UPDATE OF {COUNTED_COLUMNS} ON review "
        "FOR EACH ROW EXECUTE FUNCTION review_counted()",
        function("item_block_moves_days", block(_block("OLD", "-") + _block("NEW", "+"))),
        "CREATE TRIGGER item_block_moves_days AFTER UPDATE OF block ON item "
        "FOR EACH ROW WHEN (OLD.block IS DISTINCT FROM NEW.block) EXECUTE FUNCTION item_block_moves_days()",
    ]


def upgrade() -> None:
    op.add_column("item", sa.Column("lapse_count", sa.Integer(), nullable=False, server_default=sa.text("0")))
    op.create_table(
        "review_day",
        sa.Column("study_day", Day, primary_key=True),
        sa.Column("block", sa.Text(), primary_key=True),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in SUMS),
    )
    op.execute(
        "UPDATE item SET lapse_count = (SELECT COUNT(*) FROM review WHERE review.item_id = item.id "
        "AND counted = TRUE AND button = 1 AND reps_before > 0)"  # tables.LAPSE, as ix_review_lapse reads it
    )
    shares = ", ".join(f"SUM({share.format(r='review')})" for share in DAY_SHARES.values())
    op.execute(
        f"INSERT INTO review_day (study_day, block, {', '.join(SUMS)}) "
        # item by item (CROSS JOIN: SQLite keeps that order), each item's reviews read from the
        # covering index ix_review_stats_item rather than every review row from the table
        f"SELECT review.study_day, item.block, COUNT(*), {shares} FROM item CROSS JOIN review "
        "WHERE review.item_id = item.id GROUP BY review.study_day, item.block"
    )
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in _postgres_triggers() if postgres else _sqlite_triggers():
        op.execute(statement)
