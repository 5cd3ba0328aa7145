"""Capacity: reference cluster, Microsoft's published examples, invariants."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.models.design import MIN_FAULT_DOMAINS, parse_design, resolve
from planner.physics.capacity import (
    EFFICIENCY_BOUND,
    RESILIENCY_CODES,
    capacity_report,
    dual_parity_efficiency,
    resiliency_efficiency,
    usable_capacity_tb,
)

EX = Path(__file__).resolve().parent.parent / "examples"


def test_reference_design_is_nine_tb():
    rep = capacity_report(resolve(parse_design((EX / "reference.json").read_text())))
    assert rep.raw_capacity_tb == pytest.approx(30.0)
    assert rep.reserve_tb == pytest.approx(3.0)
    assert rep.usable_capacity_tb == pytest.approx(9.0, abs=0.01)
    assert not rep.reprotected_after_node_loss  # 3-way mirror on 3 nodes cannot re-protect
    steps = [s.capacity_tb for s in rep.waterfall]
    assert steps[0] + steps[1] + steps[2] == pytest.approx(rep.pool_capacity_tb)


def test_microsoft_plan_volumes_example():
    # Microsoft, "Plan volumes": 4 servers x 16 x 2 TB = 128 TB; reserve 4 drives (8 TB) -> 120 TB
    raw_minus_reserve = usable_capacity_tb(4, 16, 2.0, RESILIENCY_CODES["mirror-3way"], 4, 0.0, True) * 3
    assert raw_minus_reserve == pytest.approx(120.0, rel=1e-3)


@pytest.mark.parametrize("fd,eff", [(4, 0.5), (6, 0.5), (7, 2 / 3), (8, 2 / 3), (9, 0.75), (15, 0.75), (16, 0.8)])
def test_dual_parity_all_flash_table(fd, eff):
    assert dual_parity_efficiency(fd, True) == pytest.approx(eff)


@pytest.mark.parametrize("fd,eff", [(6, 0.5), (11, 2 / 3), (12, 8 / 11), (16, 8 / 11)])
def test_dual_parity_hybrid_table(fd, eff):
    assert dual_parity_efficiency(fd, False) == pytest.approx(eff)


def test_mirror_accelerated_parity_mix():
    # 20 % mirror (33.3 %) + 80 % RS 2+2 parity (50 %): footprint 0.6 + 1.6 = 2.2 -> 45.5 %
    assert resiliency_efficiency(4, 4, 0.2, True) == pytest.approx(1 / 2.2)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.integers(1, 16),
    drives=st.integers(1, 24),
    size=st.floats(0.4, 30),
    res=st.sampled_from(list(RESILIENCY_CODES)),
    extra=st.integers(1, 4),
)
def test_more_drives_or_nodes_never_lower_usable(nodes, drives, size, res, extra):
    code = RESILIENCY_CODES[res]
    if nodes < MIN_FAULT_DOMAINS[res]:
        return
    if res == "nested-mirror-2way" and nodes != 2:
        return
    base = usable_capacity_tb(nodes, drives, size, code, nodes, 0.2, True)
    assert usable_capacity_tb(nodes, drives + extra, size, code, nodes, 0.2, True) >= base - 1e-9
    if res != "nested-mirror-2way" and nodes + extra <= 16:
        assert usable_capacity_tb(nodes + extra, drives, size, code, nodes + extra, 0.2, True) >= base - 1e-9


@settings(max_examples=60, deadline=None)
@given(nodes=st.integers(2, 16), share=st.floats(0.0, 1.0), res=st.sampled_from(list(RESILIENCY_CODES)))
def test_efficiency_never_exceeds_bound(nodes, share, res):
    eff = float(resiliency_efficiency(RESILIENCY_CODES[res], nodes, share, True))
    assert 0.0 <= float(resiliency_efficiency(RESILIENCY_CODES[res], nodes, share, False)) <= eff + 1e-12
    assert 0.0 <= eff <= EFFICIENCY_BOUND[res] + 1e-12


def test_vectorised_equals_scalar():
    nodes = np.array([2, 3, 4, 8, 16])
    v = usable_capacity_tb(nodes, 10, 3.84, RESILIENCY_CODES["parity-dual"], np.maximum(nodes, 4), 0.2, True)
    for i, n in enumerate(nodes):
        assert v[i] == pytest.approx(float(usable_capacity_tb(n, 10, 3.84, 3, max(n, 4), 0.2, True)))


def _design(nodes: int, drives: int, res: str, drive: str = "intel-p4510-1tb", reserve: str | None = None):
    d = {
        "name": "t",
        "nodes": nodes,
        "resiliency": res,
        "node": {
            "cpu": {"model": "intel-xeon-gold-6246", "sockets": 2},
            "ram_gb": 384,
            "capacity_drives": {"model": drive, "count": drives},
            "nics": {"model": "mellanox-cx4-lx-2x25g", "count": 1},
        },
    }
    if reserve:
        d["reserve_policy"] = reserve
    return resolve(parse_design(d))


def test_a_design_with_no_usable_capacity_is_rejected_with_the_reason():
    from planner.core.errors import DesignError
    from planner.physics.capacity import require_usable

    rd = _design(4, 1, "mirror-3way")  # the reserve takes all four drives
    assert capacity_report(rd).usable_capacity_tb == 0.0  # reported (the sizer's search sees it as too small)
    with pytest.raises(DesignError) as exc:
        require_usable(rd)  # and refused wherever a design is evaluated
    assert exc.value.field == "node.capacity_drives.count"
    assert "no usable capacity" in exc.value.message and "4 of the 4" in exc.value.message
    assert require_usable(_design(4, 1, "mirror-3way", reserve="none")).usable_capacity_tb > 0


def test_cli_rejects_a_design_with_no_usable_capacity(tmp_path, capsys):
    import json

    from planner.cli import main

    d = json.loads((EX / "reference.json").read_text())
    d["nodes"], d["node"]["capacity_drives"]["count"] = 4, 1
    (tmp_path / "d.json").write_text(json.dumps(d))
    assert main(["evaluate", str(tmp_path / "d.json"), "--workload", "oltp-8k"]) == 2
    assert capsys.readouterr().err.startswith("error: node.capacity_drives.count: no usable capacity")


@settings(max_examples=150, deadline=None)
@given(
    nodes=st.integers(1, 16),
    drives=st.integers(1, 12),
    res=st.sampled_from(list(RESILIENCY_CODES)),
    drive=st.sampled_from(["intel-p4510-1tb", "intel-p4510-8tb", "intel-s4510-1.92tb"]),
    reserve=st.sampled_from([None, "none"]),
)
def test_usable_after_losing_a_node_never_exceeds_usable_before(nodes, drives, res, drive, reserve):
    from planner.core.errors import DesignError

    try:
        rd = _design(nodes, drives, res, drive, reserve)
    except DesignError:  # too few fault domains for the resiliency
        return
    rep = capacity_report(rd)
    assert 0.0 <= rep.reprotected_after_node_loss_tb <= rep.usable_capacity_tb + 1e-12


def test_azure_locals_infrastructure_volume_stays_out_of_the_capacity_after_a_node_loss():
    """QA 2026-11-28: after losing a node the survivors rebuild the infrastructure volume too, so its
    footprint comes out of what they hold (sas-4node with a 2 TB volume kept 12.798 TB after a
    node loss, the same as Windows Server without one)."""
    doc = json.loads((EX / "sas-4node.json").read_text())
    ws = capacity_report(resolve(parse_design(doc)))
    al = capacity_report(resolve(parse_design(doc | {"platform": "azure-local", "infrastructure_volume_tb": 2.0})))
    fp = al.infrastructure_footprint_tb
    assert fp == pytest.approx(2.0 * 3)  # three-way mirror on three or more machines
    # healthy: the footprint comes out of the pool before the resiliency's efficiency
    assert al.pool_capacity_tb == pytest.approx(ws.pool_capacity_tb - fp)
    # after a node loss: out of what the survivors hold as well (they were equal before)
    assert al.reprotected_after_node_loss_tb < ws.reprotected_after_node_loss_tb - 0.5 * fp * al.resiliency_efficiency
    # the vectorised figure the sizer screens with is the report's
    n = doc["nodes"]
    k = doc["node"]["capacity_drives"]["count"]
    tb = al.raw_capacity_tb / (n * k)
    from planner.physics.capacity import capacity_all_flash, infrastructure_footprint_tb

    rd = resolve(parse_design(doc | {"platform": "azure-local"}))
    vec = usable_capacity_tb(
        n,
        k,
        tb,
        RESILIENCY_CODES[doc["resiliency"]],
        n,
        rd.design.mirror_share,
        capacity_all_flash(rd.node.drive),
        infrastructure_footprint_tb=infrastructure_footprint_tb("azure-local", n),
    )
    assert float(vec) == pytest.approx(capacity_report(rd).usable_capacity_tb)


def test_a_node_loss_that_does_not_fit_says_how_much_data_does():
    """CLI review (2026-11-29): `evaluate` said "after losing one node, the 814.05 TB footprint does not fit
    in the 675.84 TB left" where the proposal's N+1 found the demand's 216 TB fit: the note judged the
    volumes filled to their usable capacity without saying so. It says so now, and how much data fits."""
    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.sizing.search import size

    d = Demand.model_validate_json(
        (Path(__file__).resolve().parents[1] / "examples" / "demand-200dbs.json").read_text()
    )
    rep = capacity_report(resolve(Design.model_validate(size(d, top=1).best["design"])))
    if rep.reprotected_after_node_loss:
        pytest.skip("the sized design holds its full volumes after a node loss")
    assert f"volumes filled to their {rep.usable_capacity_tb:.2f} TB" in rep.node_loss_note
    assert f"up to {rep.reprotected_after_node_loss_tb:.2f} TB of data is re-protected" in rep.node_loss_note


def test_no_data_is_online_after_a_node_loss_that_stops_io():
    """Ceph/vSAN walk 2026-11-30: `evaluate --nodes 2 --resiliency replica-2` (Monitors lose quorum) and ec-2+1 on
    three hosts (below min_size 3) printed one_node_down_tb 64.63 / 129.25 TB beside "IO stops": the data served
    with a node down is 0 TB there, and the N+1 check says IO stops rather than "the volumes stay online"."""
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.physics.capacity import n_plus_one_held_tb
    from planner.sizing.checks import check_design

    base = json.loads((EX / "ceph-6node-reef.json").read_text())
    for nodes, res in ((3, "ec-2+1"), (2, "replica-2")):
        rd = resolve(parse_design(base | {"nodes": nodes, "resiliency": res}), load_catalog())
        cap = capacity_report(rd)
        assert not cap.online_after_node_loss and "IO stops" in cap.node_loss_note
        assert cap.one_node_down_tb == 0.0 and n_plus_one_held_tb(cap) == 0.0 and cap.usable_capacity_tb > 0
        demand = Demand.model_validate(
            json.loads((EX / "demand-200dbs-ceph.json").read_text()) | {"n_plus_one": True, "allow_parity": True}
        )
        reason = check_design(rd, demand, quick=True)["checks"]["n_plus_one_capacity"]["reason"]
        assert (
            reason.startswith("after a node loss IO stops, so no data is online (0.00 TB")
            and "stay online" not in reason
        )
    # a pool that rides through the loss keeps its figure
    ok = capacity_report(resolve(parse_design(base), load_catalog()))
    assert ok.online_after_node_loss and ok.one_node_down_tb == pytest.approx(ok.usable_capacity_tb)


@pytest.mark.parametrize(
    "nodes,layout,eff",
    [(7, "RS 4+2", 4 / 6), (9, "RS 6+2", 6 / 8), (16, "LRC (12, 2, 1)", 12 / 15)],
)
def test_dual_parity_volumes_keep_their_layout_after_a_node_loss(nodes, layout, eff):
    """S2D audit: a volume keeps the parity layout it was created with ("the best possible encoding is determined
    automatically each time you create a volume ... pre-existing volumes will *not* be 'converted'", Microsoft,
    *Adding servers or drives*), and RS 4+2 on 7 nodes is 6 wide, so the 6 survivors hold it. The Capacity page
    re-derived the layout for 6 servers (RS 2+2, 50 %): 7 x 10 x 1 TB held 29.99 TB re-protected, not
    59.98 x 2/3 = 39.99 TB (9 nodes 53.32 -> 59.99, 16 nodes 112.47 -> 119.98)."""
    rep = capacity_report(_design(nodes, 10, "parity-dual"))
    survivors_pool = (nodes - 1) * 10 * (1.0 - 256 * 2**20 / 1e12)
    assert rep.reprotected_after_node_loss_tb == pytest.approx(min(rep.usable_capacity_tb, survivors_pool * eff))
    assert f"keep their {layout} layout" in rep.node_loss_note
    assert f"up to {rep.reprotected_after_node_loss_tb:.2f} TB of data is re-protected" in rep.node_loss_note
    # mirror-accelerated parity: its parity part keeps its layout too
    mp = capacity_report(_design(nodes, 10, "mirror-accelerated-parity"))
    share = mp.resiliency_efficiency
    assert mp.reprotected_after_node_loss_tb == pytest.approx(min(mp.usable_capacity_tb, survivors_pool * share))
    assert f"keep their {layout} layout" in mp.node_loss_note


def test_hybrid_dual_parity_keeps_lrc_after_a_node_loss():
    """12 hybrid nodes: LRC (8, 2, 1) is 11 wide, so the 11 survivors keep 72.7 % (they were given RS 4+2's 66.7 %)."""
    d = {
        "name": "t",
        "nodes": 12,
        "resiliency": "parity-dual",
        "node": {
            "cpu": {"model": "intel-xeon-gold-6246", "sockets": 2},
            "ram_gb": 384,
            "capacity_drives": {"model": "seagate-exos-x20-20tb-sas", "count": 8},
            "cache_devices": {"model": "intel-optane-p4800x-375gb", "count": 2},
            "nics": {"model": "mellanox-cx4-lx-2x25g", "count": 1},
        },
    }
    rep = capacity_report(resolve(parse_design(d)))
    assert not rep.all_flash
    left = 11 * 8 * (20.0 - 256 * 2**20 / 1e12)
    assert rep.reprotected_after_node_loss_tb == pytest.approx(min(rep.usable_capacity_tb, left * 8 / 11))
    assert "keep their LRC (8, 2, 1) layout" in rep.node_loss_note


def test_a_layout_wider_than_the_survivors_is_relaid_and_said():
    """Single parity on 4 nodes is RS 3+1, 4 wide: 3 survivors cannot hold it, so what they re-protect is at the
    layout they can hold (RS 2+1, 66.7 %), and the note says which."""
    rep = capacity_report(_design(4, 10, "parity-single", reserve="none"))
    left = 3 * 10 * (1.0 - 256 * 2**20 / 1e12)
    assert rep.reprotected_after_node_loss_tb == pytest.approx(min(rep.usable_capacity_tb, left * 2 / 3))
    assert "RS 3+1 is 4 wide" in rep.node_loss_note and "RS 2+1" in rep.node_loss_note


def test_the_sizers_n_plus_one_screen_counts_the_kept_layout():
    """The sizer screened N+1 with the layout re-derived for n - 1 servers (search.py ``code, n - 1``): one rule,
    :func:`usable_after_node_loss_tb`, for it and the Capacity page."""
    from planner.physics.capacity import usable_after_node_loss_tb

    for nodes in (5, 7, 9, 12, 16):
        for res in ("parity-dual", "mirror-accelerated-parity", "mirror-3way", "parity-single"):
            rep = capacity_report(_design(nodes, 10, res))
            vec = usable_after_node_loss_tb(
                np.array([nodes]), 10, 1.0, RESILIENCY_CODES[res], np.array([nodes]), 0.2, True
            )
            assert min(float(vec[0]), rep.usable_capacity_tb) == pytest.approx(rep.reprotected_after_node_loss_tb)


def test_the_after_loss_keys_say_online_or_re_protected_and_the_json_gives_the_pages_figure():
    """S2D specialist's audit: a 3-node three-way mirror printed ``survives_node_loss: false`` (it stays online; it
    is not re-protected) and ``usable_after_node_loss_tb`` 6.66 TB (2 nodes of two-way mirror: 3.84 TB), what the
    survivors would hold re-protected, though its own description says nothing is, beside the Capacity page's
    "Usable after losing a node: 9.00 TB, degraded". The keys now say which: ``online_after_node_loss`` (IO goes
    on), ``reprotected_after_node_loss`` (the survivors rebuild every copy of full volumes) and
    ``reprotected_after_node_loss_tb`` (0 where nothing is re-protected); ``one_node_down_tb`` is the page's."""
    from planner.models.design import load_design
    from planner.results.report import evaluate_report

    ex = Path(__file__).resolve().parent.parent / "examples"
    for name in ("reference", "edge-2node"):
        out = json.loads(json.dumps(evaluate_report(load_design(ex / f"{name}.json"))))
        assert "survives_node_loss" not in out and "usable_after_node_loss_tb" not in out, name
        assert out["online_after_node_loss"] is True and out["reprotected_after_node_loss"] is False, name
        assert out["reprotected_after_node_loss_tb"] == 0.0, name
        assert out["one_node_down_tb"] == pytest.approx(out["usable_capacity_tb"]), name  # 9.00 TB on the page
    four = evaluate_report(load_design(ex / "reference.json").model_copy(update={"nodes": 4}))
    assert four["repairs_after_node_loss"] and 0.0 < four["reprotected_after_node_loss_tb"] < four["usable_capacity_tb"]
    assert four["one_node_down_tb"] == pytest.approx(four["reprotected_after_node_loss_tb"])
