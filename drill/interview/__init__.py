"""Mock interviews: one countdown over a round shaped like an ML-systems interview (grill
questions answered aloud, a pitch against its target, estimation problems through the grader,
optionally a coding drill), every answer also that item's review. Pure logic, no I/O, no Textual.

    settings.InterviewSettings        length and sections (config.toml remembers them)
    plan.draw(cards, settings, rng, today) -> [(section, card)]   which items, in asking order
    plan.InterviewPlan / Step         what one interview asks (an estimate step holds its fresh numbers)
    scorecard.InterviewAnswer         one answer; scorecard.Scorecard: per section, overall, worst slips
    forecast.forecast(expectations) -> Forecast   the score predicted (and its range) before it starts
    pace.reach(course, pace, target, ...) -> Reach   the readiness a pace reaches by the interview date

The study layer (drill.study) draws and stores interviews; drill.store.interviews holds the SQL,
drill.store.forecast reads the record the forecast is made from.
"""
