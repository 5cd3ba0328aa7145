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
from planner.tiers import TierSet
from ui import chrome, export, state

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LICENCE_OPTIONS = {"windows-server-datacenter": "Windows Server Datacenter core licences (perpetual, amortised)",
                   "azure-local": "Azure Local host fee (per core per month)",
                   "azure-local-windows": "Azure Local host fee + Windows Server subscription"}
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
def _tiers(design_json: str, costs_json: str, n_plus_one: bool, tiers_json: str) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.pricing import tier_prices

    rd = resolve(parse_design(design_json), load_catalog())
    return tier_prices(rd, TierSet.model_validate_json(tiers_json), CostAssumptions.model_validate_json(costs_json),
                       n_plus_one=n_plus_one)


@st.cache_data(show_spinner=False, max_entries=64)
def _mix(design_json: str, counts_json: str, n_plus_one: bool, tiers_json: str) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.tiers import fit_mix

    rd = resolve(parse_design(design_json), load_catalog())
    return fit_mix(rd, TierSet.model_validate_json(tiers_json), json.loads(counts_json), n_plus_one)


TIER_COLUMNS = {
    "name": st.column_config.TextColumn("tier", required=True),
    "guaranteed_iops": st.column_config.NumberColumn("guaranteed IOPS", min_value=1, required=True),
    "burst_iops": st.column_config.NumberColumn("burst IOPS", min_value=1, required=True),
    "latency_target_ms": st.column_config.NumberColumn("latency target, ms", min_value=0.02, format="%.3f",
                                                       required=True),
    "latency_statistic": st.column_config.SelectboxColumn("statistic", options=["mean", "p90", "p99"], required=True),
    "capacity_tb_per_db": st.column_config.NumberColumn("size, TB", min_value=0.001, required=True),
    "block_size_kib": st.column_config.NumberColumn("block, KiB", min_value=0.5, required=True),
    "read_fraction": st.column_config.NumberColumn("read share", min_value=0.0, max_value=1.0, required=True),
    "vcpus_per_db": st.column_config.NumberColumn("vCPUs", min_value=1, step=1, required=True),
    "ram_gb_per_db": st.column_config.NumberColumn("RAM, GB", min_value=0.5, required=True),
}


def _tier_editor() -> None:
    """The tier set, editable: a valid edit becomes the scenario's tiers (shared
    in the link, used by pricing here and by the Size page); an invalid one is
    reported naming the tier and field, and the last valid set stays in use."""
    import hashlib

    import pandas as pd

    base = st.session_state.setdefault("tier_editor_base", state.tiers_json())
    df = pd.DataFrame(TierSet.model_validate_json(base).model_dump(mode="json")["tiers"])[list(TIER_COLUMNS)]
    key = "tier_editor_" + hashlib.sha1(base.encode()).hexdigest()[:10]
    edited = st.data_editor(df, key=key, num_rows="dynamic", hide_index=True, column_config=TIER_COLUMNS,
                            width="stretch")
    records = [{k: (None if pd.isna(v) else (int(v) if k == "vcpus_per_db" else v)) for k, v in row.items()}
               for row in edited.to_dict("records")]
    try:
        new = TierSet.model_validate({"tiers": records})
    except ValidationError as exc:
        st.error("Tiers not applied: " + format_validation_error(exc, prefix="tiers"))
        return
    new_json = state.canonical(new.model_dump(mode="json"))
    if new_json != state.tiers_json():
        state.set_tiers(new_json, reseed_editor=False)
    c = st.columns(3)
    if c[0].button("Reset to the shipped tiers", key="tiers_reset"):
        state.set_tiers(None)
        st.rerun()
    c[1].download_button("Tiers JSON", json.dumps(new.model_dump(mode="json"), indent=1), file_name="tiers.json",
                         mime="application/json")
    up = c[2].file_uploader("Load tiers JSON", type=["json"], key="tiers_upload")
    if up is not None and up.size <= 1_000_000:
        try:
            t = TierSet.model_validate_json(up.getvalue())
        except ValidationError as exc:
            st.error("tiers file: " + format_validation_error(exc, prefix="tiers"))
        else:
            tj = state.canonical(t.model_dump(mode="json"))
            if tj != state.tiers_json():
                state.set_tiers(tj)
                st.rerun()


chrome.header("SLA & tiers")
dj = state.design_json()
n1 = st.toggle("Plan for N+1 (one node down)", key="sla_n1")

st.subheader("Guarantee for one database")
bg_choice = st.radio("Other tenants on the cluster", ["none", "current workload", "25 VMs/node at 1,000 IOPS each"],
                     index=2, horizontal=True, key="sla_bg")
background = {"none": None, "current workload": state.workload_json(),
              "25 VMs/node at 1,000 IOPS each": (EXAMPLES / "background-25vms.json").read_text()}[bg_choice]
c = st.columns(6)
size_tb = c[0].number_input("Size, TB", 0.01, 10_000.0, value=4.0, key="sla_size")
vcpus = c[1].number_input("vCPUs", 1, 512, value=16, key="sla_vcpus")
threads = c[2].number_input("IO threads", 1, 1024, value=4, key="sla_threads")
qd = c[3].number_input("Outstanding per thread", 1, 4096, value=16, key="sla_qd")
target = c[4].number_input("Latency target, ms", 0.001, 10_000.0, value=1.0, format="%.3f", key="sla_target")
stat = c[5].selectbox("Statistic", ["mean", "p90", "p99"], key="sla_stat")
c2 = st.columns(3)
bs = c2[0].selectbox("Block size, KiB", [4, 8, 16, 32, 64], index=0, key="sla_bs")
rf = c2[1].slider("Read share", 0.0, 1.0, 1.0, 0.05, key="sla_rf")
try:
    db = Database(name="db", size_tb=size_tb, vcpus=vcpus, threads=threads, outstanding_per_thread=qd,
                  block_size_kib=bs, read_fraction=rf, latency_target_ms=target, latency_statistic=stat)
    g = _guarantee(dj, db.model_dump_json(), background, n1)
except ValidationError as exc:
    st.error(format_validation_error(exc))
except PlannerError as exc:
    st.error(str(exc))
else:
    m = st.columns(4)
    m[0].metric("Guaranteed IOPS", f"{g['guaranteed_iops']:,.0f}")
    m[0].caption(f"band {g['guaranteed_iops_low']:,.0f}–{g['guaranteed_iops_high']:,.0f}")
    m[1].metric(f"{g['latency_statistic']} latency at that load", f"{g['latency_ms']:.3f} ms")
    m[2].metric("Binding constraint", SLA_LABELS.get(g["binding_constraint"], g["binding_constraint"]))
    m[3].metric("IOPS per GB", f"{g['iops_per_gb']:.2f}")
    if not state.presenter():
        st.dataframe([{"bound": SLA_LABELS.get(k, k), "IOPS": round(v, 1)} for k, v in g["bounds_iops"].items()],
                     hide_index=True)
    if g.get("note"):
        st.caption(g["note"])

st.subheader("Service tiers")
st.caption("Edit, add or remove tiers: they travel with the scenario and its share link, and drive the prices "
           "below and the Size page.")
_tier_editor()
tiers_json = state.tiers_json()

st.subheader("Tiers on this design")
with st.expander("Cost assumptions (editable)", expanded=False):
    d = CostAssumptions()
    a = st.columns(4)
    months = a[0].number_input("Amortisation, months", 1, 120, d.amortisation_months, key="cost_months")
    kwh = a[1].number_input("Power, USD/kWh", 0.0, 10.0, d.power_usd_per_kwh, key="cost_kwh")
    pue = a[2].number_input("PUE", 1.0, 5.0, d.pue, key="cost_pue")
    ru = a[3].number_input("Rack unit, USD/month", 0.0, 10_000.0, d.rack_unit_usd_per_month, key="cost_ru")
    b = st.columns(4)
    lic = b[0].number_input("Windows Datacenter, USD/core", 0.0, 100_000.0, d.windows_datacenter_usd_per_core,
                            key="cost_lic")
    sup = b[1].number_input("Support, share of capex/year", 0.0, 1.0, d.support_pct_per_year, key="cost_sup")
    margin = b[2].number_input("Target margin", 0.0, 0.95, d.target_margin, key="cost_margin")
    fill = b[3].number_input("Target fill", 0.05, 1.0, d.target_fill, key="cost_fill")
    c3 = st.columns(3)
    lic_opt = c3[0].selectbox("Licensing in the monthly cost", list(LICENCE_OPTIONS), format_func=LICENCE_OPTIONS.get,
                              key="cost_lic_opt")
    al = c3[1].number_input("Azure Local host fee, USD/core/month", 0.0, 10_000.0, d.azure_local_usd_per_core_month,
                            key="cost_al")
    ws = c3[2].number_input("Windows Server add-on, USD/core/month", 0.0, 10_000.0,
                            d.windows_subscription_usd_per_core_month, key="cost_ws")
    st.caption("Licence prices are public list prices (planner/data/licensing.json, with sources and dates): edit "
               "them to your agreement.")
try:
    costs = CostAssumptions(amortisation_months=months, power_usd_per_kwh=kwh, pue=pue, rack_unit_usd_per_month=ru,
                            windows_datacenter_usd_per_core=lic, support_pct_per_year=sup, target_margin=margin,
                            target_fill=fill, licence_option=lic_opt, azure_local_usd_per_core_month=al,
                            windows_subscription_usd_per_core_month=ws)
    st.session_state["costs_json"] = costs.model_dump_json()
    tp = _tiers(dj, costs.model_dump_json(), n1, tiers_json)
except ValidationError as exc:
    st.error(format_validation_error(exc))
except PlannerError as exc:
    st.error(str(exc))
else:
    rows = [{"tier": k} | {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
            for k, v in tp["tiers"].items()]
    st.dataframe(rows, hide_index=True, width="stretch")
    cost = tp["monthly_cost"]
    m = st.columns(2)
    m[0].metric("Cluster cost per month", f"${cost['per_cluster']['total_usd_per_month']:,.0f}")
    m[1].metric("Capex", f"${cost['capex_usd']:,.0f}")
    st.markdown("**A tier mix on this design**")
    mc = st.columns(len(tp["tiers"]))
    for name in tp["tiers"]:
        st.session_state.setdefault(f"mix_{name}", 0)  # the Size page may have set the demand's counts
    counts = {name: int(mc[i].number_input(name, 0, 100_000, key=f"mix_{name}")) for i, name in enumerate(tp["tiers"])}
    if any(counts.values()):
        mix = _mix(dj, json.dumps(counts), n1, tiers_json)["mix"]
        used = ", ".join(f"{k} {v:.0%}" for k, v in mix["utilization"].items())
        (st.success if mix["fits"] else st.error)(
            f"{'Fits' if mix['fits'] else 'Does not fit'}: {used}; first to run out: {mix['first_to_run_out']}")
    if not state.presenter():
        e = st.columns(2)
        e[0].download_button("Tier prices CSV", export.to_csv(rows), file_name="tier_prices.csv", mime="text/csv")
        e[1].download_button("Pricing JSON", json.dumps(tp, indent=1, default=str), file_name="tier_prices.json",
                             mime="application/json")
        st.caption(f"Licence: {cost['licence_source']}.")
