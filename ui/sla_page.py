"""SLA & tiers page: guaranteed IOPS for one database at its latency target
next to the other tenants, how many DBs of each tier fit, and what each tier
costs per month under editable assumptions (planner.sla, planner.tiers,
planner.pricing)."""
from __future__ import annotations

import json
from pathlib import Path

import streamlit as st
from pydantic import ValidationError

from planner.errors import PlannerError, format_validation_error
from planner.pricing import CostAssumptions
from planner.sla import Database
from planner import jsonio
from ui import chrome, export, fmt, inputs, state

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SLA_LABELS = {
    "latency_target": "latency target", "vm_outstanding_io": "the DB's outstanding IO (Little's law)",
    "vm_vcpu_share": "the DB's vCPU share", "node_headroom": "node headroom",
    "cluster_headroom": "cluster headroom", "capacity": "capacity", "n_plus_one": "N+1",
}


@st.cache_data(show_spinner=False, max_entries=64)
def _guarantee(design_json: str, db_json: str, background_json: str | None, n_plus_one: bool) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.sla import guarantee
    from planner.workload import parse_workload

    rd = resolve(parse_design(design_json), load_catalog())
    bg = parse_workload(background_json) if background_json else None
    return guarantee(rd, Database.model_validate_json(db_json), bg, n_plus_one=n_plus_one).model_dump(mode="json")


@st.cache_data(show_spinner=False, max_entries=64)
def _tiers(design_json: str, costs_json: str, n_plus_one: bool) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.pricing import tier_prices
    from planner.tiers import default_tiers

    rd = resolve(parse_design(design_json), load_catalog())
    return tier_prices(rd, default_tiers(), CostAssumptions.model_validate_json(costs_json), n_plus_one=n_plus_one)


@st.cache_data(show_spinner=False, max_entries=64)
def _mix(design_json: str, counts_json: str, n_plus_one: bool) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.tiers import default_tiers, fit_mix

    rd = resolve(parse_design(design_json), load_catalog())
    return fit_mix(rd, default_tiers(), json.loads(counts_json), n_plus_one)


chrome.header("SLA & tiers")
dj = state.design_json()
n1 = st.toggle("Plan for N+1 (one node down)", key="sla_n1")

st.subheader("Guarantee for one database")
bg_choice = st.radio("Other tenants on the cluster", ["none", "current workload", "25 VMs/node at 1,000 IOPS each"],
                     index=2, horizontal=True, key="sla_bg")
background = {"none": None, "current workload": state.workload_json(),
              "25 VMs/node at 1,000 IOPS each": (EXAMPLES / "background-25vms.json").read_text()}[bg_choice]
c = st.columns(6)
B = inputs.model_bounds
size_tb, e1 = inputs.number(c[0], "Size, TB", "sla_size", B(Database, "size_tb"), unit="TB", default=4.0)
vcpus, e2 = inputs.number(c[1], "vCPUs", "sla_vcpus", B(Database, "vcpus"), integer=True, step=1, default=16)
threads, e3 = inputs.number(c[2], "IO threads", "sla_threads", B(Database, "threads"), integer=True, step=1,
                            default=4)
qd, e4 = inputs.number(c[3], "Outstanding per thread", "sla_qd", B(Database, "outstanding_per_thread"),
                       integer=True, step=1, default=16)
target, e5 = inputs.number(c[4], "Latency target, ms", "sla_target", B(Database, "latency_target_ms"), unit="ms",
                           format="%.3f", default=1.0)
for col, e in zip(c, (e1, e2, e3, e4, e5)):
    inputs.show(col, e)
stat = c[5].selectbox("Statistic", ["mean", "p90", "p99"], key="sla_stat")
c2 = st.columns(3)
bs = c2[0].selectbox("Block size, KiB", [4, 8, 16, 32, 64], index=0, key="sla_bs")
rf = c2[1].slider("Read share", 0.0, 1.0, 1.0, 0.05, key="sla_rf")
if not any((e1, e2, e3, e4, e5)):
    try:
        db = Database(name="db", size_tb=size_tb, vcpus=int(vcpus), threads=int(threads),
                      outstanding_per_thread=int(qd), block_size_kib=bs, read_fraction=rf, latency_target_ms=target,
                      latency_statistic=stat)
        g = _guarantee(dj, db.model_dump_json(), background, n1)
    except ValidationError as exc:
        st.error(fmt.md(format_validation_error(exc)))
    except PlannerError as exc:
        st.error(fmt.md(exc))
    else:
        m = st.columns(4)
        m[0].metric("Guaranteed IOPS", fmt.iops(g["guaranteed_iops"]))
        if g["guaranteed_iops_low"] < g["guaranteed_iops_high"]:
            m[0].caption(f"band {fmt.span(g['guaranteed_iops_low'], g['guaranteed_iops_high'])}")
        m[1].metric(f"{g['latency_statistic']} latency at that load", fmt.ms(g["latency_ms"]),
                    help=g.get("latency_note") or None)
        m[2].metric("Binding constraint", SLA_LABELS.get(g["binding_constraint"], fmt.label(g["binding_constraint"])))
        m[3].metric("IOPS per GB", fmt.num(g["iops_per_gb"], 2))
        if not state.presenter():
            st.dataframe([{"Bound": SLA_LABELS.get(k, fmt.label(k)), "IOPS": fmt.iops(v),
                           "Binding": "yes" if k == g["binding_constraint"] else ""}
                          for k, v in g["bounds_iops"].items()], hide_index=True)
        for note in (g.get("note"), g.get("latency_note")):
            if note:
                st.caption(fmt.md(note))

st.subheader("Tiers on this design")
with st.expander("Cost assumptions (editable)", expanded=False):
    d = CostAssumptions()
    a = st.columns(4)
    b = st.columns(4)
    C = lambda f: inputs.model_bounds(CostAssumptions, f)  # noqa: E731
    spec = [  # (column, label, key, field, unit, integer, format)
        (a[0], "Amortisation, months", "cost_months", "amortisation_months", "months", True, None),
        (a[1], "Power, USD/kWh", "cost_kwh", "power_usd_per_kwh", "USD/kWh", False, "%.3f"),
        (a[2], "PUE", "cost_pue", "pue", "", False, None),
        (a[3], "Rack unit, USD/month", "cost_ru", "rack_unit_usd_per_month", "USD/month", False, None),
        (b[0], "Windows Datacenter, USD/core", "cost_lic", "windows_datacenter_usd_per_core", "USD", False, None),
        (b[1], "Support, share of capex/year", "cost_sup", "support_pct_per_year", "", False, None),
        (b[2], "Target margin", "cost_margin", "target_margin", "", False, None),
        (b[3], "Target fill", "cost_fill", "target_fill", "", False, None),
    ]
    figures, cost_errors = {}, []
    for col, lab, key, field, unit, integer, f in spec:
        figures[field], e = inputs.number(col, lab, key, C(field), unit=unit, integer=integer, format=f,
                                          step=1 if integer else None, default=getattr(d, field))
        inputs.show(col, e)
        cost_errors.append(e)
tp = None
if any(cost_errors):
    st.warning("A cost assumption is out of range: tier prices are not shown until it is fixed.")
else:
    try:
        costs = CostAssumptions(**{k: (int(v) if k == "amortisation_months" else v) for k, v in figures.items()})
        tp = _tiers(dj, costs.model_dump_json(), n1)
    except ValidationError as exc:
        st.error(fmt.md(format_validation_error(exc)))
    except PlannerError as exc:
        st.error(fmt.md(exc))
if tp is not None:
    rows = []
    for k, v in tp["tiers"].items():
        rows.append({"Tier": k, "Max DBs": f"{v['max_dbs']:,}", "Limited by": v["limited_by"].replace("_", " "),
                     "Price, USD/month": fmt.usd(v["price_usd_per_month"], 2),
                     "Cost share, USD/month": fmt.usd(v["cost_share_usd_per_month"], 2),
                     "Cost per guaranteed IOPS, USD/month": fmt.usd(v["cost_usd_per_guaranteed_iops_per_month"], 4),
                     "Cost per GB, USD/month": fmt.usd(v["cost_usd_per_gb_per_month"], 4),
                     "Break-even fill": fmt.pct(v["break_even_fill"]),
                     "Note": v.get("price_note", "")})
    st.dataframe(rows, hide_index=True, width="stretch")
    csv_rows = [{"tier": k} | {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
                for k, v in tp["tiers"].items()]
    cost = tp["monthly_cost"]
    m = st.columns(2)
    m[0].metric("Cluster cost per month", fmt.usd(cost["per_cluster"]["total_usd_per_month"]))
    m[1].metric("Capex", fmt.usd(cost["capex_usd"]))
    st.markdown("**A tier mix on this design**")
    mc = st.columns(len(tp["tiers"]))
    counts, mix_errors = {}, []
    for i, name in enumerate(tp["tiers"]):
        counts[name], e = inputs.number(mc[i], fmt.md(name), f"mix_{name}", (0, 100_000, False), integer=True,
                                        step=1, default=0)
        inputs.show(mc[i], e)
        mix_errors.append(e)
    if not any(mix_errors) and any(counts.values()):
        mix = _mix(dj, json.dumps({k: int(v) for k, v in counts.items()}), n1)["mix"]
        used = ", ".join(f"{k.replace('_', ' ')} {fmt.pct(v)}" for k, v in mix["utilization"].items())
        (st.success if mix["fits"] else st.error)(
            f"{'Fits' if mix['fits'] else 'Does not fit'}: {used}; first to run out: "
            f"{mix['first_to_run_out'].replace('_', ' ')}")
    if not state.presenter():
        e = st.columns(2)
        e[0].download_button("Tier prices CSV", export.to_csv(csv_rows), file_name="tier_prices.csv",
                             mime="text/csv")
        e[1].download_button("Pricing JSON", jsonio.dumps(tp, indent=1), file_name="tier_prices.json",
                             mime="application/json")
        st.caption(f"Licence: {fmt.md(cost['licence_source'])}.")
