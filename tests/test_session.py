"""One session across the app (issue 26): the start page, the share link that carries the whole
session (problem 1), a workload switch that asks before it replaces a sized demand (problem 2),
names that follow the design (problem 6), short links kept in the store, saved scenarios in the
sidebar. Streamlit's AppTest drives the app as in tests/test_app.py."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from uitables import tables

from hciplan_ui.sizing_rows import described

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
# every page whose figures follow the scenario (Calibration shows the shipped fit's validation)
PAGES = ("design", "capacity", "performance", "sla", "sizing", "compare")
SIZED = "sized demand"


def _page(name: str) -> str:
    return f"hciplan_ui/{name}_page.py"


def _open(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    if query:
        at.query_params.update(query)
    return at.run()


def _param(at: AppTest, name: str) -> str | None:
    v = at.query_params.get(name)
    return v[0] if isinstance(v, list) else v


def _metrics(at: AppTest) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


def _errors(at: AppTest) -> list[str]:
    return [re.sub(r"\\(.)", r"\1", e.value).replace("\u2060", "") for e in at.error]


def _every_page(at: AppTest) -> dict:
    """Every metric and every table of every scenario page, as the user reads them."""
    out = {}
    for name in PAGES:
        at.switch_page(_page(name)).run(timeout=120)
        assert not at.exception, (name, [e.value for e in at.exception])
        assert not _errors(at), (name, _errors(at))
        out[name] = {
            "metrics": _metrics(at),
            "tables": [d.value.to_dict("records") for d in tables(at)],
        }
    return out


def _size_and_use(at: AppTest) -> None:
    """The Size page's default demand (databases per tier), sized, and its best design used."""
    at.switch_page(_page("sizing")).run()
    next(b for b in at.button if b.label == "Size it").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    at.button(key="size_use_best").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture(scope="module")
def sender():
    """A whole scenario, as in issue 26's walk-through: size, "Use this design", the SLA page with
    N+1 on and the other tenants as the current workload, and a what-if on the Design page."""
    at = _open()
    _size_and_use(at)
    at.switch_page(_page("sla")).run()
    at.toggle(key="sla_n1").set_value(True).run()
    at.radio(key="sla_bg").set_value("current workload").run()
    at.switch_page(_page("design")).run()
    nodes = json.loads(at.session_state["design_json"])["nodes"]
    next(n for n in at.number_input if n.label == "Nodes").set_value(nodes + 1).run()
    assert json.loads(at.session_state["design_json"])["nodes"] == nodes + 1
    figures = _every_page(at)
    return at, figures


def test_the_share_link_reproduces_every_figure_on_every_page(sender):
    """Problem 1: the link held only the design, the tiers and the workload; in a fresh browser N+1
    was off, the other tenants the default, the guarantee per database 63,235 against 80,442, and the
    Size page showed the default demand and no result."""
    at, figures = sender
    token = _param(at, "s")
    assert token and len(token) <= 8_000
    other = _open({"s": token})
    assert not at.exception and not _errors(other), _errors(other)
    assert _every_page(other) == figures
    # the recipient's own link is the sender's: the whole session went across, nothing defaulted
    assert _param(other, "s") == token
    sla = dict(figures["sla"]["metrics"])
    # the sized result shows on the recipient's Size page (its cheapest design's nodes among its figures)
    assert "Guaranteed IOPS per DB" in sla and "Nodes" in dict(figures["sizing"]["metrics"])
    other.switch_page(_page("sla")).run()
    assert other.toggle(key="sla_n1").value is True and other.radio(key="sla_bg").value == "current workload"


def test_a_link_at_the_root_opens_the_design_page_and_an_old_link_still_opens():
    """Links of earlier versions (design, workload name, tiers) open as before, on the Design page."""
    ref = json.loads((ROOT / "examples" / "reference.json").read_text()) | {"nodes": 5}
    old = base64.urlsafe_b64encode(zlib.compress(json.dumps({"d": ref, "w": "Sql"}).encode(), 9)).decode().rstrip("=")
    at = _open({"s": old})
    assert not at.exception and not _errors(at)
    assert at.title[0].value == "Design"
    assert next(n for n in at.number_input if n.label == "Nodes").value == 5
    assert at.session_state["workload_name"] == "Sql"


def test_a_bad_link_is_one_message():
    for token in ("garbage!!", "eJzLSM3JyQcABiwCFQ"):
        at = _open({"s": token})
        assert not at.exception
        errs = _errors(at)
        assert len(errs) == 1 and errs[0].startswith("The shared link could not be opened"), errs
    from hciplan_ui.state import canonical

    ref = json.loads((ROOT / "examples" / "reference.json").read_text())
    for part, expect in (
        ({"sla": {"read_fraction": 7}}, "sla.read_fraction: must be between 0 and 1"),  # the slider's range
        ({"sla": {"quotes": {"file": "q.csv", "part_prices_usd": {"x": -1}}}}, "sla.quotes: part_prices_usd.x"),
        ({"sla": {"n_plus_one": "yes"}}, "sla.n_plus_one: must be true or false"),
        ({"whatif": {"compare_with": ["../../etc/passwd"]}}, "whatif.compare_with: must list"),
        ({"size": {"mode": "x" * 300}}, "size.mode: must be text of at most 200"),
        ({"workload_name": "nope"}, "unknown workload 'nope'"),
        ({"design": {**ref, "nodes": 2}}, "fault domains"),
        ({"views": {}}, "views: not a field this input takes (a typo?)"),
    ):
        token = base64.urlsafe_b64encode(
            zlib.compress(canonical({"schema_version": 2, "design": ref} | part).encode(), 9)
        )
        at = _open({"s": token.decode().rstrip("=")})
        assert not at.exception
        errs = _errors(at)
        assert len(errs) == 1 and expect in errs[0], (part, errs)
    at.switch_page(_page("sla")).run()
    assert not at.exception


def test_a_session_too_long_for_an_address_goes_by_id(monkeypatch, tmp_path):
    """Past the address limit the session is kept in the scenario store and the link holds its id."""
    from hciplan_ui import state

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "links.db"))
    monkeypatch.setattr(state, "MAX_LINK_CHARS", 200)
    at = _open().switch_page(_page("design")).run()
    next(n for n in at.number_input if n.label == "Nodes").set_value(6).run()
    link_id = _param(at, "id")
    assert link_id and _param(at, "s") is None
    other = _open({"id": link_id})
    assert not other.exception and not _errors(other)
    assert next(n for n in other.number_input if n.label == "Nodes").value == 6
    assert _param(other, "id") == link_id  # the same session, the same id
    at = _open({"id": "x" * 21})
    errs = _errors(at)
    assert len(errs) == 1 and "no scenario kept under the id" in errs[0], errs
    at = _open({"id": "../../etc/passwd"})
    assert "not a link id" in _errors(at)[0]


def test_a_workload_switch_asks_before_it_replaces_the_sized_demand():
    """Problem 2: Performance showed the demand (1,200,000 IOPS at 0.569 ms); "oltp-8k" and back to
    "custom" gave 1,485,750 IOPS at 5.320 ms with 2 vCPUs and 8 GB per VM, and the Design page then
    showed 5.320 ms. Now a profile asks first, and the sized demand stays a choice to come back to."""
    at = _open()
    _size_and_use(at)
    at.switch_page(_page("performance")).run()
    sized, sized_workload = _metrics(at), at.session_state["workload_json"]
    assert at.selectbox(key="p_workload").value == SIZED
    at.selectbox(key="p_workload").set_value("oltp-8k").run()
    assert any("would replace the sized demand" in w.value for w in at.warning)
    assert _metrics(at) == sized and at.session_state["workload_name"] == SIZED  # nothing replaced yet
    at.button(key="p_keep_sized").click().run()
    assert at.selectbox(key="p_workload").value == SIZED and _metrics(at) == sized
    at.selectbox(key="p_workload").set_value("oltp-8k").run()
    at.button(key="p_replace_sized").click().run()
    assert at.session_state["workload_name"] == "oltp-8k" and _metrics(at) != sized
    at.selectbox(key="p_workload").set_value("custom").run()  # starts from oltp-8k, as the user sees it
    assert json.loads(at.session_state["workload_json"])["vcpus_per_vm"] == 2
    at.selectbox(key="p_workload").set_value(SIZED).run()
    assert not at.exception
    assert _metrics(at) == sized
    assert at.session_state["workload_json"] == sized_workload  # the demand's VMs, not a profile's
    assert json.loads(sized_workload)["vcpus_per_vm"] == 4
    at.switch_page(_page("design")).run()
    perf = dict(sized)
    assert dict(_metrics(at))["VM latency"] == perf["VM latency"] and dict(_metrics(at))["IOPS"] == perf["IOPS"]


def test_names_follow_the_design():
    """Problem 6: the sidebar kept "13x dell-ax-6515 ... · 8 nodes"; a proposal titled with PM893
    drives listed Micron 7450 PRO. A name made from the parts follows them; a name typed stays."""
    at = _open()
    _size_and_use(at)
    at.switch_page(_page("design")).run()
    d = json.loads(at.session_state["design_json"])
    n, drive = d["nodes"], d["node"]["capacity_drives"]["model"]
    assert d["name"].startswith(f"{n}x ") and drive in d["name"]
    next(x for x in at.number_input if x.label == "Nodes").set_value(n + 2).run()
    side = " ".join(c.value for c in at.sidebar.caption).replace("\\", "")
    now = json.loads(at.session_state["design_json"])
    name = now["name"]
    assert name.startswith(f"{n + 2}x ")
    # the sidebar names the parts as a customer reads them (QA 2026-11-28: it showed the catalog ids
    # of the generated name, "6x hpe-dl380-gen11 2xintel-xeon-gold-6430 ..."), and follows the change
    assert described(now) in side and described(now).startswith(f"{n + 2} x ") and now["node"]["chassis"] not in side
    assert at.text_input(key="d_name").value == name
    other = next(k for k in ("micron-7450-pro-7.68tb", "samsung-pm9a3-7.68tb") if k != drive)
    at.selectbox(key="d_drive").set_value(other).run()
    assert not _errors(at), _errors(at)
    name = json.loads(at.session_state["design_json"])["name"]
    assert other in name and drive not in name
    words = described(json.loads(at.session_state["design_json"]))
    assert any(f"Every page shows this design: **{words}**" in c.value.replace("\\", "") for c in at.caption)
    # the start page names it so too (browser review 2026-11-29: "holds the design 4x hpe-dl380-gen11 ...")
    at.switch_page(_page("start")).run()
    held = next(c.value for c in at.caption if "The session now holds the design" in c.value).replace("\\", "")
    assert f"holds the design **{words}**" in held and "hpe-" not in held and "x " + drive not in held
    at.switch_page(_page("design")).run()
    at.text_input(key="d_name").set_value("Contoso gold").run()
    next(x for x in at.number_input if x.label == "Nodes").set_value(n).run()
    assert json.loads(at.session_state["design_json"])["name"] == "Contoso gold"
    at.text_input(key="d_name").set_value("").run()  # emptied: the parts name it again
    assert json.loads(at.session_state["design_json"])["name"].startswith(f"{n}x ")


def test_the_start_page_asks_the_customers_question():
    at = _open()
    assert at.title[0].value == "hciplan"
    labels = [b.label for b in at.button]
    assert labels[:3] == ["Size a cluster", "Check a design", "Price tiers"]
    for key, title in (("start_size", "Size a cluster"), ("start_design", "Design"), ("start_sla", "SLA & tiers")):
        at = _open()
        at.button(key=key).click().run()
        assert not at.exception and at.title[0].value == title, (key, [t.value for t in at.title])
    assert at.session_state["workload_name"] == "oltp-8k"


def test_saved_scenarios_in_the_sidebar(monkeypatch, tmp_path):
    """Save, list per customer, reopen, duplicate, compare two, delete, from the sidebar."""
    from planner.store.scenarios import ScenarioStore

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    at.sidebar.text_input(key="store_customer").set_value("Contoso")
    at.sidebar.text_input(key="store_name").set_value("three nodes").run()
    at.sidebar.button(key="store_save").click().run()
    assert not at.exception and any("Saved" in s.value for s in at.sidebar.success)
    next(x for x in at.number_input if x.label == "Nodes").set_value(5).run()
    at.sidebar.text_input(key="store_name").set_value("five nodes").run()
    at.sidebar.button(key="store_save").click().run()
    assert [e["name"] for e in ScenarioStore().list("Contoso")] == ["five nodes", "three nodes"]
    assert ScenarioStore().get("five nodes", "Contoso")["design"]["nodes"] == 5
    # two side by side
    at.sidebar.selectbox(key="store_pick").set_value("three nodes").run()
    at.sidebar.selectbox(key="store_cmp_b").set_value("five nodes").run()
    at.sidebar.button(key="store_compare").click().run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in tables(at) if "five nodes" in d.value.columns)
    assert list(table.columns) == ["", "three nodes", "five nodes"]
    caps = table.set_index("")
    # each design by its parts and node count, not the name the two share
    assert caps.loc["Design", "three nodes"] != caps.loc["Design", "five nodes"]
    assert "3 nodes" in caps.loc["Design", "three nodes"] or "3 x " in caps.loc["Design", "three nodes"]
    assert caps.loc["Usable capacity", "three nodes"] != caps.loc["Usable capacity", "five nodes"]
    assert (
        caps.loc["Whole cost per month", "five nodes"].startswith("$")
        and "/month" not in caps.loc["Whole cost per month", "five nodes"]
    )
    assert not at.dataframe  # a static table that wraps a long design name, not a grid that cuts it
    # where they differ, in words (review 2026-11-29: "1 input(s) differ: /design/nodes")
    said = [c.value.replace("\u2060", "") for c in at.caption if "differ" in c.value]
    assert said == ["1 input differs: Design: nodes"], said
    assert not any("(s)" in c.value or "/design" in c.value for c in at.caption)
    # the section stays open on another page (it closed on every page switch)
    at.switch_page(_page("performance")).run()
    assert at.sidebar.button(key="store_save")
    at.switch_page(_page("design")).run()
    # reopen the first: every page shows it as saved
    at.sidebar.button(key="store_reopen").click().run()
    assert not at.exception
    assert json.loads(at.session_state["design_json"])["nodes"] == 3
    assert next(x for x in at.number_input if x.label == "Nodes").value == 3
    at.sidebar.text_input(key="store_name").set_value("").run()
    at.sidebar.button(key="store_duplicate").click().run()
    assert "three nodes (copy)" in [e["name"] for e in ScenarioStore().list("Contoso")]
    at.sidebar.selectbox(key="store_pick").set_value("three nodes (copy)").run()
    at.sidebar.button(key="store_delete").click().run()
    assert [e["name"] for e in ScenarioStore().list("Contoso")] == ["five nodes", "three nodes"]
    at.sidebar.text_input(key="store_customer").set_value("Fabrikam").run()
    assert any("Contoso" in c.value for c in at.sidebar.caption)  # another customer's list is empty
    assert not at.exception and not _errors(at)


def test_a_scenario_saved_on_the_command_line_reopens_in_the_app(monkeypatch, tmp_path):
    """`hciplan scenario save NAME --demand FILE [--design FILE]` keeps no workload: the app reopens it
    with the demand on the Size page (sized again) and the demand's own workload as "sized demand"."""
    from planner.cli import main
    from planner.store.scenarios import ScenarioStore

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "cli.db"))
    ex = ROOT / "examples"
    d, r = str(ex / "demand-200dbs.json"), str(ex / "reference.json")
    assert main(["scenario", "save", "both", "--demand", d, "--design", r, "--customer", "Contoso"]) == 0
    assert main(["scenario", "save", "demand only", "--demand", d, "--customer", "Contoso"]) == 0
    assert len(ScenarioStore().list("Contoso")) == 2
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.session_state["store_customer"] = "Contoso"
    at.run()
    for name in ("both", "demand only"):
        at.sidebar.selectbox(key="store_pick").set_value(name).run()
        at.sidebar.button(key="store_reopen").click().run()
        assert not at.exception and not _errors(at), (name, _errors(at))
        assert at.session_state["workload_name"] == (SIZED if name == "both" else "oltp-8k")
        assert json.loads(at.session_state["design_json"])["name"] == "reference"
    at.switch_page(_page("sizing")).run(timeout=120)
    assert not at.exception and "Nodes" in dict(_metrics(at))  # sized again from the demand


def test_the_sessions_first_run_draws_one_chart_out_of_sight_and_only_then():
    """The chart that warms the browser's plotly code (hciplan_ui.chrome.warm_charts): one, in the sidebar,
    after the page, on the session's first full run; never again in the session."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    warm = [c for c in at.sidebar.get("plotly_chart") if c.proto.id and "hciplan_warm_chart" in c.proto.id]
    assert len(warm) == 1 and not at.main.get("plotly_chart")
    at.run()
    assert not at.sidebar.get("plotly_chart")
    at.switch_page("hciplan_ui/capacity_page.py").run()
    assert not at.sidebar.get("plotly_chart") and len(at.main.get("plotly_chart")) == 1


def test_saved_scenarios_say_the_customer_as_typed_and_fields_as_pages_label_them(monkeypatch, tmp_path):
    """UI review (2026-11-29): a customer typed as ``<b>Acme</b> *x* [a](http://x)`` became italics and a
    live link in the list's label; the comparison said "SLA choices: n plus one; latency target ms"."""
    from hciplan_ui.saved_scenarios import path_words

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    name = "<b>Acme</b> *x* [a](http://x)"
    at.sidebar.text_input(key="store_customer").set_value(name)
    at.sidebar.text_input(key="store_name").set_value("one").run()
    at.sidebar.button(key="store_save").click().run()
    label = at.sidebar.selectbox(key="store_pick").label
    assert "\\*x\\*" in label and "\\[a\\]" in label and "](http" not in label.replace("\\]", ""), label
    assert path_words("/sla/n_plus_one") == "SLA choices: N+1"
    assert path_words("/sla/latency_target_ms") == "SLA choices: latency target, ms"
    assert path_words("/size/growth_pct") == "Size page: growth, %"
    # browser review 2026-11-29: "Workload: vms per node"
    assert path_words("/workload/vms_per_node") == "Workload: VMs per node"


def test_results_of_another_stack_are_marked_until_sized_again():
    """Browser review 2026-11-29: changing the storage stack on the Size page left the S2D result on screen,
    unmarked, until "Size it" was pressed."""
    at = _open()
    at.switch_page(_page("sizing")).run()
    next(b for b in at.button if b.label == "Size it").click().run(timeout=120)
    assert not any("The results below are for" in w.value for w in at.warning)
    at.selectbox(key="size_stack").set_value("ceph").run()
    said = [w.value for w in at.warning if "The results below are for" in w.value]
    assert said == ["The results below are for S2D: press **Size it** to size for Ceph RBD."], said
    next(b for b in at.button if b.label == "Size it").click().run(timeout=120)
    assert not at.exception and not any("The results below are for" in w.value for w in at.warning)


def test_saving_under_a_name_already_saved_asks_before_it_replaces(monkeypatch, tmp_path):
    """Adversarial review 2026-11-30: "gold" saved at 3 nodes, then at 4, said "Saved" both times and the 3-node
    scenario was gone; of two browsers saving one name, the first lost its work without a word."""
    from planner.store.scenarios import ScenarioStore

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    at.sidebar.text_input(key="store_name").set_value("gold").run()
    at.sidebar.button(key="store_save").click().run()
    next(x for x in at.number_input if x.label == "Nodes").set_value(4).run()
    at.sidebar.button(key="store_save").click().run()
    assert not at.exception
    assert any(
        "already saved: press Save again to replace it" in e.value.replace("\u2060", "") for e in at.sidebar.error
    )
    assert ScenarioStore().get("gold", "")["design"]["nodes"] == 3  # kept until asked
    at.sidebar.button(key="store_save").click().run()
    assert any(s.value.startswith("Replaced “gold”") for s in at.sidebar.success)
    assert ScenarioStore().get("gold", "")["design"]["nodes"] == 4


def test_a_link_cut_short_says_so_and_a_stray_id_beside_a_whole_token_is_ignored():
    """Adversarial review 2026-11-30: a link cut in half said "link: not valid JSON (Unterminated string starting
    at at line 1 column 1576)"; a valid ?s= beside a stray &id=abc was thrown away with "not a link id"."""
    from hciplan_ui.state import encode_session
    from planner.store.session import ScenarioSession

    ref = json.loads((ROOT / "examples" / "reference.json").read_text()) | {"nodes": 5}
    token = encode_session(ScenarioSession(design=ref))
    at = _open({"s": token, "id": "abc"})
    assert not at.exception and not _errors(at)
    assert next(n for n in at.number_input if n.label == "Nodes").value == 5
    # a session whose JSON stops half way (as a link cut in an email reads)
    half = json.dumps({"schema_version": 1, "design": ref})[:200].encode()
    cut = base64.urlsafe_b64encode(zlib.compress(half, 9)).decode().rstrip("=")
    at = _open({"s": cut})
    errs = _errors(at)
    assert not at.exception and len(errs) == 1 and "cut short or was changed" in errs[0], errs
    assert "not valid JSON" not in errs[0] and " at at " not in errs[0]


def test_the_saved_scenarios_customer_starts_from_the_proposals(monkeypatch, tmp_path):
    """Browser review 2026-11-30: the customer's name was typed twice, once for the proposal and once for the
    saved scenarios, and the second box was empty after a reload."""
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["report_customer"] = "Contoso Bank"
    at.session_state["saved_open"] = True
    at.run()
    assert not at.exception
    assert at.sidebar.text_input(key="store_customer").value == "Contoso Bank"
    at.sidebar.text_input(key="store_customer").set_value("Fabrikam").run()
    assert at.sidebar.text_input(key="store_customer").value == "Fabrikam"  # a name typed here stays


def test_saved_scenarios_act_on_the_one_just_saved_and_say_when_the_pick_is_gone(monkeypatch, tmp_path):
    """New-user walk 2026-11-30: after saving s0, s1, s2 the list still showed s0 (and its time), so Reopen,
    Duplicate and Delete acted on s0; a scenario deleted in another browser moved the pick to the first without a
    word, and Duplicate then copied a scenario nobody chose; a taken name typed for Duplicate was passed over
    unsaid; the customer typed was lost on a reload (it was not in the session's link)."""
    from planner.store.scenarios import ScenarioStore

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    at.sidebar.text_input(key="store_customer").set_value("Crash").run()
    assert at.session_state["report_customer"] == "Crash"  # the document's customer: kept in the session's link
    for name in ("s0", "s1", "s2"):
        at.sidebar.text_input(key="store_name").set_value(name).run()
        at.sidebar.button(key="store_save").click().run()
        assert at.sidebar.selectbox(key="store_pick").value == name
    at.sidebar.text_input(key="store_name").set_value("s0").run()
    at.sidebar.button(key="store_duplicate").click().run()
    said = [re.sub(r"\\(.)", r"\1", s.value) for s in at.sidebar.success]
    assert said == ["Duplicated “s2” as “s2 (copy)” (“s0” is taken)."], said
    ScenarioStore().delete("s2 (copy)", "Crash")  # another browser deletes the one picked here
    at.run()
    first = ScenarioStore().list("Crash")[0]["name"]
    said = [re.sub(r"\\(.)", r"\1", w.value) for w in at.sidebar.warning]
    assert said == [f"“s2 (copy)” is no longer saved here: the list shows “{first}”."], said
    assert at.sidebar.selectbox(key="store_pick").value == first
    at.run()
    assert not at.sidebar.warning  # said once
    at.sidebar.text_input(key="store_customer").set_value("Other").run()
    assert not at.sidebar.warning and not at.exception


def test_a_scenario_gone_before_reopen_is_said_without_the_field_name(monkeypatch, tmp_path):
    """New-user walk 2026-11-30: "Could not reopen “plan”: name: no scenario 'plan' for customer 'Fabrikam'"."""
    from planner.store.scenarios import ScenarioStore

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    at.sidebar.text_input(key="store_customer").set_value("Fabrikam").run()
    for name in ("plan", "other"):
        at.sidebar.text_input(key="store_name").set_value(name).run()
        at.sidebar.button(key="store_save").click().run()
    ScenarioStore().delete("other", "Fabrikam")  # picked here, deleted elsewhere; no rerun between
    at.sidebar.button(key="store_reopen").click().run()
    said = [re.sub(r"\\(.)", r"\1", e.value).replace("\u2060", "") for e in at.sidebar.error]
    assert said and said[0].startswith("Could not reopen “other”: no scenario"), said


def test_the_customer_typed_survives_closing_and_opening_the_saved_scenarios_section(monkeypatch, tmp_path):
    """Finance walk 2026-11-30: with "Contoso" typed and the proposal's customer another name, closing and opening
    the section put the proposal's customer in the box ("No saved scenario for =HYPERLINK(...)"); the next save
    would have filed under it."""
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["report_customer"] = "Someone Else"
    at.session_state["saved_open"] = True
    at.run()
    at.sidebar.text_input(key="store_customer").set_value("Contoso").run()
    at.sidebar.text_input(key="store_name").set_value("plan").run()
    at.sidebar.button(key="store_save").click().run()
    at.session_state["saved_open"] = False
    at.run()
    at.session_state["saved_open"] = True
    at.run()
    assert not at.exception
    assert at.sidebar.text_input(key="store_customer").value == "Contoso"
    assert at.sidebar.selectbox(key="store_pick").value == "plan"


def test_a_link_that_is_no_scenario_says_the_link_once():
    """Hostile-input walk 2026-11-30: "(link: the link is not a valid hciplan scenario (corrupted or truncated))"
    named the link twice."""
    at = _open({"s": "garbage!!"})
    errs = _errors(at)
    assert len(errs) == 1 and "(link:" not in errs[0], errs


def test_the_saved_scenarios_boxes_take_the_names_length_the_store_and_the_document_take(monkeypatch, tmp_path):
    """Hostile-input walk 2026-11-30: 300 characters typed in Saved scenarios' Customer filled the proposal's
    200-character box, and the link and the store cut them short without a word."""
    from planner.store.session import MAX_NAME_CHARS

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "saved.db"))
    at = _open().switch_page(_page("design")).run()
    at.session_state["saved_open"] = True
    at.run()
    assert at.sidebar.text_input(key="store_customer").max_chars == MAX_NAME_CHARS
    assert at.sidebar.text_input(key="store_name").max_chars == MAX_NAME_CHARS


def test_a_designs_words_carry_its_ram():
    """Verification walk 2026-12-01: a what-if of RAM alone (1,536 GB for 1,024) was named on the Size page as "another
    (5 x ... three-way mirror)", the same words as the sized design: the words name the RAM."""
    from hciplan_ui.sizing_rows import described

    d = json.loads((Path(__file__).resolve().parents[1] / "examples" / "reference.json").read_text())
    more = d | {"node": d["node"] | {"ram_gb": 1536}}
    assert described(d) != described(more) and "1,536 GB RAM" in described(more)
