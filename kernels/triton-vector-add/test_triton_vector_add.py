"""Hidden tests for the triton-vector-add drill.

Without CUDA (or with DRILL_DEVICE=cpu) the kernel runs in Triton's CPU interpreter: TRITON_INTERPRET
must be set before triton is imported, so it is set here at import time. With CUDA, kernels are
compiled and only the cuda cases run.

The result must come from add_kernel: a spy stands in for the kernel, fills the output buffer with NaN
before each launch and snapshots it after, and the returned tensor must be that buffer, untouched since;
the candidate's own Python code may not run torch arithmetic (add/sub/mul/...). add_kernel is also
launched directly with other BLOCK_SIZEs, on vectors surrounded by guard cells.
"""

from __future__ import annotations

import contextlib
import inspect
import os

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

INTERPRET = os.environ.get("DRILL_DEVICE") == "cpu" or not torch.cuda.is_available()
if INTERPRET:
    os.environ["TRITON_INTERPRET"] = "1"
triton = pytest.importorskip("triton", reason="Triton is not installed (pip install triton; Linux only)")

DTYPES = [torch.float32, torch.float16, torch.bfloat16]


@pytest.fixture
def tdevice(device: str) -> str:
    """The device fixture, minus the cpu case when kernels are compiled for CUDA."""
    if device == "cpu" and not INTERPRET:
        pytest.skip("compiled Triton kernels need CUDA tensors; DRILL_DEVICE=cpu runs them in the interpreter")
    return device


def skip_bf16_in_interpreter(dtype):
    if dtype == torch.bfloat16 and INTERPRET:
        pytest.skip("Triton's CPU interpreter computes bfloat16 arithmetic on raw bits (numpy has no bfloat16); "
                    "bfloat16 runs compiled on cuda only")


# ---------------------------------------------------------------------------------------------
# Launch spy: proves the returned tensor is what the candidate's kernel wrote.
# ---------------------------------------------------------------------------------------------

# torch ops that compute values (not allocations, views or copies); the candidate's Python code
# outside its kernel launches must not call any of them.
COMPUTE_OPS = {
    "add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide", "neg", "reciprocal", "pow",
    "sum", "nansum", "cumsum", "mean", "addcmul", "addcdiv", "lerp", "exp", "exp2", "expm1", "log",
    "softmax", "_softmax", "log_softmax", "_log_softmax", "logsumexp", "amax", "amin", "max", "min",
    "maximum", "minimum", "aminmax", "sigmoid", "sort", "topk", "mm", "bmm", "matmul", "addmm",
    "linear", "einsum", "clamp", "clamp_min", "clamp_max", "where", "special_softmax",
    "_safe_softmax", "_masked_softmax", "prod", "square", "sqrt", "rsqrt", "tanh",
}


class _Flags:
    paused = False


class OpRecorder(TorchDispatchMode):
    """Records every aten op the candidate's Python code runs (not those inside our launch wrapper)."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if not _Flags.paused:
            self.ops.append(func.overloadpacket.__name__)
        return func(*args, **(kwargs or {}))

    def computed(self):
        return sorted({op for op in self.ops if op.rstrip("_") in COMPUTE_OPS or op in COMPUTE_OPS})


@contextlib.contextmanager
def paused():
    old, _Flags.paused = _Flags.paused, True
    try:
        yield
    finally:
        _Flags.paused = old


def storage_bytes(t):
    """A copy of the whole storage under t, as bytes."""
    return torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage()).clone()


def span(t):
    """[first, last) byte addresses a tensor view covers."""
    if t.numel() == 0:
        return (t.data_ptr(), t.data_ptr())
    extent = sum((size - 1) * abs(stride) for size, stride in zip(t.shape, t.stride())) + 1
    return (t.data_ptr(), t.data_ptr() + extent * t.element_size())


class MemoryWatch:
    """Interpreter only: checks every unmasked load/store lane lies inside a tensor argument of the
    launch (an out-of-bounds store would otherwise scribble on the heap), and counts loads."""

    def __init__(self, tensors):
        self.spans = [span(t) for t in tensors if t.numel()]
        self.error = None
        self.loaded = []  # numpy arrays of loaded byte addresses

    def _check(self, what, ptrs, mask):
        import numpy as np

        addr = np.asarray(ptrs.data).astype(np.uint64).ravel()
        m = np.broadcast_to(np.asarray(mask.data).astype(bool), np.asarray(ptrs.data).shape).ravel()
        addr = addr[m]
        width = ptrs.get_element_ty().primitive_bitwidth // 8
        ok = np.zeros(addr.shape, dtype=bool)
        for lo, hi in self.spans:
            ok |= (addr >= lo) & (addr + width <= hi)
        if not ok.all():
            self.error = (f"the kernel {what} {int((~ok).sum())} element(s) outside every tensor it was given "
                          "(past the end of a row/vector?): mask every tl.load and tl.store with offsets < size")
            raise IndexError(self.error)
        return addr

    @contextlib.contextmanager
    def installed(self):
        from triton.runtime import interpreter

        builder = interpreter.interpreter_builder
        load, store = builder.create_masked_load, builder.create_masked_store

        def masked_load(ptrs, mask, other, *rest):
            self.loaded.append(self._check("loads", ptrs, mask))
            return load(ptrs, mask, other, *rest)

        def masked_store(ptrs, value, mask, *rest):
            self._check("stores", ptrs, mask)
            return store(ptrs, value, mask, *rest)

        builder.create_masked_load, builder.create_masked_store = masked_load, masked_store
        try:
            yield self
        finally:
            del builder.create_masked_load, builder.create_masked_store


class Launch:
    def __init__(self, grid, args, out, watch):
        self.grid, self.args, self.out, self.watch = grid, args, out, watch
        self.written = None  # the out storage's bytes right after the kernel ran


class KernelSpy:
    """Stands in for the candidate's kernel. Every `kernel[grid](...)` launch is recorded (grid and
    arguments by name); the output argument `out_name` is filled with NaN before the kernel runs and its
    storage is snapshotted right after, so the tests can tell that the returned tensor holds exactly what
    the kernel stored. Under the interpreter every load and store is bounds-checked."""

    def __init__(self, kernel, out_name):
        self.kernel, self.out_name, self.launches = kernel, out_name, []
        self.signature = inspect.signature(kernel.fn)

    def __getitem__(self, grid):
        launcher = self.kernel[grid]

        def launch(*args, **kwargs):
            known = {k: v for k, v in kwargs.items() if k in self.signature.parameters}
            try:
                bound = self.signature.bind(*args, **known)
            except TypeError as e:
                raise AssertionError(f"{self.kernel.fn.__name__} launched with arguments that do not fit its "
                                     f"signature {self.signature}: {e}") from None
            bound.apply_defaults()
            meta = dict(bound.arguments)
            g = grid(meta) if callable(grid) else grid
            g = tuple(int(v) for v in (g if isinstance(g, (tuple, list)) else (g,)))
            while len(g) > 1 and g[-1] == 1:
                g = g[:-1]
            out = meta.get(self.out_name)
            tensors = [v for v in meta.values() if isinstance(v, torch.Tensor)]
            watch = MemoryWatch(tensors) if INTERPRET else None
            record = Launch(g, meta, out, watch)
            self.launches.append(record)
            with paused():
                if isinstance(out, torch.Tensor) and out.is_floating_point():
                    out.fill_(float("nan"))
                try:
                    if watch is not None:
                        with watch.installed():
                            result = launcher(*args, **kwargs)
                    else:
                        result = launcher(*args, **kwargs)
                except Exception:
                    if watch is not None and watch.error:
                        raise AssertionError(watch.error) from None
                    raise
                if isinstance(out, torch.Tensor):
                    record.written = storage_bytes(out)
            return result

        return launch

    def __getattr__(self, name):
        return getattr(self.kernel, name)

    def check_result(self, result, what):
        """`result` must share storage with a launch's output argument, unchanged since that launch."""
        assert self.launches, f"{what} must launch its kernel (kernel[grid](...)); do not compute with torch"
        mine = [launch for launch in self.launches if isinstance(launch.out, torch.Tensor)
                and launch.out.untyped_storage().data_ptr() == result.untyped_storage().data_ptr()]
        assert mine, (f"{what} must return the tensor its kernel wrote (the {self.out_name} argument of the "
                      "launch, or a view of it), not a tensor computed some other way")
        assert torch.equal(storage_bytes(result), mine[-1].written), (
            f"the tensor {what} returns was changed after the kernel wrote it: the kernel's stores must be "
            "the result")


def spy_on(candidate, monkeypatch, name, out_name):
    kernel = getattr(candidate, name, None)
    assert isinstance(kernel, triton.runtime.KernelInterface), \
        f"the module must define a module-level @triton.jit kernel named {name}"
    spy = KernelSpy(kernel, out_name)
    monkeypatch.setattr(candidate, name, spy)
    return spy


@pytest.fixture
def spy(candidate, monkeypatch):
    return spy_on(candidate, monkeypatch, "add_kernel", "out_ptr")


def random_sizes(seed: int) -> list[int]:
    """Odd sizes with tails, drawn from a generator seeded by the test's seed."""
    g = torch.Generator().manual_seed(1000 + seed)
    return [int(torch.randint(2, 3000, (1,), generator=g)) for _ in range(2)]


def call_add(candidate, spy, x, y):
    x0, y0 = x.clone(), y.clone()
    with OpRecorder() as rec:
        out = candidate.add(x, y)
    assert torch.equal(x, x0) and torch.equal(y, y0), "add must not modify its inputs"
    assert isinstance(out, torch.Tensor), f"add must return a tensor, got {type(out).__name__}"
    assert not rec.computed(), (
        f"add ran torch arithmetic {rec.computed()} outside add_kernel: the kernel must compute the sum")
    spy.check_result(out, "add")
    for launch in spy.launches:
        n, block = launch.args.get("n_elements"), launch.args.get("BLOCK_SIZE")
        if isinstance(n, int) and isinstance(block, int) and block > 0:
            assert launch.grid == (triton.cdiv(n, block),), (
                f"launch a 1-D grid of triton.cdiv(n_elements, BLOCK_SIZE) = {triton.cdiv(n, block)} programs "
                f"(n_elements={n}, BLOCK_SIZE={block}), got grid {launch.grid}")
    spy.launches.clear()
    assert out.shape == x.shape and out.dtype == x.dtype and out.device == x.device, (
        f"output must have x's shape/dtype/device {tuple(x.shape)}/{x.dtype}/{x.device}, "
        f"got {tuple(out.shape)}/{out.dtype}/{out.device}")
    assert out.is_contiguous(), "output must be contiguous"
    assert out.data_ptr() not in (x.data_ptr(), y.data_ptr()), "return a new tensor, do not write into x or y"
    return out


@pytest.mark.parametrize("shape", [(1,), (17,), (1024,), (1025,), (5000,), (3, 5, 7), (2, 1, 513)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_add(candidate, spy, tdevice, seed, shape, dtype):
    skip_bf16_in_interpreter(dtype)
    x = torch.randn(shape, device=tdevice).to(dtype)
    y = torch.randn(shape, device=tdevice).to(dtype)
    out = call_add(candidate, spy, x, y)
    torch.testing.assert_close(out, x + y, msg=lambda m: (
        f"wrong sum for shape {shape} (NaN = an element the kernel never stored: is the tail past the last "
        "full block covered and masked?):\n" + m))


def test_add_random_sizes(candidate, spy, tdevice, seed):
    for n in random_sizes(seed):
        x = torch.randn(n, device=tdevice)
        y = torch.randn(n, device=tdevice)
        out = call_add(candidate, spy, x, y)
        torch.testing.assert_close(out, x + y, msg=lambda m: f"wrong sum for n={n}:\n" + m)


@pytest.mark.parametrize("block", [16, 64, 256])
def test_kernel_with_other_block_sizes(candidate, spy, tdevice, seed, block):
    """add_kernel launched directly: any power-of-two BLOCK_SIZE, n not a multiple of it, guard cells."""
    g = torch.Generator().manual_seed(seed * 7 + block)
    guard = 2 * block
    for n in (1, block - 1, block + 1, int(torch.randint(3 * block, 9 * block, (1,), generator=g))):
        xs = torch.full((n + 2 * guard,), float("nan"), device=tdevice)
        ys, outs = xs.clone(), xs.clone()
        x, y, out = xs[guard:guard + n], ys[guard:guard + n], outs[guard:guard + n]
        x.copy_(torch.randn(n, generator=g).to(tdevice))
        y.copy_(torch.randn(n, generator=g).to(tdevice))
        spy[(triton.cdiv(n, block),)](x, y, out, n, BLOCK_SIZE=block)
        spy.launches.clear()
        torch.testing.assert_close(out, x + y, msg=lambda m: (
            f"add_kernel[(cdiv({n}, {block}),)](x, y, out, {n}, BLOCK_SIZE={block}) computed the wrong sum: "
            "use pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE), not a hard-coded block size:\n" + m))
        assert outs[:guard].isnan().all() and outs[guard + n:].isnan().all(), (
            f"add_kernel (BLOCK_SIZE={block}, n={n}) stored outside out[0:{n}]: mask the store with offsets < n")


def test_mismatch_raises(candidate, tdevice):
    x = torch.randn(8, device=tdevice)
    with pytest.raises(ValueError):
        candidate.add(x, torch.randn(9, device=tdevice))
    with pytest.raises(ValueError):
        candidate.add(x, torch.randn(8, device=tdevice, dtype=torch.float16))
    with pytest.raises(ValueError):  # same numel, different shape
        candidate.add(torch.randn(2, 4, device=tdevice), torch.randn(4, 2, device=tdevice))


BENCH_N = {"cuda": 1 << 24, "cpu": 1 << 16}  # the CPU interpreter is slow


def bench_inputs(device):
    """The seeded x and y that benchmark_case and builtin_case both add."""
    torch.manual_seed(0)
    n = BENCH_N[device]
    return torch.randn(n, device=device), torch.randn(n, device=device)


def benchmark_case(module, device):
    x, y = bench_inputs(device)
    return lambda: module.add(x, y)


def builtin_case(device):
    """The same sum by torch's own elementwise add."""
    x, y = bench_inputs(device)
    return lambda: x + y


def bytes_moved(device):
    """Read x and y, write out: 3 float32 vectors of n elements (4 bytes each)."""
    return 3 * BENCH_N[device] * 4
