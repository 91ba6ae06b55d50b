"""Hidden tests for the triton-fused-softmax drill.

Without CUDA (or with DRILL_DEVICE=cpu) the kernel runs in Triton's CPU interpreter: TRITON_INTERPRET
must be set before triton is imported, so it is set here at import time. With CUDA, kernels are
compiled and only the cuda cases run.

The result must come from softmax_kernel: a spy stands in for the kernel, fills the output buffer with
NaN before the launch and snapshots it after, and the returned tensor must be that buffer, untouched
since; the candidate's own Python code may not run torch arithmetic (exp/amax/sub/softmax/...). Under the
interpreter every load and store is bounds-checked and each input element must be loaded once.
softmax_kernel is also launched directly with padded input and output rows and a wider BLOCK_SIZE.
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
SHAPES = [(1, 1), (4, 7), (16, 128), (13, 781), (8, 1000), (3, 4096)]


@pytest.fixture
def tdevice(device: str) -> str:
    """The device fixture, minus the cpu case when kernels are compiled for CUDA."""
    if device == "cpu" and not INTERPRET:
        pytest.skip("compiled Triton kernels need CUDA tensors; DRILL_DEVICE=cpu runs them in the interpreter")
    return device


def skip_bf16_in_interpreter(dtype):
    if dtype == torch.bfloat16 and INTERPRET:
        pytest.skip("Triton's CPU interpreter has no real bfloat16 (numpy has none); bfloat16 runs on cuda only")


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
    return spy_on(candidate, monkeypatch, "softmax_kernel", "out_ptr")


def check_single_read(launch, x):
    """Interpreter only: every element of x was loaded exactly once by the launch."""
    if launch.watch is None or x.numel() == 0:
        return
    import numpy as np

    lo, hi = span(x)
    loaded = np.concatenate(launch.watch.loaded) if launch.watch.loaded else np.zeros(0, dtype=np.uint64)
    loaded = loaded[(loaded >= lo) & (loaded < hi)]
    addrs, counts = np.unique(loaded, return_counts=True)
    assert counts.max(initial=0) <= 1, (
        f"softmax_kernel loaded some input elements {int(counts.max())} times: read each row from global "
        "memory once (keep it in registers for the max, the exponentials and the sum)")


def run(candidate, spy, x):
    x0 = x.clone()
    with OpRecorder() as rec:
        out = candidate.softmax(x)
    assert torch.equal(x, x0), "softmax must not modify its input"
    assert isinstance(out, torch.Tensor), f"softmax must return a tensor, got {type(out).__name__}"
    n_rows, n_cols = x.shape
    assert len(spy.launches) == 1, f"launch softmax_kernel exactly once per call, got {len(spy.launches)} launches"
    launch = spy.launches[0]
    assert launch.grid == (n_rows,), f"one program per row: the grid must be ({n_rows},), got {launch.grid}"
    assert not rec.computed(), (
        f"softmax ran torch arithmetic {rec.computed()} outside softmax_kernel: the kernel must compute the "
        "max, the exponentials, the sum and the division")
    spy.check_result(out, "softmax")
    check_single_read(launch, x)
    spy.launches.clear()
    assert out.shape == x.shape and out.dtype == x.dtype and out.device == x.device, (
        f"output must have x's shape/dtype/device {tuple(x.shape)}/{x.dtype}/{x.device}, "
        f"got {tuple(out.shape)}/{out.dtype}/{out.device}")
    assert out.is_contiguous(), "output must be a new contiguous tensor"
    return out


def want(x):
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax(candidate, spy, tdevice, seed, shape, dtype):
    skip_bf16_in_interpreter(dtype)
    x = (torch.randn(shape, device=tdevice) * 3).to(dtype)
    out = run(candidate, spy, x)
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        f"softmax of a {shape} {dtype} input is wrong (mask lanes >= n_cols with other=-inf? NaN = an "
        "element the kernel never stored):\n" + m))


def test_random_shapes(candidate, spy, tdevice, seed):
    g = torch.Generator().manual_seed(500 + seed)
    for _ in range(3):
        rows, cols = int(torch.randint(1, 12, (1,), generator=g)), int(torch.randint(1, 1500, (1,), generator=g))
        x = (torch.randn(rows, cols, generator=g) * 4 - 2).to(tdevice)
        out = run(candidate, spy, x)
        torch.testing.assert_close(out, want(x), msg=lambda m: f"softmax of a ({rows}, {cols}) input is wrong:\n" + m)


@pytest.mark.parametrize("n_cols", [7, 781])
def test_padded_rows(candidate, spy, tdevice, seed, n_cols):
    big = torch.randn(9, n_cols + 13, device=tdevice)
    x = big[:, :n_cols]  # row stride n_cols + 13
    out = run(candidate, spy, x)
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        f"rows are {n_cols + 13} elements apart in memory: index the input with x.stride(0), "
        "the output with its own stride:\n" + m))


@pytest.mark.parametrize("n_cols,wider", [(7, 1), (100, 1), (100, 2), (64, 2)])
def test_kernel_direct_padded_output(candidate, spy, tdevice, seed, n_cols, wider):
    """softmax_kernel launched directly: input rows n_cols + 5 apart, output rows n_cols + 11 apart
    (padding cells stay NaN), BLOCK_SIZE = next_power_of_2(n_cols) * wider."""
    rows = 5
    g = torch.Generator().manual_seed(seed * 31 + n_cols)
    x = (torch.randn(rows, n_cols + 5, generator=g) * 3).to(tdevice)[:, :n_cols]
    outbuf = torch.full((rows + 1, n_cols + 11), float("nan"), device=tdevice)
    out = outbuf[:rows, :n_cols]
    block = triton.next_power_of_2(n_cols) * wider
    spy[(rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=block)
    spy.launches.clear()
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        f"softmax_kernel[({rows},)](out, x, {x.stride(0)}, {out.stride(0)}, {n_cols}, BLOCK_SIZE={block}) is "
        "wrong: use in_row_stride for the input rows, out_row_stride for the output rows, mask lanes >= "
        "n_cols:\n" + m))
    pad = outbuf.clone()
    pad[:rows, :n_cols] = float("nan")
    assert pad.isnan().all(), (
        f"softmax_kernel wrote outside out[:, :{n_cols}] (rows {out.stride(0)} apart): mask the store and use "
        "out_row_stride")


@pytest.mark.parametrize("dtype", DTYPES)
def test_huge_logits_stay_finite(candidate, spy, tdevice, seed, dtype):
    skip_bf16_in_interpreter(dtype)
    x = (torch.randn(6, 300, device=tdevice) * 1e4).to(dtype)
    out = run(candidate, spy, x)
    assert torch.isfinite(out).all(), "inf/NaN for logits of scale 1e4: subtract the row max before exp"
    torch.testing.assert_close(out, want(x), msg=lambda m: "wrong softmax for large logits:\n" + m)


def test_all_negative_rows(candidate, spy, tdevice, seed):
    """Every logit far below 0 (and a 1-column row): masked lanes must not win the max."""
    x = torch.rand(6, 37, device=tdevice) * 5 - 200
    out = run(candidate, spy, x)
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        "wrong softmax for all-negative rows: load masked lanes with other=-inf so they never win the max:\n" + m))


def test_minus_inf_entries(candidate, spy, tdevice, seed):
    x = torch.randn(5, 50, device=tdevice)
    x[:, 1::3] = float("-inf")
    out = run(candidate, spy, x)
    assert (out[:, 1::3] == 0).all(), "-inf logits must get probability exactly 0"
    torch.testing.assert_close(out, want(x), msg=lambda m: "wrong softmax with -inf entries:\n" + m)


def test_invalid_inputs(candidate, tdevice):
    with pytest.raises(ValueError):
        candidate.softmax(torch.randn(8, device=tdevice))
    with pytest.raises(ValueError):
        candidate.softmax(torch.randn(2, 4, 4, device=tdevice))
    with pytest.raises(ValueError):
        candidate.softmax(torch.randn(8, 4, device=tdevice).T)


BENCH_SHAPE = {"cuda": (4096, 1024), "cpu": (64, 1024)}  # the CPU interpreter is slow


def bench_inputs(device):
    """The seeded logits that benchmark_case and builtin_case both normalise."""
    torch.manual_seed(0)
    return torch.randn(BENCH_SHAPE[device], device=device)


def benchmark_case(module, device):
    x = bench_inputs(device)
    return lambda: module.softmax(x)


def builtin_case(device):
    """The same row-wise softmax by torch's fused kernel."""
    x = bench_inputs(device)
    return lambda: torch.softmax(x, dim=-1)


def bytes_moved(device):
    """Read every float32 logit once and write every probability once: 2 * rows * cols * 4 bytes."""
    rows, cols = BENCH_SHAPE[device]
    return 2 * rows * cols * 4
