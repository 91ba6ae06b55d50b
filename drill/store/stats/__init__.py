"""The stats queries: SQL aggregates over covering indexes (migration 4) and the figures they
return. Python only folds the small aggregated rows (per day, per family), never review rows
one by one. drill.stats assembles them into a report.

readiness.py  per block: items seen, mature, predicted recall and expected share on the target
              day; weakest topics
calibration.py predicted recall against outcomes over the last 30 days: Brier score, bands (FSRS
              only: the one place review rows are replayed in Python, its memory not being stored)
load.py       the 30-day due forecast and the unseen items in scope
activity.py   reviews and time per study day (the heatmap), the streaks, true retention
estimation.py estimation per family, its trend over time, slips; mock-round history
coding.py     coding drills: pass rate, best and last time against budget, hints
pitch.py      the pitch ladder: time taken against each rung's target
sql.py        query helpers (the block filter, SQLite's pow)
"""
