"""The stats queries: SQL aggregates over covering indexes (migration 4) and the figures they
return, read models (drill.read_model) whose `model_dump(mode="json")` is their part of
`drill stats --json`. Python only folds the small aggregated rows (per day, per family), never
review rows one by one. The queries are Core statements on drill.store.tables, or SQL text where
it reads better (window functions, recursive CTEs, the dialects' functions).

readiness.py  per block: items seen, mature, predicted recall and expected share on the target
              day; weakest topics
calibration.py predicted recall against outcomes over the last 30 days: Brier score, bands
load.py       the 30-day due forecast and the unseen items in scope
activity.py   reviews and time per study day (the heatmap), the streaks, true retention: read from
              the day counters the review table's triggers keep (review_day, revision 0014)
estimation.py estimation per family, its trend over time, slips; mock-round history
coding.py     coding drills: pass rate, best and last time against budget, hints
pitch.py      the pitch ladder: time taken against each rung's target
interviews.py mock interviews: counts, mean scores per section, the latest ones
figures.py    every figure at once (collect), the report and its JSON; a period switch keeps the
              figures no period changes
scope.py      what a figure covers: today, the period (7/30/365 days or all), a block filter
rounding.py   figures as the JSON writes them (rounded, shares rounded down): the fields' types
sql.py        query helpers (the block filter in text and in Core, SQLite's pow)
"""
