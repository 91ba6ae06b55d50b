"""Pure scheduling: the memory models (SM-2, FSRS) and today's queue. No I/O.

Importing the package registers the built-in memory models (drill.schedule.memory), so a lookup
by name never depends on which module happened to be imported first.
"""

# In this order: SM-2 first, as config.toml's default and as lists name them.
from drill.schedule import sm2_memory  # noqa: F401, I001  (registers itself)
from drill.schedule import fsrs_memory  # noqa: F401  (registers itself)
