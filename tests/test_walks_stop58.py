"""Stop 58 (2026-12-02): the same databases on a system of another architecture. A system today of another
topology ran the sized cluster's VMs per node on each of its servers: the DL580 held 6 of a 24-database demand's
VMs (their data and RAM) under all 24 databases' IOPS, and a Ceph design with separate clients counted its
storage nodes. One count of the servers the databases run on (``Design.database_servers``) for every topology."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.engine.loads import demand_as_workload, load_on
from planner.models.demand import Demand
from planner.models.design import parse_design

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def design(name: str):
    return parse_design((EX / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def demand() -> Demand:
    return Demand.model_validate_json((EX / "demand-hammerdb.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "name, servers",
    [
        ("seed-dl580-raid10", 1),
        ("san-raid5", 1),
        ("seed-datrium-dvx", None),  # split: its compute nodes
        ("split-provisioned", None),
        ("seed-dataon-sofs-1db", 1),
        ("seed-dataon-sofs-4db", 4),
        ("ceph-disaggregated", None),  # its client servers, not its storage nodes
        ("reference", 3),
    ],
)
def test_every_topology_counts_the_servers_its_databases_run_on(name, servers):
    d = design(name)
    expected = {
        "split": lambda: d.split_spec.compute_nodes,
        "disaggregated": lambda: d.clients.servers if d.clients_separate else d.disaggregated_spec.db_servers,
    }.get(d.topology, lambda: d.nodes or 1)()
    assert d.database_servers == expected
    if servers is not None:
        assert d.database_servers == servers
    if name == "ceph-disaggregated":
        assert d.database_servers != d.nodes


@pytest.mark.parametrize("name", ["seed-dl580-raid10", "san-raid5", "seed-datrium-dvx", "ceph-disaggregated"])
def test_the_demands_databases_all_run_on_another_architecture(demand, name):
    """Every database of the demand runs on the system, each as its VM, whatever the sized cluster's VMs per node."""
    sized = demand_as_workload(demand, 4)
    d = design(name)
    on = load_on(d, sized, demand)
    dbs = sum(c.databases for c in demand.classes())
    assert float(on.vms_on(d.database_servers)) == dbs
    assert on.iops == sized.iops  # the same databases ask the same IOPS
    assert on.vms_per_node * d.database_servers >= dbs > (on.vms_per_node - 1) * d.database_servers


def test_the_ram_check_on_one_server_counts_every_database(demand):
    """The DL580 read '6 VMs x 160 GB' for 24 databases of 160 GB each."""
    from planner.results.report import evaluate_report

    d = design("seed-dl580-raid10")
    rep = evaluate_report(d, load_on(d, demand_as_workload(demand, 4), demand), degraded=False)
    ram = next(w for w in rep["warnings"] if w["check"] == "ram")
    assert ram["message"].startswith("24 VMs x 160 GB")
    assert any(w["check"] == "vcpus" for w in rep["warnings"])


def test_a_load_that_is_not_the_demands_is_unchanged(demand):
    from planner.models.workload import parse_workload

    bg = parse_workload((EX / "background-25vms.json").read_text(encoding="utf-8"))
    d = design("seed-dl580-raid10")
    assert load_on(d, bg, demand) is bg
    assert load_on(d, demand_as_workload(demand, 4), None).vms_per_node == demand_as_workload(demand, 4).vms_per_node


def test_the_sla_open_load_counts_the_same_servers():
    """The SLA's open load on another architecture spreads its tenants over the same servers."""
    from planner.engine.architectures import resolve
    from planner.engine.architectures.open_load import OpenLoadModel

    for name in ("seed-dl580-raid10", "seed-datrium-dvx", "seed-dataon-sofs-4db"):
        d = design(name)
        assert OpenLoadModel(d, resolve(d)).hosts == d.database_servers


def test_a_link_carries_the_system_the_guarantee_is_on():
    """The SLA page's "Guarantee on" the customer's system today was lost in a share link and a saved scenario:
    the recipient saw the design here's guarantee."""
    import json as _json

    from streamlit.testing.v1 import AppTest

    app = str(ROOT / "app.py")
    at = AppTest.from_file(app, default_timeout=180).run()
    today = (EX / "seed-datrium-dvx.json").read_text(encoding="utf-8")
    at.session_state["existing_design_json"] = _json.dumps(_json.loads(today), sort_keys=True)
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_on").set_value("today").run()
    assert not at.exception
    shown = [m.value for m in at.metric]
    token = at.query_params["s"]
    token = token[0] if isinstance(token, list) else token
    other = AppTest.from_file(app, default_timeout=180)
    other.query_params.update({"s": token})
    other.run()
    other.switch_page("hciplan_ui/sla_page.py").run()
    assert not other.exception
    assert other.radio(key="sla_on").value == "today"
    assert [m.value for m in other.metric] == shown


def test_a_link_with_another_guarantee_system_is_one_clear_error():
    from hciplan_ui import state
    from planner.core.errors import PlannerError

    with pytest.raises(PlannerError, match="must be here or today"):
        state._checked_choices("sla", {"guarantee_on": "<b>there</b>"})
