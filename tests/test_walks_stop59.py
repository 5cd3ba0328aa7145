"""Stop 59 (2026-12-02): a browser walk sized the HammerDB demand, used the best design, put the customer's DL580
(RAID 10) beside it on the Compare page and guaranteed one of the databases on it on the SLA page. The pages held
together; what they said differently is fixed here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from apptest import sized
from streamlit.testing.v1 import AppTest

from planner.models.demand import Demand

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def _plain(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s).replace("\u2060", "")


def test_the_other_databases_on_the_customers_one_server_are_said_to_be_on_it():
    """The SLA page's tenants on the system today are the sized demand's other databases, all on its one server
    (the caption named them beside a node bound that counts one server's share, without saying where they run)."""
    raw = json.loads((ROOT / "examples" / "demand-hammerdb.json").read_text())
    at = sized(json.dumps(raw).encode())
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_existing_src").set_value("an example").run()
    at.selectbox(key="cmp_existing_example").set_value("seed-dl580-raid10").run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_on").set_value("today").run()
    at.radio(key="sla_by").set_value(at.radio(key="sla_by").options[1]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="sla_bg").value == "current workload"
    assert at.radio(key="sla_bg").label == "Other tenants on the server"  # not "on the cluster" of one server
    captions = [_plain(c.value) for c in at.caption]
    dbs = sum(c.databases for c in Demand.model_validate(raw).classes())
    assert any(
        f"the sized demand's other {dbs - 1} databases, all on its one server: this database is one of its own" in c
        for c in captions
    ), captions


def test_the_tenants_of_a_cluster_are_on_the_cluster():
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception
    assert at.radio(key="sla_bg").label == "Other tenants on the cluster"
