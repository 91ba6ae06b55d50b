"""Hidden tests for the checkpoint-wrapper drill."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential


class Logged(nn.Module):
    """Linear + tanh that appends its index to a shared log on every forward call."""

    def __init__(self, idx: int, width: int, log: list[int]):
        super().__init__()
        self.idx = idx
        self.lin = nn.Linear(width, width)
        self.log = log

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.log.append(self.idx)
        return torch.tanh(self.lin(x))


def make_layers(n: int, width: int, device: str, log: list[int] | None = None) -> list[nn.Module]:
    log = [] if log is None else log
    return [Logged(i, width, log).to(device) for i in range(n)]


def expected_backward_order(n: int, every: int) -> list[int]:
    starts = list(range(0, n, every))
    order: list[int] = []
    for s in reversed(starts):
        order.extend(range(s, min(s + every, n)))
    return order


@pytest.mark.parametrize("n_layers,every", [(4, 2), (5, 2), (6, 3), (5, 1), (3, 8)])
def test_matches_sequential(candidate, device, seed, n_layers, every):
    layers = make_layers(n_layers, 24, device)
    plain = nn.Sequential(*copy.deepcopy(layers))
    model = candidate.CheckpointedSequential(layers, every=every)
    x = torch.randn(16, 24, device=device, requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    x_before = x.detach().clone()
    y = model(x)
    y_ref = plain(x_ref)
    assert torch.equal(x.detach(), x_before), "forward modified its input in place"
    torch.testing.assert_close(y, y_ref, msg=lambda m: "output differs from nn.Sequential\n" + m)
    g = torch.randn_like(y)
    y.backward(g)
    y_ref.backward(g)
    torch.testing.assert_close(x.grad, x_ref.grad, msg=lambda m: "input gradient differs from nn.Sequential\n" + m)
    for i, (a, b) in enumerate(zip(layers, plain)):
        for (name, p), p_ref in zip(a.named_parameters(), b.parameters()):
            assert p.grad is not None, f"layer {i} {name}: no gradient"
            torch.testing.assert_close(p.grad, p_ref.grad, msg=lambda m: f"layer {i} {name}: grad differs\n" + m)


def test_parameters_are_the_layers(candidate, device):
    layers = make_layers(5, 8, device)
    model = candidate.CheckpointedSequential(layers, every=2)
    assert isinstance(getattr(model, "layers", None), nn.ModuleList), "store the layers as self.layers = nn.ModuleList"
    assert all(a is b for a, b in zip(model.layers, layers)) and len(model.layers) == 5, (
        "self.layers must hold the given layer objects, in order (not copies)"
    )
    ids = {id(p) for p in model.parameters()}
    assert ids == {id(p) for l in layers for p in l.parameters()}, "model.parameters() must be the layers' parameters"


def test_input_without_grad(candidate, device, seed):
    layers = make_layers(4, 16, device)
    plain = nn.Sequential(*copy.deepcopy(layers))
    model = candidate.CheckpointedSequential(layers, every=2)
    x = torch.randn(8, 16, device=device)
    model(x).square().sum().backward()
    plain(x).square().sum().backward()
    for i, (a, b) in enumerate(zip(layers, plain)):
        assert a.lin.weight.grad is not None, (
            f"layer {i} got no weight gradient when the input does not require grad "
            "(reentrant checkpoint? use use_reentrant=False)"
        )
        torch.testing.assert_close(a.lin.weight.grad, b.lin.weight.grad)


@pytest.mark.parametrize("every", [0, -1, -3])
def test_bad_every(candidate, every):
    with pytest.raises(ValueError):
        candidate.CheckpointedSequential([nn.Linear(2, 2)], every=every)
        pytest.fail(f"every={every} must raise ValueError (every >= 1)")


@pytest.mark.parametrize("n_layers,every", [(8, 2), (7, 3)])
def test_saved_activation_bytes(candidate, device, n_layers, every):
    batch, width = 512, 16
    act_bytes = batch * width * 4
    n_segments = math.ceil(n_layers / every)

    def saved_bytes(module: nn.Module) -> int:
        total = 0

        def pack(t: torch.Tensor) -> torch.Tensor:
            nonlocal total
            total += t.numel() * t.element_size()
            return t

        x = torch.randn(batch, width, device=device, requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            y = module(x)
        y.sum().backward()
        return total

    layers = make_layers(n_layers, width, device)
    plain = saved_bytes(nn.Sequential(*copy.deepcopy(layers)))
    ckpt = saved_bytes(candidate.CheckpointedSequential(layers, every=every))
    limit = n_segments * act_bytes
    assert ckpt <= limit, (
        f"saved {ckpt} bytes for backward; only the {n_segments} segment inputs ({limit} bytes) should be "
        f"saved (plain nn.Sequential saves {plain}). Is every layer inside a checkpointed segment, "
        "and are segments `every` layers long rather than one layer each?"
    )


@pytest.mark.parametrize("n_layers,every", [(4, 2), (5, 2), (7, 3), (3, 1), (3, 5)])
def test_recomputation_order(candidate, device, n_layers, every):
    log: list[int] = []
    model = candidate.CheckpointedSequential(make_layers(n_layers, 8, device, log), every=every)
    x = torch.randn(4, 8, device=device, requires_grad=True)
    y = model(x)
    assert log == list(range(n_layers)), f"forward should call layers 0..{n_layers - 1} once each, got {log}"
    del log[:]
    y.sum().backward()
    want = expected_backward_order(n_layers, every)
    assert log == want, (
        f"backward recomputed layers in order {log}; expected {want} "
        f"(segments of {every}, last segment first, layers in order within a segment)"
    )


@pytest.mark.parametrize("n_layers,every", [(5, 2), (3, 3)])
def test_autograd_grad_and_inputs(candidate, device, seed, n_layers, every):
    """torch.autograd.grad works through the model (the reentrant checkpoint refuses it)."""
    layers = make_layers(n_layers, 12, device)
    plain = nn.Sequential(*copy.deepcopy(layers))
    model = candidate.CheckpointedSequential(layers, every=every)
    params = [p for l in layers for p in l.parameters()]
    for x_grad in (True, False):
        x = torch.randn(2, 3, 12, device=device, requires_grad=x_grad)
        wrt = ([x] if x_grad else []) + params
        try:
            got = torch.autograd.grad(model(x).square().sum(), wrt)
        except RuntimeError as e:
            raise AssertionError(
                f"torch.autograd.grad(loss, [x, *every layer parameter]) failed: {e}\n(it must work like for "
                "nn.Sequential: x and the given layers' parameters are all in the graph, and every segment runs "
                "under checkpoint(fn, x, use_reentrant=False); the reentrant variant refuses .grad())") from None
        want = torch.autograd.grad(plain(x).square().sum(), ([x] if x_grad else []) + list(plain.parameters()))
        for i, (a, b) in enumerate(zip(got, want)):
            torch.testing.assert_close(a, b, msg=lambda m: f"autograd.grad result {i} differs from nn.Sequential:\n" + m)
        assert x.requires_grad == x_grad, "forward must not change the input's requires_grad"


class Noisy(nn.Module):
    """Logged layer followed by dropout: the recomputation must replay the same random mask."""

    def __init__(self, idx: int, width: int, log: list[int]):
        super().__init__()
        self.inner = Logged(idx, width, log)
        self.drop = nn.Dropout(0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.inner(x))


@pytest.mark.parametrize("n_layers,every", [(4, 2), (5, 3)])
def test_random_layers_recompute_same_randomness(candidate, device, seed, n_layers, every):
    log: list[int] = []
    layers = [Noisy(i, 16, log).to(device).train() for i in range(n_layers)]
    plain = nn.Sequential(*copy.deepcopy(layers)).train()
    model = candidate.CheckpointedSequential(layers, every=every)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.manual_seed(1234 + seed)
    y_ref = plain(x_ref)
    torch.manual_seed(1234 + seed)
    y = model(x)
    torch.testing.assert_close(y, y_ref, msg=lambda m: (
        "with dropout layers and the same seed, the output differs from nn.Sequential:\n" + m))
    g = torch.randn_like(y)
    y_ref.backward(g)
    y.backward(g)
    torch.testing.assert_close(x.grad, x_ref.grad, msg=lambda m: (
        "with dropout layers, the input gradient differs from nn.Sequential: the recomputation must replay "
        "the forward's random numbers (keep checkpoint's default preserve_rng_state=True):\n" + m))
    for i, (a, b) in enumerate(zip(layers, plain)):
        torch.testing.assert_close(a.inner.lin.weight.grad, b.inner.lin.weight.grad, msg=lambda m: (
            f"with dropout layers, layer {i}'s weight gradient differs from nn.Sequential:\n" + m))


def test_cuda_memory_drops(candidate, device):
    if device != "cuda":
        pytest.skip("allocator statistics are CUDA-only (the CPU check is test_saved_activation_bytes)")
    torch.cuda.synchronize()

    def retained(module: nn.Module) -> int:
        x = torch.randn(2048, 1024, device=device, requires_grad=True)
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        y = module(x)
        torch.cuda.synchronize()
        kept = torch.cuda.memory_allocated() - before
        y.sum().backward()
        return kept

    layers = [nn.Sequential(nn.Linear(1024, 1024), nn.GELU()).to(device) for _ in range(8)]
    plain = retained(nn.Sequential(*copy.deepcopy(layers)))
    ckpt = retained(candidate.CheckpointedSequential(layers, every=2))
    assert ckpt < 0.5 * plain, f"memory kept after forward: checkpointed {ckpt} B vs plain {plain} B"


BENCH_SIZE = {"cuda": (1024, 1024), "cpu": (256, 256)}  # width, batch


def bench_inputs(device):
    """Eight seeded Linear + GELU layers and an input, for both cases below."""
    torch.manual_seed(0)
    width, batch = BENCH_SIZE[device]
    layers = [nn.Sequential(nn.Linear(width, width), nn.GELU()).to(device) for _ in range(8)]
    return layers, torch.randn(batch, width, device=device, requires_grad=True)


def training_step(model, x):
    """Forward and backward once; returns x's gradient from this step alone."""

    def step():
        x.grad = None
        model(x).sum().backward()
        return x.grad

    return step


def benchmark_case(module, device):
    layers, x = bench_inputs(device)
    return training_step(module.CheckpointedSequential(layers, every=2), x)


def builtin_case(device):
    """The same segments of two by torch.utils.checkpoint.checkpoint_sequential.

    It runs its last segment without checkpointing (backward follows at once), so it recomputes
    6 of the 8 layers where the drill's contract, which checkpoints every segment, recomputes 8.
    """
    layers, x = bench_inputs(device)
    plain = nn.Sequential(*layers)
    return training_step(lambda inputs: checkpoint_sequential(plain, 4, inputs, use_reentrant=False), x)
