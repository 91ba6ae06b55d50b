"""Alembic's environment: migrate the connection drill hands over, inside drill's own write
transaction (Alembic neither opens nor commits one), telling `on_version_apply` in the config's
attributes (where given) of each revision applied. The revisions target the table classes'
metadata (drill/store/tables.py); tests/unit/store/test_schema_drift.py finds them in step."""

from alembic import context

from drill.store.tables import METADATA

attributes = context.config.attributes
context.configure(
    connection=attributes["connection"],
    target_metadata=METADATA,
    on_version_apply=attributes.get("on_version_apply"),
)
with context.begin_transaction():
    context.run_migrations()
