"""Figures for the stats screen and `drill stats`: SQL aggregates over the store, no Textual.

scope.py      what a figure covers: today, the period (7/30/365 days or all), a block filter
readiness.py  per block: items seen, mature, predicted recall on the target day; weakest topics
load.py       the 30-day due forecast and the unseen items in scope
activity.py   reviews and time per study day (the heatmap), the streaks, true retention
estimation.py estimation per family, its trend over time, slips; mock-round history
coding.py     coding drills: pass rate, best and last time against budget, hints
pitch.py      the pitch ladder: time taken against each rung's target
report.py     all of the above at once (one read transaction), and their JSON
summary.py    the spine's compact summary (home counts)
sql.py        query helpers (the block filter, SQLite's pow)
text.py       short text forms shared by `drill stats` and the screen

The queries are SQL aggregates over covering indexes (migration 4); Python only folds the small
aggregated rows (per day, per family), never review rows one by one.
"""
