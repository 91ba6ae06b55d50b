"""The only package that speaks SQL: tables, engine, migrations, sync and queries."""
