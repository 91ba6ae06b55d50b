"""Figures for the stats screen and `drill stats`, no Textual; the queries live in drill.store.stats.

scope.py      what a figure covers: today, the period (7/30/365 days or all), a block filter
report.py     every figure at once (one read transaction through drill.store.stats), and their JSON
summary.py    the spine's compact summary (home counts)
text.py       short text forms shared by `drill stats` and the screen
"""
