"""Hidden tests for the sequence-packing drill (first-fit packing + document mask)."""

from __future__ import annotations

import pytest
import torch


def make_docs(lengths, device, strided=False):
    """Document d holds tokens 1000*(d+1) + 0, 1, ...: every token identifies its document and offset.
    strided: every document is a non-contiguous view (every other element of a longer tensor)."""
    if strided:
        return [(1000 * (d + 1) + torch.arange(2 * n, device=device) // 2)[::2] for d, n in enumerate(lengths)]
    return [1000 * (d + 1) + torch.arange(n, device=device) for d, n in enumerate(lengths)]


def expected(lengths, seq_len, pad_id=0):
    """Straightforward first-fit reference, built slot by slot on the CPU."""
    used, where = [], []
    for n in lengths:
        row = next((r for r, u in enumerate(used) if seq_len - u >= n), None)
        if row is None:
            row = len(used)
            used.append(0)
        where.append((row, used[row]))
        used[row] += n
    R = len(used)
    ids = torch.full((R, seq_len), pad_id, dtype=torch.long)
    pos = torch.zeros((R, seq_len), dtype=torch.long)
    doc = torch.full((R, seq_len), -1, dtype=torch.long)
    for d, (n, (row, start)) in enumerate(zip(lengths, where)):
        for o in range(n):
            ids[row, start + o] = 1000 * (d + 1) + o
            pos[row, start + o] = o
            doc[row, start + o] = d
    mask = torch.zeros((R, seq_len, seq_len), dtype=torch.bool)
    for r in range(R):
        for i in range(seq_len):
            for j in range(i + 1):
                mask[r, i, j] = bool(doc[r, i] >= 0 and doc[r, i] == doc[r, j])
    return ids, pos, doc, mask


def check(candidate, lengths, seq_len, device, pad_id=0, strided=False):
    docs = make_docs(lengths, device, strided)
    before = [d.clone() for d in docs]
    out = candidate.pack_documents(docs, seq_len, pad_id) if pad_id != 0 else candidate.pack_documents(docs, seq_len)
    for d, b in zip(docs, before):
        assert torch.equal(d, b), "pack_documents must not modify the documents"
    assert isinstance(out, tuple) and len(out) == 4, "return (input_ids, position_ids, doc_ids, mask)"
    ids, pos, doc, mask = out
    w_ids, w_pos, w_doc, w_mask = expected(lengths, seq_len, pad_id)
    R = w_ids.shape[0]
    for name, t, dt, shape in (("input_ids", ids, torch.long, (R, seq_len)), ("position_ids", pos, torch.long, (R, seq_len)),
                               ("doc_ids", doc, torch.long, (R, seq_len)), ("mask", mask, torch.bool, (R, seq_len, seq_len))):
        assert tuple(t.shape) == shape and t.dtype == dt, (
            f"{name} must be {dt} of shape {shape} (lengths {lengths}, seq_len {seq_len} -> {R} rows by first-fit), "
            f"got {t.dtype} {tuple(t.shape)}")
        assert t.device == docs[0].device, f"{name} must be on the documents' device"
    ids, pos, doc, mask = (t.cpu() for t in (ids, pos, doc, mask))
    assert torch.equal(doc, w_doc), (
        f"documents are not where first-fit puts them (lengths {lengths}, seq_len {seq_len}):\n"
        f"want doc_ids\n{w_doc}\ngot\n{doc}")
    assert torch.equal(ids, w_ids), f"input_ids wrong (document tokens or pad_id={pad_id}):\nwant\n{w_ids}\ngot\n{ids}"
    assert torch.equal(pos, w_pos), f"position_ids must restart at 0 for every document, 0 on padding:\nwant\n{w_pos}\ngot\n{pos}"
    cross = mask & (doc[:, :, None] != doc[:, None, :])
    assert not cross.any(), f"attention crosses documents at (row, query, key) {cross.nonzero()[0].tolist()}"
    future = mask & ~torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
    assert not future.any(), f"a query attends to a later key at (row, query, key) {future.nonzero()[0].tolist()}"
    pad = mask & ((doc[:, :, None] < 0) | (doc[:, None, :] < 0))
    assert not pad.any(), f"padding slots must neither attend nor be attended: {pad.nonzero()[0].tolist()}"
    assert torch.equal(mask, w_mask), "within a document every key j <= query i must be allowed"


@pytest.mark.parametrize("lengths, seq_len", [
    ([6, 4, 2, 3], 8),          # the prompt's example: doc2 goes back to row 0
    ([8], 8),                   # one full row, no padding
    ([3, 3, 3], 4),             # nothing fits together
    ([1, 1, 1, 1, 1], 2),       # many tiny documents
    ([5, 7, 3, 1, 2, 6, 4], 8),
])
def test_hand_built(candidate, device, lengths, seq_len):
    check(candidate, lengths, seq_len, device)


def test_pad_id(candidate, device):
    check(candidate, [3, 2], 8, device, pad_id=7)


@pytest.mark.parametrize("seq_len", [16, 32])
def test_random_batches(candidate, device, seed, seq_len):
    n_docs = int(torch.randint(1, 20, ()))
    lengths = torch.randint(1, seq_len + 1, (n_docs,)).tolist()
    check(candidate, lengths, seq_len, device)


def test_random_shapes_and_pad_ids(candidate, device, seed):
    """Odd and tiny seq_len (1 included), mostly-short documents (so rows hold many), non-zero pad_id,
    and documents that are non-contiguous views."""
    g = torch.Generator().manual_seed(100 + seed)
    for case in range(4):
        seq_len = [1, 7, 13, 29][case]
        n_docs = int(torch.randint(1, 25, (), generator=g))
        cap = seq_len if case % 2 else max(1, seq_len // 3)
        lengths = torch.randint(1, cap + 1, (n_docs,), generator=g).tolist()
        pad_id = int(torch.randint(1, 50000, (), generator=g))
        check(candidate, lengths, seq_len, device, pad_id=pad_id, strided=bool(case % 2))


def test_calls_are_independent(candidate, device):
    """Two packings in a row: nothing from the first call may leak into the second."""
    check(candidate, [5, 2, 6], 8, device)
    check(candidate, [1, 3], 8, device, pad_id=9)
    check(candidate, [4, 4, 4], 5, device)


@pytest.mark.parametrize("lengths, seq_len, why", [
    ([], 8, "an empty list of documents"),
    ([9], 8, "a document longer than seq_len"),
    ([3, 9, 2], 8, "a document longer than seq_len (in the middle of the list)"),
    ([0, 3], 8, "an empty document (first)"),
    ([3, 0], 8, "an empty document (last)"),
])
def test_invalid(candidate, device, lengths, seq_len, why):
    docs = [torch.arange(n, device=device) for n in lengths]
    with pytest.raises(ValueError):
        candidate.pack_documents(docs, seq_len)
        pytest.fail(f"{why} must raise ValueError")


def benchmark_case(module, device):
    torch.manual_seed(0)
    docs = [torch.randint(0, 50000, (int(n),), device=device) for n in torch.randint(1, 513, (256,))]
    return lambda: module.pack_documents(docs, 512)
