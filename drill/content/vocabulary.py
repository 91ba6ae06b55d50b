"""The fixed words of the content: the five blocks and the pitch ladder's rungs (no pydantic,
so the stats and the store can use them without loading the content models)."""

from typing import Literal, get_args

Block = Literal["memory", "compute", "inference", "training", "communication"]
BLOCKS: tuple[str, ...] = get_args(Block)
PITCH_SECONDS = (30, 120, 300)
