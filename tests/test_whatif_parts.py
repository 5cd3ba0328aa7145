"""The Compare page's what-if changes what a sales call changes (stop 62): the capacity drive, the resiliency, the
NIC and its transport and the vCPU oversubscription, beside the node and drive counts and the CPU cap it had. Its
figures are the library's for the design so changed, it says what it changed in the sizer's words, its
resiliencies follow its node count by the validator's rule, and a share link carries every choice."""

from __future__ import annotations

import json

import pytest
from apptest import APP
from apptest import app as _app
from streamlit.testing.v1 import AppTest

from hciplan_ui.part_picker import MISFIT_MARK, misfits
from planner.models.catalog import load_catalog
from planner.models.design import Design, resolve
from planner.models.stacks import resiliencies
from planner.models.workload import Workload
from planner.results.report import evaluate_report
from planner.sizing.search import design_differences

#: the choices the what-if is given: another drive family, a two-way mirror, 100 GbE over TCP, 6 vCPUs a processor
CHOICES = {
    "wi_drive_model": "micron-7450-pro-3.84tb",
    "wi_resiliency": "mirror-2way",
    "wi_nic": "mellanox-cx5-2x100g",
    "wi_transport": "tcp",
    "wi_oversub": 6.0,
}


def _plain(s: str) -> str:
    return s.replace("\\", "").replace("\u2060", "")


def _column_metric(at: AppTest, label: str, column: int) -> str:
    return [m.value for m in at.metric if m.label == label][column]


def _what_if(at: AppTest) -> AppTest:
    """The reference design's Compare page with every new what-if choice set, as a user sets them."""
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.selectbox(key="wi_drive_model").set_value(CHOICES["wi_drive_model"]).run()
    at.selectbox(key="wi_resiliency").set_value(CHOICES["wi_resiliency"]).run()
    at.selectbox(key="wi_nic").set_value(CHOICES["wi_nic"]).run()
    at.radio(key="wi_transport").set_value(CHOICES["wi_transport"]).run()
    at.number_input(key="wi_oversub").set_value(CHOICES["wi_oversub"]).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


@pytest.fixture(scope="module")
def changed() -> AppTest:
    return _what_if(_app())


def _expected(at: AppTest) -> tuple[Design, Design]:
    cur = json.loads(at.session_state["design_json"])
    wi = json.loads(json.dumps(cur))
    wi["name"] = "what-if"
    wi["nodes"] = int(at.number_input(key="wi_nodes").value)
    wi["node"]["capacity_drives"]["model"] = CHOICES["wi_drive_model"]
    wi["node"]["nics"]["model"] = CHOICES["wi_nic"]
    wi["resiliency"] = CHOICES["wi_resiliency"]
    wi["transport"] = CHOICES["wi_transport"]
    wi["vcpu_oversubscription"] = CHOICES["wi_oversub"]
    return Design.model_validate(cur), Design.model_validate(wi)


def test_the_what_ifs_figures_are_the_librarys_for_the_changed_design(changed):
    cur, wi = _expected(changed)
    w = Workload.model_validate_json(changed.session_state["workload_json"])
    rep = evaluate_report(wi, w)
    assert _column_metric(changed, "IOPS", 1) == f"{rep['iops']:,.0f}"
    assert _column_metric(changed, "Usable capacity", 1) == f"{rep['usable_capacity_tb']:,.2f} TB"
    assert _column_metric(changed, "IOPS", 0) == f"{evaluate_report(cur, w)['iops']:,.0f}"  # the current stays


def test_the_what_if_says_what_it_changes_in_the_sizers_words(changed):
    cur, wi = _expected(changed)
    cat = load_catalog()
    words = design_differences(resolve(cur, cat), resolve(wi, cat), "current design")
    for part in ("capacity drives:", "resiliency:", "network:", "transport:", "vCPU oversubscription:", "nodes:"):
        assert part in words, words
    said = [_plain(c.value) for c in changed.caption]
    assert f"Changes: {words}." in said, said


def test_a_what_if_equal_to_the_design_says_so():
    at = _app().switch_page("hciplan_ui/compare_page.py").run()
    at.number_input(key="wi_nodes").set_value(json.loads(at.session_state["design_json"])["nodes"]).run()
    assert "No change from the current design." in [_plain(c.value) for c in at.caption]


def test_the_what_ifs_resiliencies_follow_its_nodes():
    """On two nodes the what-if offers what two nodes hold (the validator's rule, the Design page's list); the
    current design's three-way mirror stays, marked, and the page says why it is not a valid design."""
    at = _app().switch_page("hciplan_ui/compare_page.py").run()
    at.number_input(key="wi_nodes").set_value(2).run()
    cur = json.loads(at.session_state["design_json"])
    why = misfits("s2d", list(resiliencies("s2d")), 2, cur)
    box = at.selectbox(key="wi_resiliency")
    assert box.value == "mirror-3way" and any(o.endswith(MISFIT_MARK) for o in box.options)
    offered = [o.removesuffix(MISFIT_MARK) for o in box.options]
    assert len(offered) == sum(1 for r, w in why.items() if w is None or r == "mirror-3way"), (offered, why)
    assert any("what-if" in e.value for e in at.error)  # the marked choice is not a design: said, no figures
    box.set_value("mirror-2way").run()
    assert not at.exception and not at.error, [e.value for e in at.error]


def test_a_link_carries_the_what_ifs_parts_and_policies(changed):
    token = changed.query_params["s"]
    token = token[0] if isinstance(token, list) else token
    other = AppTest.from_file(APP, default_timeout=180)
    other.query_params.update({"s": token})
    other.run()
    other.switch_page("hciplan_ui/compare_page.py").run()
    assert not other.exception and not other.error, [e.value for e in other.error]
    for key, value in CHOICES.items():
        assert other.session_state[key] == value, key
    assert _column_metric(other, "IOPS", 1) == _column_metric(changed, "IOPS", 1)


def test_a_links_part_the_catalog_does_not_hold_is_the_designs_own_not_the_first_option(changed):
    """A link of another catalog's drive (or a hand-edited one): the box shows the design's drive, as the what-if
    is then built, not the catalog's first drive under the design's name."""
    import base64
    import zlib

    from hciplan_ui.state import decode_token

    token = changed.query_params["s"]
    doc = decode_token(token[0] if isinstance(token, list) else token)
    doc["whatif"]["compare_drive_model"] = "no-such-drive"
    raw = zlib.compress(json.dumps(doc).encode(), 9)
    other = AppTest.from_file(APP, default_timeout=180)
    other.query_params.update({"s": base64.urlsafe_b64encode(raw).decode().rstrip("=")})
    other.run()
    other.switch_page("hciplan_ui/compare_page.py").run()
    assert not other.exception
    design_drive = json.loads(other.session_state["design_json"])["node"]["capacity_drives"]["model"]
    assert other.selectbox(key="wi_drive_model").value == design_drive


def test_the_what_if_made_the_design_is_every_pages_design():
    """A what-if the customer chooses becomes the design (it was retyped on the Design page, box by box): the Design
    page's figures are the what-if column's, under the design's name, and a new what-if is seeded from it."""
    at = _what_if(_app())
    iops = _column_metric(at, "IOPS", 1)
    name = json.loads(at.session_state["design_json"])["name"]
    _, wi = _expected(at)
    at.button(key="wi_use").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    now = Design.model_validate_json(at.session_state["design_json"])
    assert now.model_dump(exclude={"name"}) == wi.model_dump(exclude={"name"}) and now.name == name
    assert _column_metric(at, "IOPS", 0) == iops  # the Compare page's current design is the what-if
    assert at.number_input(key="wi_nodes").value == wi.nodes + 1  # a new what-if, from the new design
    at.switch_page("hciplan_ui/design_page.py").run()
    assert next(m.value for m in at.metric if m.label == "IOPS") == iops


def test_no_button_makes_a_what_if_equal_to_the_design_the_design():
    at = _app().switch_page("hciplan_ui/compare_page.py").run()
    assert any(b.key == "wi_use" for b in at.button)
    at.number_input(key="wi_nodes").set_value(json.loads(at.session_state["design_json"])["nodes"]).run()
    assert not any(b.key == "wi_use" for b in at.button)
