"""Figures for the stats screen and `drill stats`, no Textual; the queries and the figures' read
models live in drill.store.stats.

report.py     every figure at once (one read transaction through drill.store.stats), and Stats:
              the home counts and the figures, whose model_dump(mode="json") is `drill stats --json`
text.py       short text forms of the figures, shared by `drill stats` and the screen
"""
