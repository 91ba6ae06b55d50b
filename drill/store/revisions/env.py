"""Alembic's environment: migrate the connection drill hands over, inside drill's own write
transaction (Alembic neither opens nor commits one)."""

from alembic import context

context.configure(connection=context.config.attributes["connection"])
with context.begin_transaction():
    context.run_migrations()
