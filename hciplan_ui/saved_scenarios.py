"""Saved scenarios in the sidebar: the whole session (:func:`hciplan_ui.state.session`) kept
per customer in the scenario database (:mod:`planner.store.scenarios`; ``HCIPLAN_DB`` names
it): save, reopen, duplicate, delete, and two compared side by side. Drawn only while its
section is open, so no what-if waits on the database."""

from __future__ import annotations

import json
import re

import streamlit as st

from hciplan_ui import fmt, sizing_rows, state
from planner.core.errors import PlannerError
from planner.core.text import count, first_upper
from planner.store.session import MAX_NAME_CHARS, StoreError, clean_name

ss = st.session_state


def _store():
    from planner.store.scenarios import ScenarioStore

    return ScenarioStore()


#: the customer box's value, kept where Streamlit does not drop it while the section is closed
KEPT = "store_customer_kept"


def _customer() -> str:
    return clean_name(str(ss.get("store_customer") or ""))


def _why(exc: PlannerError) -> str:
    """A store error in a sentence: the scenario's name is the subject already ("Could not reopen “plan”: name: no
    scenario 'plan' ..."; new-user walk 2026-11-30)."""
    return exc.message if exc.field == "name" else str(exc)


def _say(ok: bool, text: str) -> None:
    ss["store_msg"] = (ok, text)


# the buttons' callbacks run before the next page is drawn, so a reopened session reaches every input
def _save() -> None:
    name = str(ss.get("store_name") or "").strip()
    if not name:
        _say(False, "Name the scenario to save it.")
        return
    # a name already saved is replaced only on a second press (the earlier scenario went without a word, and of two
    # browsers saving one name the first lost its work; adversarial review 2026-11-30)
    key = (name, _customer())
    replace = ss.pop("store_replace", None) == key
    try:
        e = _store().save(name, state.session(), _customer(), overwrite=replace)
    except StoreError as exc:
        if exc.field == "name" and "already exists" in str(exc):
            ss["store_replace"] = key
            _say(
                False, f"“{name}” is already saved{' for ' + key[1] if key[1] else ''}: press Save again to replace it."
            )
        else:
            _say(False, f"Not saved: {exc}")
    except PlannerError as exc:
        _say(False, f"Not saved: {exc}")
    else:
        # the scenario just saved is the one the buttons below act on (they acted on the list's first: sixteen saves
        # read "Saved for Crash: s0", and Reopen, Duplicate and Delete took s0; new-user walk 2026-11-30)
        ss["store_pick"] = e["name"]
        _say(
            True,
            ("Replaced" if replace else "Saved")
            + f" “{e['name']}”"
            + (f" for {e['customer']}." if e["customer"] else "."),
        )


def _reopen() -> None:
    name = ss.get("store_pick")
    try:
        state.load_session(_store().get(name, _customer()))
    except PlannerError as exc:
        _say(False, f"Could not reopen “{name}”: {_why(exc)}")
    else:
        _say(True, f"Reopened “{name}”: every page shows it as it was saved.")


def _duplicate() -> None:
    name = ss.get("store_pick")
    store = _store()
    try:
        taken = {e["name"] for e in store.list(_customer())}
        typed = new = str(ss.get("store_name") or "").strip()
        if not new or new in taken:
            new, i = f"{name} (copy)", 2
            while new in taken:
                new, i = f"{name} (copy {i})", i + 1
        store.duplicate(name, new, _customer())
    except PlannerError as exc:
        _say(False, f"Not duplicated: {_why(exc)}")
    else:
        ss["store_pick"] = new
        # a name typed that is taken is said, not passed over (new-user walk 2026-11-30)
        _say(True, f"Duplicated “{name}” as “{new}”" + (f" (“{typed}” is taken)." if typed and typed != new else "."))


def _delete() -> None:
    name = ss.get("store_pick")
    try:
        _store().delete(name, _customer())
    except PlannerError as exc:
        _say(False, f"Not deleted: {_why(exc)}")
    else:
        ss.pop("store_pick", None)
        _say(True, f"Deleted “{name}”.")


@st.cache_data(show_spinner=False, max_entries=32)
def _figures(session_json: str) -> dict:
    from planner.store.scenarios import scenario_figures

    return scenario_figures(json.loads(session_json))


FIGURES = (  # (key, label, format)
    ("usable_capacity_tb", "Usable capacity", fmt.tb),
    ("iops", "IOPS", fmt.iops),
    ("vm_latency_ms", "VM latency", fmt.ms),
    ("whole_usd_per_month", "Whole cost per month", fmt.usd),
    ("capex_usd", "Hardware and network, purchase", fmt.usd),
    ("tco_3y_usd", "3-year TCO", fmt.usd),
    ("tco_5y_usd", "5-year TCO", fmt.usd),
)


#: a stored session's parts as the pages name them
PART_WORDS = {
    "design": "Design",
    "workload": "Workload",
    "sized_workload": "Sized demand's workload",
    "demand": "Demand",
    "tiers": "Service tiers",
    "tier_counts": "Tier mix",
    "costs": "Cost assumptions",
    "existing": "System today",
    "whatif": "What-if",
    "sla": "SLA choices",
    "size": "Size page",
}


def path_words(path: str) -> str:
    """Where two stored sessions differ, in words: "/design/node/capacity_drives/count" ->
    "Design: node › capacity drives › count" (the dialog showed the JSON path itself, and
    "1 input(s) differ": review 2026-11-29); a list item by its place ("tiers › 2")."""
    parts = [p for p in re.split(r"/|\[(\d+)\]", path) if p]
    if not parts:
        return "The whole session"

    def words(key: str) -> str:
        # a field as its page labels it: "n_plus_one" is "N+1" and a unit follows a comma ("latency
        # target, ms"); the dialog said "SLA choices: n plus one; SLA choices: latency target ms"
        # (UI review 2026-11-29)
        if key in FIELD_WORDS:
            return FIELD_WORDS[key]
        tokens = [UNIT_WORDS.get(w, w) for w in fmt.label(key).split()]
        at = next((i for i, w in enumerate(tokens) if i and w in UNIT_TOKENS), None)
        return " ".join(tokens) if at is None else " ".join(tokens[:at]) + ", " + " ".join(tokens[at:])

    head = PART_WORDS.get(parts[0]) or first_upper(words(parts[0]))
    rest = [str(int(p) + 1) if p.isdigit() else words(p) for p in parts[1:]]
    return head + (": " + " › ".join(rest) if rest else "")


#: fields whose page label is not their name's words
FIELD_WORDS = {"n_plus_one": "N+1", "one_node_down": "one node down", "qd": "outstanding IOs"}
#: the words of a field name that are its unit (the page writes "Latency target, ms")
UNIT_TOKENS = {"ms", "TB", "GB", "KiB", "USD", "%", "months"}
#: a field name's words as a page writes them ("guaranteed_iops" -> "guaranteed IOPS")
UNIT_WORDS = {
    "pct": "%",
    "iops": "IOPS",
    "tb": "TB",
    "gb": "GB",
    "kib": "KiB",
    "usd": "USD",
    "vcpus": "vCPUs",
    "vcpu": "vCPU",
    "ram": "RAM",
    "cpu": "CPU",
    "nic": "NIC",
    "sla": "SLA",
    "db": "database",
    "vms": "VMs",
    "vm": "VM",
}


@st.dialog("Two scenarios side by side", width="large")
def _compare(a: str, b: str, customer: str) -> None:
    from planner.store.scenarios import inputs_that_differ

    try:
        store = _store()
        da, db = store.get(a, customer), store.get(b, customer)
        fa, fb = (_figures(json.dumps(d, sort_keys=True)) for d in (da, db))
    except PlannerError as exc:
        st.error(f"Could not compare: {fmt.md(exc)}")
        return
    # the design by its parts, node count and resiliency, not its name alone: two scenarios of the design
    # "reference" at 3 and 4 nodes both read "reference" (review 2026-11-29)
    named = [sizing_rows.design_label(d["design"]) if d.get("design") else fmt.DASH for d in (da, db)]
    rows = [{"": "Design", a: named[0], b: named[1]}]
    for key, label, f in FIGURES:
        va, vb = (x.get("figures", {}).get(key) for x in (fa, fb))
        if va is not None or vb is not None:
            rows.append({"": label, a: f(va), b: f(vb)})
    # a static table: its cells wrap (the grid cut a design's name at "19 x Mi" and ran its second column past
    # the dialog at 1280 px; browser review 2026-11-29); the names are escaped as every table's cells
    st.markdown(fmt.table(rows))
    # what the edit history holds (the design before the last what-if) is no input of its own
    differ = inputs_that_differ(da, db)
    st.caption(
        f"{count(len(differ), 'input')} {'differs' if len(differ) == 1 else 'differ'}: "
        + fmt.md("; ".join(path_words(p) for p in differ[:12]))
        + (" …" if len(differ) > 12 else "")
        if differ
        else "The two hold the same inputs."
    )
    st.caption(
        "Figures under each scenario's own workload, with the shipped calibration; the cost with its "
        "own cost assumptions (the defaults when it has none)."
    )


def _customer_changed() -> None:
    """Another customer's list: its first scenario is picked. The customer typed here names the document too when
    it names none yet: the proposal's box is kept in the session's link, so a reload keeps the customer and the
    list (new-user walk 2026-11-30: after a reload the box was empty and the list read "No saved scenario without a
    customer")."""
    ss.pop("store_pick", None)
    if not ss.get("report_customer") and ss.get("store_customer"):
        ss["report_customer"] = ss["store_customer"]


def panel() -> None:
    """The section's content."""
    if msg := ss.pop("store_msg", None):
        (st.success if msg[0] else st.error)(fmt.md(msg[1]))
    try:
        store = _store()
        everything = store.list()
    except PlannerError as exc:
        st.error(f"The scenario database cannot be used: {fmt.md(exc)}")
        return
    if "store_customer" not in ss and KEPT in ss:
        # the section closed drops its box's state (Streamlit forgets a widget not drawn): the customer typed comes
        # back, not the proposal's, under which the next save would have filed (finance walk 2026-11-30)
        ss["store_customer"] = ss[KEPT]
    if not ss.get("store_customer") and ss.get("report_customer"):
        # the proposal's customer, typed once: the two boxes asked for the same name, and a reload emptied this
        # one (browser review 2026-11-30)
        ss["store_customer"] = ss["report_customer"]
    st.text_input(
        "Customer",
        key="store_customer",
        # the store's and the document's limit, typed here too (300 characters filled the proposal's 200-character
        # box and were cut short without a word by the link and the store; hostile-input walk 2026-11-30)
        max_chars=MAX_NAME_CHARS,
        on_change=_customer_changed,
        help="Scenarios are kept per customer (empty: no customer).",
    )
    ss[KEPT] = ss.get("store_customer", "")
    customer = _customer()
    mine = [e for e in everything if e["customer"] == customer]
    others = sorted({e["customer"] for e in everything if e["customer"] != customer})
    st.text_input("Scenario name", key="store_name", placeholder="e.g. gold tier, 8 nodes", max_chars=MAX_NAME_CHARS)
    st.button("Save this scenario", key="store_save", on_click=_save, icon=":material/save:", width="stretch")
    if not mine:
        st.caption(
            "No saved scenario"
            + (f" for {fmt.md(customer)}" if customer else " without a customer")
            + "."
            + (f" Customers with saved scenarios: {fmt.md(', '.join(others))}." if others else "")
        )
        return
    names = [e["name"] for e in mine]
    when = {e["name"]: (e["updated_at"] or "")[:16].replace("T", " ") for e in mine}
    gone = ss.get("store_pick")
    if gone not in names:
        ss["store_pick"] = names[0]
    elif gone is not None:
        gone = None
    if gone is not None:
        # deleted or renamed elsewhere (another browser): the pick moves, and says so, so the buttons below are not
        # pressed on a scenario nobody chose (new-user walk 2026-11-30: Duplicate copied "plan (copy)")
        st.warning(f"“{fmt.md(gone)}” is no longer saved here: the list shows “{fmt.md(names[0])}”.")
    # a label is markdown: the customer's name as typed, never a link or italics (UI review 2026-11-29)
    pick = st.selectbox(f"Saved for {fmt.md(customer)}" if customer else "Saved (no customer)", names, key="store_pick")
    broken = {e["name"]: e["unreadable"] for e in mine if e.get("unreadable")}
    st.caption(
        # a damaged row is named, the others still listed (one had made the whole panel unusable)
        f"Cannot be read: {fmt.md(broken[pick])}; delete it and save it again."
        if pick in broken
        else f"Saved {when.get(pick, '')} UTC."
    )
    with st.container(horizontal=True):
        st.button("Reopen", key="store_reopen", on_click=_reopen)
        st.button("Duplicate", key="store_duplicate", on_click=_duplicate)
        with st.popover("Delete"):
            st.caption(f"Delete “{fmt.md(pick)}” for good?")
            st.button("Delete it", key="store_delete", on_click=_delete, type="primary")
    if len(names) >= 2:
        if ss.get("store_cmp_b") not in names:
            ss["store_cmp_b"] = next(n for n in names if n != pick)
        other = st.selectbox("Compare it with", names, key="store_cmp_b")
        if st.button("Compare side by side", key="store_compare", disabled=other == pick):
            _compare(pick, other, customer)
    if others:
        st.caption(f"Other customers: {fmt.md(', '.join(others))}.")
