"""The network families draw their topology: each one drawn, its answer recomputed here from the
hardware (NVLink's two-way figure, NIC line rates, NICs per node), not from the catalog's numbers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from drill.estimate.draw import generate, template_values
from drill.estimate.schema import families, family
from drill.estimate.score import grade, solve
from drill.estimate.template import render
from drill.estimate.validate import check

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"

NVLINK_TWO_WAY = {"a100": 12 * 50e9, "h100": 18 * 50e9, "b200": 18 * 100e9}  # per GPU, links × GB/s
NIC_BITS = {"hdr": 200e9, "ndr": 400e9}
NICS_PER_NODE = 8  # DGX/HGX: one NIC per GPU


def ring_bandwidth(network: str) -> float:
    """The bus bandwidth a ring gets, from how the GPUs are wired."""
    kind, _, part = network.rpartition("-")
    if kind == "nvlink":
        return NVLINK_TWO_WAY[part] / 2  # a GPU sends at the per-direction rate
    if kind == "rail":
        return NICS_PER_NODE * NIC_BITS[part] / 8  # one ring per NIC: the node's NICs together
    if kind == "one-nic":
        return NIC_BITS[part] / 8  # every ring leaves the node through its one NIC
    raise AssertionError(network)


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


def draws_by_network(fam, count: int = 400) -> dict[str, list]:
    rng = random.Random(13)
    seen: dict[str, list] = {}
    for _ in range(count):
        problem = generate(fam, rng)
        seen.setdefault(problem.params["network"], []).append(problem)
    return seen


ALLREDUCE_NETWORKS = {"nvlink-a100", "nvlink-h100", "nvlink-b200", "rail-hdr", "rail-ndr", "one-nic-hdr", "one-nic-ndr"}


def test_allreduce_draws_every_topology_and_times_it_by_that_topology(fams):
    fam = fams["allreduce-time"]
    seen = draws_by_network(fam)
    assert set(seen) == ALLREDUCE_NETWORKS
    for network, problems in seen.items():
        for p in problems:
            n, payload = p.params["gpus"], p.params["bytes"]
            assert p.truth == pytest.approx(2 * (n - 1) / n * payload / ring_bandwidth(network), rel=1e-12)
            assert (n <= NICS_PER_NODE) == network.startswith("nvlink"), (network, n)


@pytest.mark.parametrize(
    "network, said, why",
    [
        ("nvlink-a100", "NVLink 3 gives each GPU 600 GB/s", "per-direction rate"),
        ("nvlink-h100", "NVLink 4 gives each GPU 900 GB/s", "per-direction rate"),
        ("rail-hdr", "rail-aligned DGX-A100 nodes of 8 GPUs, each GPU with its own 200 Gb/s HDR", "one ring per NIC"),
        ("rail-ndr", "each GPU with its own 400 Gb/s NDR", "one ring per NIC"),
        ("one-nic-hdr", "a single 200 Gb/s HDR InfiniBand NIC per node", "one NIC per node"),
        ("one-nic-ndr", "a single 400 Gb/s NDR InfiniBand NIC per node", "one NIC per node"),
    ],
)
def test_allreduce_prompt_names_the_topology_and_the_steps_say_why(fams, network, said, why):
    fam = fams["allreduce-time"]
    p = draws_by_network(fam)[network][0]
    assert said in p.prompt
    worked = grade(fam, p.params, p.pretty).worked
    bandwidth = f"{ring_bandwidth(network) / 1e9:g} GB/s"
    assert why in worked[0] and worked[0].endswith(f"the ring runs at {bandwidth}")


@pytest.mark.parametrize(
    "network, gpus, seconds",
    [
        # 7B BF16 gradients (14 GB): one DGX-A100 node, 64 A100s rail-aligned, the same through one NIC each
        ("nvlink-a100", 8, 2 * 7 / 8 * 14e9 / 300e9),
        ("rail-hdr", 64, 2 * 63 / 64 * 14e9 / 200e9),
        ("one-nic-hdr", 64, 2 * 63 / 64 * 14e9 / 25e9),
        ("rail-ndr", 64, 2 * 63 / 64 * 14e9 / 400e9),
    ],
)
def test_solve_by_topology_name(fams, network, gpus, seconds):
    assert solve(fams["allreduce-time"], {"network": network, "bytes": "14 GB", "gpus": gpus})[
        "value"
    ] == pytest.approx(seconds)


def test_rail_aligned_is_eight_times_one_nic_per_node(fams):
    fam = fams["allreduce-time"]
    for nic in ("hdr", "ndr"):
        rail = solve(fam, {"network": f"rail-{nic}", "bytes": 1e10, "gpus": 128})["value"]
        one = solve(fam, {"network": f"one-nic-{nic}", "bytes": 1e10, "gpus": 128})["value"]
        assert one == pytest.approx(8 * rail)


def test_tp_allreduce_draws_each_nvlink_node_at_the_per_direction_rate(fams):
    fam = fams["tp-allreduce-time"]
    seen = draws_by_network(fam, 200)
    assert set(seen) == {"nvlink-a100", "nvlink-h100", "nvlink-b200"}
    for network, problems in seen.items():
        for p in problems:
            q = p.params
            message = q["batch"] * q["seq_len"] * q["hidden"] * q["bytes_per_elem"]
            expected = 2 * 2 * (q["tp"] - 1) / q["tp"] * message / ring_bandwidth(network)
            assert p.truth == pytest.approx(expected, rel=1e-12)
            two_way = NVLINK_TWO_WAY[network.split("-")[1]]
            said = f"{two_way / 1e12:g} TB/s" if two_way >= 1e12 else f"{two_way / 1e9:g} GB/s"
            assert f"gives each GPU {said} (NVIDIA's figure, both directions together)" in p.prompt


def test_values_given_instead_of_a_topology_still_work(fams):
    """Old parameters (bandwidth, no network) solve, grade and read back with the bandwidth said."""
    fam = fams["allreduce-time"]
    params = {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}
    assert solve(fam, params)["value"] == pytest.approx(0.49)
    worked = grade(fam, params, "0.49 s").worked
    assert worked[0] == "which bandwidth: the bandwidth given, at which each GPU sends → the ring runs at 50 GB/s"
    full = {**params, "min_gpus": 1, "max_gpus": 10**6, "gpu_mem": 1e15}
    assert "across 8 GPUs linked so that each sends at 50 GB/s." in render(fam.prompt, template_values(fam, full))


@pytest.mark.parametrize(
    "network, wrong_bandwidth, words",
    [
        ("rail-hdr", 25e9, "all 8 NICs of a node"),  # timed through one NIC
        ("one-nic-ndr", 400e9, "single NIC"),  # as if the node had 8 NICs
        ("nvlink-h100", 900e9, "two-way figure"),  # NVIDIA's both-directions number
    ],
)
def test_topology_slips_are_named(fams, network, wrong_bandwidth, words):
    fam = fams["allreduce-time"]
    params = {"network": network, "bytes": 14e9, "gpus": 8 if network.startswith("nvlink") else 64}
    n = params["gpus"]
    answer = 2 * (n - 1) / n * 14e9 / wrong_bandwidth
    result = grade(fam, params, f"{answer} s")
    assert not result.correct and words in result.slip


def test_a_parameter_the_answer_ignores_names_no_slip(fams):
    """max_gpus only bounds the draw: an answer off by its value is not 'forgot to divide by max_gpus'."""
    fam = fams["allreduce-time"]
    params = {"network": "rail-hdr", "bytes": 14e9, "gpus": 64}
    truth = solve(fam, params)["value"]
    slip = grade(fam, params, f"{truth * 16384} s").slip
    assert slip is None or "max_gpus" not in slip


def seconds(value: float) -> str:
    """A time as the worked steps print it (3 significant figures)."""
    if value < 1e-3:
        return f"{value * 1e6:.3g} µs"
    return f"{value * 1e3:.3g} ms" if value < 1 else f"{value:.3g} s"


@pytest.mark.parametrize("params, dp", [(70e9, 64), (13e9, 8), (1e9, 16)])
def test_zero3_times_its_rings_on_the_link_its_ranks_span(fams, params, dp):
    """Ranks inside one H100 node: NVLink's 450 GB/s; across nodes the NICs set the pace (rail-aligned
    8 × NDR: 400 GB/s per ring; one NDR NIC: 50 GB/s), and NVLink's time is not quoted."""
    volume = 3 * (dp - 1) / dp * params * 2
    worked = " ".join(
        grade(fams["zero3-comm-volume"], {"params": params, "dp": dp, "bytes_per_elem": 2}, f"{volume} B").worked
    )
    assert "the same on any topology" in worked
    nvlink = seconds(volume / ring_bandwidth("nvlink-h100"))
    if dp <= NICS_PER_NODE:
        assert f"one H100 node, so the rings run over NVLink at 450 GB/s per direction: {nvlink}" in worked
        assert "NIC" not in worked
    else:
        assert f"span {dp // NICS_PER_NODE} nodes" in worked and "450 GB/s" not in worked
        assert seconds(volume / ring_bandwidth("rail-ndr")) in worked
        assert seconds(volume / ring_bandwidth("one-nic-ndr")) in worked


@pytest.mark.parametrize(
    "model, top_k, hidden, ep",
    [
        ("mixtral-8x7b", 2, 4096, 4),
        ("mixtral-8x7b", 2, 4096, 8),
        ("deepseek-v3", 8, 7168, 16),
        ("deepseek-v3", 8, 7168, 64),
    ],
)
def test_moe_volume_times_only_the_copies_that_leave_the_node_on_the_nic(fams, model, top_k, hidden, ep):
    """Inside one node every copy rides NVLink and nothing is timed on a NIC; across rail-aligned
    nodes (ep − 8)/ep of the bytes leave through the sender's own 50 GB/s NIC, as in the sibling
    moe-alltoall-time."""
    per_copy = 2 * 4096 * top_k * hidden  # there and back, 1-byte activations
    volume = per_copy * (ep - 1) / ep
    params = {"model": model, "precision": "fp8", "tokens": 4096, "ep": ep, "bytes_per_elem": 1}
    worked = " ".join(grade(fams["moe-alltoall-volume"], params, f"{volume} B").worked)
    if ep <= GPUS_PER_NODE:
        assert f"none leaves the node: {seconds(volume / (NVLINK_TWO_WAY['h100'] / 2))}" in worked
        assert "NIC" not in worked
    else:
        leaving = per_copy * (ep - GPUS_PER_NODE) / ep
        assert f"= {seconds(leaving / (NIC_BITS['ndr'] / 8))}" in worked and "own NIC" in worked
        sibling = {**params, "network": "rail-ndr"}
        assert solve(fams["moe-alltoall-time"], sibling)["value"] == pytest.approx(leaving / (NIC_BITS["ndr"] / 8))


# --- the engine: a draw's text fields in templates, and its texts when no entry is named ----------

TOY = """id = "toy-link"
block = "communication"
topic = "Toy"
prompt = "{bytes:byte} {network}?"
answer = "bytes/bandwidth"
unit = "s"
always_possible = "a toy: one fixed gigabyte"
steps = ["{network_why}", "= {answer}"]

[draws.network]
catalog = "networks"
unnamed = { name = "at {bandwidth:byte/s}", why = "as given" }

[params.bytes]
choice = [1e9]
[params.bandwidth]
from = "network.bandwidth"
unit = "byte/s"

[[examples]]
params = { bytes = 1e9, bandwidth = 1e9 }
answer = 1
"""


@pytest.fixture
def toy_dir(tmp_path):
    (tmp_path / "networks.toml").write_text((PROBLEMS / "networks.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def toy_errors(root: Path, text: str) -> list[str]:
    (root / "toy-link.toml").write_text(text, encoding="utf-8")
    return [e.message for e in check(root)]


def test_toy_with_text_fields_and_unnamed_texts_is_valid(toy_dir):
    assert toy_errors(toy_dir, TOY) == []
    fam = family(toy_dir, "toy-link")
    assert grade(fam, {"bytes": 1e9, "bandwidth": 1e9}, "1 s").worked[0] == "as given"
    assert "one ring per NIC" in grade(fam, {"network": "rail-ndr", "bytes": 1e9}, "1 s").worked[0]


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('unnamed = { name = "at {bandwidth:byte/s}", why = "as given" }\n', "", "examples[0]: worked steps"),
        ('name = "at {bandwidth:byte/s}", ', "", "unnamed needs a name"),
        ("at {bandwidth:byte/s}", "at {zz}", "unknown field {zz}"),
        ('"{network_why}"', '"{network_nope}"', "unknown field {network_nope}"),
    ],
)
def test_toy_mistakes_are_reported(toy_dir, old, new, message):
    text = TOY.replace(old, new)
    assert text != TOY
    assert any(message in m for m in toy_errors(toy_dir, text)), toy_errors(toy_dir, text)


# --- MoE all-to-all: every GPU sends at once, so each gets its own link ----------------------------

GPUS_PER_NODE = 8


def alltoall_link(network: str) -> tuple[float, int]:
    """(one GPU's sending rate, GPUs its copies reach without that link), from the wiring."""
    kind, _, part = network.rpartition("-")
    if kind == "nvlink":
        return NVLINK_TWO_WAY[part] / 2, 1  # every other GPU is across NVSwitch
    if kind == "rail":
        return NIC_BITS[part] / 8, GPUS_PER_NODE  # its own NIC; its node rides NVLink
    if kind == "one-nic":
        return NIC_BITS[part] / 8 / GPUS_PER_NODE, GPUS_PER_NODE  # 8 GPUs share the NIC
    raise AssertionError(network)


def test_moe_alltoall_time_draws_every_topology_and_times_it_by_that_topology(fams):
    fam = fams["moe-alltoall-time"]
    seen = draws_by_network(fam, 600)
    assert set(seen) == ALLREDUCE_NETWORKS
    for network, problems in seen.items():
        rate, local = alltoall_link(network)
        for p in problems:
            q = p.params
            crossing = 2 * q["tokens"] * q["top_k"] * q["hidden"] * q["bytes_per_elem"] * (q["ep"] - local) / q["ep"]
            assert p.truth == pytest.approx(crossing / rate, rel=1e-12)
            assert (q["ep"] <= GPUS_PER_NODE) == network.startswith("nvlink")


def test_moe_alltoall_across_rail_aligned_nodes_gets_one_nic_not_the_ring_bandwidth(fams):
    """The same rail-aligned NDR nodes: an all-reduce ring runs at 400 GB/s, an all-to-all at 50 GB/s a GPU."""
    fam = fams["moe-alltoall-time"]
    params = {"model": "deepseek-v3", "tokens": 4096, "ep": 64, "bytes_per_elem": 1}
    rail = solve(fam, {**params, "network": "rail-ndr"})["value"]
    assert rail == pytest.approx(2 * 4096 * 8 * 7168 * 56 / 64 / 50e9)
    assert solve(fam, {**params, "network": "one-nic-ndr"})["value"] == pytest.approx(8 * rail)
    ring_rate = ring_bandwidth("rail-ndr")
    slip = grade(fam, {**params, "network": "rail-ndr"}, f"{rail * 50e9 / ring_rate} s").slip
    assert "not a ring" in slip
