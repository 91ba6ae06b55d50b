"""The mock screens: a mock estimation round and a mock interview (setup, the timed session, its
summary or scorecard, the history), both timed by one countdown over the review's card views."""
