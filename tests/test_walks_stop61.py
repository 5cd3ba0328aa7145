"""Stop 61 (2026-12-02): browser walks through every page of the 12-node NVMe + persistent-memory example and the
two-node edge example, an estate read on the Size page and used, the SLA page in its DBA mode with a Scale-Out File
Server as the customer's system today, and the CLI's estate -> proposal in DOCX and XLSX. No traceback, no page
error, no NaN; what read wrong is fixed here, each test failing on the code before it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from apptest import APP, app, open_loader, said
from streamlit.testing.v1 import AppTest

from planner.engine.loads import demand_as_workload
from planner.models.demand import Demand
from planner.models.design import Design, load_design
from planner.sizing.document import document
from planner.sizing.estate import read_database_list
from planner.sizing.formats import render
from planner.sizing.proposal import build
from planner.sizing.search import size

ESTATE = Path(APP).parent / "examples" / "estate-databases.csv"


def _loaded(example: str):
    at = open_loader(app())
    at.selectbox(key="example_pick").set_value(example).run()
    next(b for b in at.button if b.label == "Load example").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_cpu_cap_above_the_smt_ceiling_is_said_as_such_not_past_the_capacity():
    """The 12-node example (cap 80 %) read "the CPU cap (3,385,841 IOPS) lies past the IOPS capacity, so it never
    binds" beside "IOPS capacity 3,385,841 IOPS": the same figure, since the cap is clipped to the fitted SMT
    ceiling (69 %) and then admits what the hardware does. The caption says that now."""
    at = _loaded("nvme-pmem-12node")
    at.switch_page("hciplan_ui/performance_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = said(at)
    assert "the CPU cap (80 %) is above the share of logical processors IO can keep busy" in text, text
    assert "lies past the IOPS capacity" not in text
    assert "the CPU cap stops admitting load" not in text


def test_an_estate_read_in_a_fresh_session_does_not_say_the_sla_pages_tiers_changed():
    """A new user's first step, the example database list read on the Size page, showed "The tiers changed on the
    SLA & tiers page since this demand was sized" of tiers nobody had touched: the estate's tiers are its own groups
    (Premium at its members' mean, 'Estate' for rows without a tier), never the SLA page's. Once "Use this design"
    makes them the session's, an edit on the SLA page is said again."""

    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["size_estate_open"] = True
    at.switch_page("hciplan_ui/sizing_page.py").run()
    data = ESTATE.read_bytes()
    at.file_uploader(key="size_estate").set_value([("estate-databases.csv", data, "text/csv")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "estate of 4 databases" in at.session_state["size_demand"]
    assert "tiers changed" not in said(at)
    # the same through the share link, sent before "Use this design"
    link = AppTest.from_file(APP, default_timeout=180)
    link.query_params.update(
        {"s": at.query_params["s"][0] if isinstance(at.query_params["s"], list) else at.query_params["s"]}
    )
    link.run()
    link.switch_page("hciplan_ui/sizing_page.py").run()
    assert not link.exception and "estate of 4 databases" in link.session_state["size_demand"]
    assert "tiers changed" not in said(link)
    at.button(key="size_use_best").click().run()
    assert not at.exception and "tiers changed" not in said(at)
    # the estate's tiers are the session's now: an edit of them makes the results stale, and the page says so

    tiers = json.loads(at.session_state["tiers_json"])
    tiers["tiers"][0]["guaranteed_iops"] += 1000
    at.session_state["tiers_json"] = json.dumps(tiers, sort_keys=True, separators=(",", ":"))
    at.switch_page("hciplan_ui/sizing_page.py").run()
    assert "tiers changed on the SLA & tiers page" in said(at)


@pytest.fixture(scope="module")
def estate_proposal() -> dict:
    """The proposal of the example estate's cheapest design, as `estate` then `proposal` make it (sized once for the
    document's and the workbook's tests)."""
    d = Demand.model_validate(read_database_list(ESTATE.read_bytes(), "estate-databases.csv")["demand"])
    design = Design.model_validate(size(d, top=1).best["design"])
    return build(design, demand_as_workload(d, design.nodes), demand=d)


def test_a_tier_of_one_database_is_one_database_in_the_proposal(estate_proposal):
    """The proposal of the example estate said "Standard tier | 1 databases, 800 IOPS" (CLI walk, stop 61)."""
    text = json.dumps(document(estate_proposal))
    assert "1 database, 800 IOPS" in text and "1 databases" not in text
    assert "2 databases, " in text


def test_every_fractional_figure_of_the_workbook_has_a_number_format(estate_proposal):
    """The workbook of the example estate's proposal showed the Premium tier's guarantee as 24880.65204302035 (its
    members' mean, in General format): every figure with more than four decimals is shown through a format."""
    wb = openpyxl.load_workbook(io.BytesIO(render(estate_proposal, "xlsx")))
    raw = [
        (ws.title, c.coordinate, c.value)
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, float) and c.number_format == "General" and len(repr(c.value).split(".")[-1]) > 4
    ]
    assert not raw, raw
    tiers = wb["Service tiers"]
    assert tiers["B5"].number_format == "#,##0" and tiers["B5"].value == pytest.approx(24880.652, rel=1e-6)


def test_a_system_today_of_ones_own_file_keeps_its_name_on_the_sla_page():
    """An example's file name left the SLA page's choice ("seed-dataon-sofs-4db: disaggregated file-server
    cluster, ..."; tested in test_sla_any_design); a name the customer's own file gives is theirs, and stays."""

    own = load_design(Path(APP).parent / "examples" / "seed-dl580-raid10.json").model_copy(
        update={"name": "Contoso SQL01"}
    )
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["existing_design_json"] = json.dumps(
        own.model_dump(mode="json"), sort_keys=True, separators=(",", ":")
    )
    at.session_state["sla_on"] = "today"
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    label = at.radio(key="sla_on").options[1].replace("\\", "")
    assert label.startswith("the customer's system today (Contoso SQL01: single server, "), label


def test_the_smallest_vm_of_one_vcpu_is_one_vcpu():
    """The SLA page's "guarantee by the database VM's size" on the DataON Scale-Out File Server said "The smallest VM
    guaranteed the database's ... IOPS: 1 vCPUs, 1 IO thread x 16 outstanding"."""
    from test_sla_any_design import _sla_page_with_today

    at = _sla_page_with_today("seed-dataon-sofs-4db.json", "db-oltp-hammerdb.json")
    at.session_state["sla_db_rate"] = 20000.0  # the page's own first database: 20,000 NOPM
    at.session_state["sla_by_size"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    smallest = [c.value for c in at.caption if "The smallest VM guaranteed" in c.value]
    assert smallest and "1 vCPUs" not in smallest[0], smallest
