"""Pure scheduling: SM-2 and today's queue. No I/O."""
