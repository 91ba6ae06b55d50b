"""Alembic's environment: migrate the connection drill hands over, inside drill's own write
transaction (Alembic neither opens nor commits one). The revisions target the table classes'
metadata (drill/store/tables.py); tests/unit/store/test_schema_drift.py finds them in step."""

from alembic import context

from drill.store.tables import METADATA

context.configure(connection=context.config.attributes["connection"], target_metadata=METADATA)
with context.begin_transaction():
    context.run_migrations()
