"""The fixed words of the content: the five blocks and the pitch ladder's rungs (no pydantic,
so the stats and the store can use them without loading the content models)."""

BLOCKS = ("memory", "compute", "inference", "training", "communication")
PITCH_SECONDS = (30, 120, 300)
