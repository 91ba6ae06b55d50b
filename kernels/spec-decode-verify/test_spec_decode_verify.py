"""Hidden tests for the spec-decode-verify drill (rejection-sampling verification)."""

from __future__ import annotations

import pytest
import torch

K, V = 3, 6
TRIALS = 3000
CHI2_CRIT = {V - 1: 35.89}  # chi-square critical value at p = 1e-6 for V - 1 degrees of freedom
Z_CRIT = 5.2  # two-sided normal bound, p ~ 2e-7


def dists(rows: int, device: str, sharp: float = 1.5) -> torch.Tensor:
    """Random distributions with every probability >= 0.3 / V (keeps chi-square expected counts large)."""
    return (0.7 * torch.softmax(torch.randn(rows, V) * sharp, -1) + 0.3 / V).to(device)


def gen(device: str, seed: int) -> torch.Generator:
    return torch.Generator(device=device).manual_seed(seed)


def call(candidate, p, q, d, g):
    p0, q0, d0 = p.clone(), q.clone(), d.clone()
    out = candidate.verify(p, q, d, g)
    assert torch.equal(p, p0) and torch.equal(q, q0) and torch.equal(d, d0), "verify must not modify its inputs"
    assert isinstance(out, torch.Tensor) and out.dim() == 1 and out.dtype == torch.int64, \
        f"output must be a 1-D int64 tensor, got {type(out)} {getattr(out, 'dtype', '')} {getattr(out, 'shape', '')}"
    assert out.device == p.device, f"output must live on {p.device}, got {out.device}"
    k = d.shape[0]
    assert 1 <= out.numel() <= k + 1, f"must emit between 1 and k+1={k + 1} tokens, got {out.numel()}"
    n = out.numel() - 1
    assert torch.equal(out[:n], d[:n]), "all emitted tokens but the last must be the accepted draft prefix"
    return out


def chi2(counts: torch.Tensor, probs: torch.Tensor) -> float:
    exp = probs.double().cpu() * counts.sum()
    return float(((counts.double() - exp) ** 2 / exp).sum())


def test_identical_distributions_accept_all(candidate, device, seed):
    q = dists(K, device)
    bonus = torch.zeros(1, V, device=device)
    bonus[0, seed + 1] = 1.0
    p = torch.cat([q, bonus])
    g = gen(device, seed)
    for _ in range(20):
        d = torch.multinomial(q, 1).squeeze(1)
        out = call(candidate, p, q, d, g)
        want = torch.cat([d, torch.tensor([seed + 1], device=device)])
        assert torch.equal(out, want), \
            f"with p == q every draft must be accepted and the bonus drawn from p[k]: want {want.tolist()}, got {out.tolist()}"


@pytest.mark.parametrize("reject_at", [0, 1, 2])
def test_forced_rejection_emits_residual(candidate, device, seed, reject_at):
    q = dists(K, device)
    p = torch.cat([q, dists(1, device)])
    d = torch.multinomial(q, 1).squeeze(1)
    x = int(d[reject_at])
    # row reject_at: p puts no mass on the draft, and exceeds q only at token r
    r = (x + 1 + seed) % V
    row = q[reject_at].clone()
    row[r] += row[x]
    row[x] = 0.0
    p[reject_at] = row
    g = gen(device, 100 + seed)
    for _ in range(10):
        out = call(candidate, p, q, d, g)
        want = torch.cat([d[:reject_at], torch.tensor([r], device=device)])
        assert torch.equal(out, want), (
            f"p[{reject_at}, draft] = 0 forces a rejection there; the residual max(0, p - q) is one-hot at "
            f"token {r}: want {want.tolist()}, got {out.tolist()}")


def test_random_sizes_forced_outcomes(candidate, device, seed):
    """k from 1 up and vocabularies of other sizes, with outcomes the rule fixes: drafts where p == q are
    always kept; a row where p puts no mass on the draft rejects it and the one-hot residual decides the
    token; with every draft kept the bonus comes from a one-hot p[k]."""
    g = torch.Generator().manual_seed(500 + seed)
    for case in range(6):
        k = 1 if case == 0 else int(torch.randint(1, 7, (), generator=g))
        vocab = int(torch.randint(2, 41, (), generator=g))
        q = (0.7 * torch.softmax(torch.randn(k, vocab, generator=g) * 2, -1) + 0.3 / vocab)
        d = torch.multinomial(q, 1, generator=g).squeeze(1)
        p = torch.cat([q, torch.zeros(1, vocab)])
        reject_at = int(torch.randint(0, k + 1, (), generator=g))  # k: nothing rejected
        if reject_at < k:
            x = int(d[reject_at])
            r = (x + 1 + int(torch.randint(0, vocab - 1, (), generator=g))) % vocab
            p[reject_at, r] += p[reject_at, x]
            p[reject_at, x] = 0.0
            want = torch.cat([d[:reject_at], torch.tensor([r])])
        else:
            r = int(torch.randint(0, vocab, (), generator=g))
            want = torch.cat([d, torch.tensor([r])])
        p[k] = torch.softmax(torch.randn(vocab, generator=g), -1)
        if reject_at == k:
            p[k] = 0.0
            p[k, r] = 1.0
        p, q, d, want = p.to(device), q.to(device), d.to(device), want.to(device)
        out = call(candidate, p, q, d, gen(device, case))
        assert torch.equal(out, want), (
            f"k={k}, V={vocab}: " + (f"p[{reject_at}, draft] = 0 must reject draft {reject_at} and emit the residual's "
                                      f"only token {r}" if reject_at < k else f"p == q keeps all {k} drafts and the "
                                      f"bonus comes from the one-hot p[k] (token {r})")
            + f"; drafts before it have p == q and are always kept: want {want.tolist()}, got {out.tolist()}")


def test_deterministic_and_uses_only_the_generator(candidate, device, seed):
    p, q = dists(K + 1, device, 3.0), dists(K, device, 3.0)
    d = torch.multinomial(q, 1).squeeze(1)
    cpu_state = torch.get_rng_state()
    cuda_state = torch.cuda.get_rng_state() if device == "cuda" else None
    a = [call(candidate, p, q, d, g).tolist() for g in [gen(device, seed)] for _ in range(30)]
    b = [call(candidate, p, q, d, g).tolist() for g in [gen(device, seed)] for _ in range(30)]
    assert a == b, "the same generator seed must give the same outputs"
    assert torch.equal(torch.get_rng_state(), cpu_state), "verify must not draw from the global CPU RNG"
    if cuda_state is not None:
        assert torch.equal(torch.cuda.get_rng_state(), cuda_state), "verify must not draw from the global CUDA RNG"
    assert len({len(x) for x in a}) > 1, "with p != q the number of accepted drafts should vary between calls"


def test_output_distribution_matches_target(candidate, device, seed):
    p, q = dists(K + 1, device), dists(K, device)
    drafts = torch.multinomial(q, TRIALS, replacement=True, generator=gen(device, 7 + seed)).T.contiguous()
    g = gen(device, 1000 + seed)
    first = torch.zeros(V, dtype=torch.long)
    second = torch.zeros(V, dtype=torch.long)
    lengths = torch.zeros(K + 2, dtype=torch.long)
    for t in range(TRIALS):
        out = call(candidate, p, q, drafts[t], g).cpu()
        first[out[0]] += 1
        if out.numel() > 1:
            second[out[1]] += 1
        lengths[out.numel()] += 1

    for pos, counts in ((0, first), (1, second)):
        stat = chi2(counts, p[pos])
        assert stat < CHI2_CRIT[V - 1], (
            f"emitted token #{pos} is not distributed as p[{pos}] (chi-square {stat:.1f} > {CHI2_CRIT[V - 1]}): "
            f"observed {(counts / counts.sum()).tolist()} vs p {p[pos].tolist()}; "
            "check the acceptance ratio p/q and the residual max(0, p - q)")

    beta = torch.minimum(p[:K], q).sum(-1).double().cpu()  # per-position acceptance probability
    for name, observed, prob in (
        ("first draft accepted", int(lengths[2:].sum()), float(beta[0])),
        ("all drafts accepted", int(lengths[K + 1]), float(beta.prod())),
    ):
        z = (observed - TRIALS * prob) / (TRIALS * prob * (1 - prob)) ** 0.5
        assert abs(z) < Z_CRIT, (
            f"rate of '{name}' is {observed / TRIALS:.3f}, expected {prob:.3f} = sum(min(p, q)) "
            f"(z = {z:.1f})")


def benchmark_case(module, device):
    torch.manual_seed(0)
    k, vocab = 4, 32000
    p = torch.softmax(torch.randn(k + 1, vocab, device=device), -1)
    q = torch.softmax(torch.randn(k, vocab, device=device), -1)
    d = torch.multinomial(q, 1).squeeze(1)
    g = torch.Generator(device=device).manual_seed(0)
    return lambda: module.verify(p, q, d, g)
