"""Compare / what-if: the current design next to examples of any architecture
(hyperconverged, disaggregated file server, split provisioning, single server)
and a what-if variant, under the current workload or the IO a database
description asks for; a tornado of which input moves IOPS and latency most."""
from __future__ import annotations

import json

import streamlit as st

from planner.architectures import TOPOLOGY_LABELS, example_designs
from planner.dbworkload import SOURCES, DatabaseIo, as_workload, io_demand
from planner.errors import PlannerError
from planner.performance import BOTTLENECK_LABELS
from ui import charts, chrome, export, state

chrome.header("Compare / what-if")
ss = st.session_state
dj = state.design_json()
cur = json.loads(dj)

# ------------------------------------------------------------------ workload
source = st.radio("Workload", [f"current ({state.workload_name()})", "from a database description"],
                  key="cmp_wsource", horizontal=True,
                  help="The current workload is chosen on the Performance page. A database description is "
                       "translated into IO by type (planner.dbworkload) and evaluated as an open load.")
wj = state.workload_json()
db_demand = None
if source.startswith("from"):
    with st.expander("Database → IO demand (every assumption can be overridden)", expanded=True):
        c = st.columns(4)
        size = c[0].number_input("Database size, GB", 1.0, 1e7, 1000.0, key="db_size_gb")
        bp = c[1].number_input("Buffer pool, GB", 1.0, 1e6, 128.0, key="db_buffer_pool_gb")
        kind = c[2].selectbox("Rate as HammerDB reports it", ["NOPM", "TPM"], key="db_rate_kind",
                              help="NOPM: new orders per minute; TPM: the database's commits + rollbacks per minute")
        rate = c[3].number_input(kind, 1.0, 1e10, 200_000.0, key="db_rate")
        peak = st.toggle("Size for the peak (checkpoint bursts) rather than the mean", value=True, key="db_peak")
        defaults = DatabaseIo(size_gb=1, buffer_pool_gb=1, nopm=1)
        overrides = {}
        st.caption("Assumptions: the value used and where it comes from.")
        for field, why in SOURCES.items():
            default = getattr(defaults, field)
            cols = st.columns([1, 3])
            if field == "checkpoint_mode":
                overrides[field] = cols[0].selectbox(field, ["indirect", "automatic"], key=f"db_{field}")
            elif field == "lazy_writer_share":
                v = cols[0].number_input(field + " (0 = from the miss ratio)", 0.0, 1.0, 0.0, step=0.05,
                                         key=f"db_{field}")
                overrides[field] = v if v > 0 else None
            elif field == "write_pages_per_io":
                overrides[field] = int(cols[0].number_input(field, 1, 32, int(default), key=f"db_{field}"))
            else:
                overrides[field] = cols[0].number_input(field, value=float(default), min_value=0.0,
                                                        key=f"db_{field}")
            cols[1].caption(state.plain(why))
        c = st.columns(2)
        overrides["scan_mb_s"] = c[0].number_input("Scans (read-ahead), MB/s", 0.0, 1e6, 0.0, key="db_scan_mb_s")
        overrides["backup_mb_s"] = c[1].number_input("Backup running, MB/s", 0.0, 1e6, 0.0, key="db_backup_mb_s")
        try:
            db = DatabaseIo(name="database", size_gb=size, buffer_pool_gb=bp,
                            **({"nopm": rate} if kind == "NOPM" else {"tpm": rate}), **overrides)
            db_demand = io_demand(db)
        except (PlannerError, ValueError) as exc:
            st.error(f"database: {exc}")
            st.stop()
        if db_demand is not None:
            w = as_workload(db_demand, peak=peak)
            wj = state.canonical(w.model_dump(mode="json"))
            rows = [{"IO type": s.name, "size KiB": round(s.block_size_kib, 1), "read": s.read, "random": s.random,
                     "IOPS (mean)": round(s.iops), "IOPS (peak)": round(s.peak_iops),
                     "MB/s (mean)": round(s.bandwidth_mb_s, 1), "rule": s.rule} for s in db_demand.streams]
            st.dataframe(rows, hide_index=True, width="stretch", key="db_streams")
            st.caption(f"{db_demand.transactions_per_s:,.0f} transactions/s, buffer-pool hit "
                       f"{db_demand.buffer_hit_ratio:.0%}: **{db_demand.iops:,.0f} IOPS mean, "
                       f"{db_demand.peak_iops:,.0f} peak**, {db_demand.read_fraction:.0%} reads, "
                       f"{db_demand.block_size_kib:.1f} KiB mean size; evaluated as an open load of "
                       f"{w.iops:,.0f} IOPS.")
else:
    st.caption(f"Workload **{state.workload_name()}** (change it on the Performance page).")

# ------------------------------------------------------------------ designs
examples = example_designs()
others = st.multiselect("Compare the current design with (up to 3)", list(examples), max_selections=3,
                        key="cmp_examples", default=None,
                        format_func=lambda n: f"{n} ({TOPOLOGY_LABELS[examples[n]]})")
with st.expander("What-if variant of the current design", expanded=True):
    c = st.columns(4)
    if "wi_nodes" not in ss:
        ss["wi_nodes"] = min(cur["nodes"] + 1, 16)
        ss["wi_drives"] = cur["node"]["capacity_drives"]["count"]
        ss["wi_cap"] = float(cur["cpu_utilization_cap"])
    on = c[0].checkbox("Include what-if", value=True, key="wi_on")
    c[1].number_input("Nodes", 1, 16, key="wi_nodes")
    c[2].number_input("Drives per node", 1, 200, key="wi_drives")
    c[3].slider("CPU cap", 0.05, 1.0, step=0.05, key="wi_cap")

scenarios = [("current", dj)]
errors = []
if on and len(others) < 3:
    wi = json.loads(dj)
    wi["name"] = "what-if"
    wi["nodes"] = int(ss["wi_nodes"])
    wi["node"]["capacity_drives"]["count"] = int(ss["wi_drives"])
    wi["cpu_utilization_cap"] = float(ss["wi_cap"])
    try:
        scenarios.append(("what-if", state.validate_design(wi)))
    except PlannerError as exc:
        errors.append(f"what-if: {exc}")
for name in others:
    scenarios.append((name, state.example_json(name)))
for e in errors:
    st.error(e)


def bottleneck_label(r: dict) -> str:
    labels = {s["station"]: s["label"] for s in r.get("model", {}).get("stations", [])}
    b = r.get("bottleneck", "none")
    return labels.get(b) or BOTTLENECK_LABELS.get(b, b)


def uncalibrated(r: dict) -> str | None:
    return next((f["message"] for f in r.get("extrapolation", []) if f["dimension"] == "topology"), None)


METRICS = [("usable_capacity_tb", "Usable TB", "{:,.2f}"), ("iops", "IOPS", "{:,.0f}"),
           ("read_latency_ms", "Read ms", "{:.3f}"), ("write_latency_ms", "Write ms", "{:.3f}"),
           ("vm_latency_ms", "VM ms", "{:.3f}"), ("p99_read_latency_ms", "p99 read ms", "{:.3f}")]
reports = []
for n, d in scenarios:
    try:
        reports.append((n, state.report(d, wj)))
    except PlannerError as exc:
        st.error(f"{n}: {exc}")
base = reports[0][1]
cols = st.columns(len(reports))
for col, (name, r) in zip(cols, reports):
    with col:
        st.subheader(name)
        arch = TOPOLOGY_LABELS.get(r.get("topology", "hyperconverged"), "")
        st.caption(f"{arch} · {r['nodes']} server(s) · {r['resiliency']} · {r['transport']}")
        for key, label, fmt in METRICS[:3] + METRICS[3:5]:
            delta = None
            if name != "current" and base[key]:
                delta = f"{r[key] / base[key] - 1:+.1%}"
            st.metric(label, fmt.format(r[key]), delta=delta, delta_color="inverse" if "ms" in label else "normal")
        if "iops_low" in r and r["iops_low"] != r["iops_high"]:
            st.caption(f"IOPS band {r['iops_low']:,.0f}–{r['iops_high']:,.0f}")
        st.caption(f"bottleneck: {bottleneck_label(r)}")
        why = uncalibrated(r)
        if why:
            st.caption(f":orange[outside the calibrated domain] — {state.plain(why)}")

table = []
for name, r in reports:
    row = {"scenario": name, "architecture": TOPOLOGY_LABELS.get(r.get("topology", "hyperconverged"))}
    for key, label, _ in METRICS:
        row[label] = round(r[key], 4)
        if name != "current":
            row[f"Δ {label} %"] = round((r[key] / base[key] - 1) * 100, 2) if base[key] else None
    row["bottleneck"] = bottleneck_label(r)
    row["calibrated"] = uncalibrated(r) is None
    table.append(row)
if not state.presenter():
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Comparison CSV", export.to_csv(table), file_name="comparison.csv", mime="text/csv")

c1, c2 = st.columns(2)
c1.plotly_chart(charts.compare_bars([n for n, _ in reports], [r["iops"] for _, r in reports], "IOPS", "IOPS"),
                width="stretch", key="cmp_iops")
c2.plotly_chart(charts.compare_bars([n for n, _ in reports], [r["usable_capacity_tb"] for _, r in reports],
                                    "Usable capacity", "TB"), width="stretch", key="cmp_cap")

for name, r in reports:
    if r.get("scaling"):
        st.subheader(f"{name}: more database servers on the same file servers")
        st.plotly_chart(charts.compare_bars([f"{s['db_servers']} server(s)" for s in r["scaling"]],
                                            [s["iops"] for s in r["scaling"]], "IOPS by database servers", "IOPS"),
                        width="stretch", key=f"cmp_scaling_{name}")
        st.caption(" · ".join(f"{s['db_servers']}: {bottleneck_label({**r, 'bottleneck': s['bottleneck']})}"
                              for s in r["scaling"]))
if any("model" in r for _, r in reports) and not state.presenter():
    with st.expander("How each architecture is modelled (stations)"):
        for name, r in reports:
            if "model" in r:
                st.markdown(f"**{state.plain(name)}** ({TOPOLOGY_LABELS[r['topology']]})")
                st.dataframe([{"station": s["label"], "what": s["what"]} for s in r["model"]["stations"]],
                             hide_index=True, width="stretch")
                for note in r.get("notes", []):
                    st.caption(state.plain(note))

st.subheader("Which input matters most (current design)")
rows = state.tornado(dj, state.workload_json())
c1, c2, c3 = st.columns(3)
c1.plotly_chart(charts.tornado(rows, "iops", "IOPS"), width="stretch", key="tor_iops")
c2.plotly_chart(charts.tornado(rows, "vm_latency_ms", "VM latency, ms"), width="stretch", key="tor_lat")
c3.plotly_chart(charts.tornado(rows, "cost_usd_per_month", "cost, USD/month"), width="stretch", key="tor_cost")
st.caption("Each bar changes one input (the other inputs stay) and shows the change against the current "
           "design; a missing bar means that setting is not a valid design.")
