"""Pack documents into fixed-length rows with a block-diagonal causal document mask."""

from __future__ import annotations

import torch
from torch import Tensor


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """First-fit packing in input order.

    Returns (input_ids (R, L), position_ids (R, L), doc_ids (R, L) with -1 for padding,
    mask (R, L, L) bool: same document and key <= query).
    """
    raise NotImplementedError
