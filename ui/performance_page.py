"""Performance page: workload picker, headline figures with bands, latency vs
IOPS curve, utilisation with the bottleneck, degraded mode, exports."""
from __future__ import annotations

import json

from planner.performance import BOTTLENECK_LABELS
import streamlit as st

from planner.errors import PlannerError
from planner.workload import parse_workload, profiles
from ui import charts, chrome, export, state

chrome.header("Performance")
ss = st.session_state

# ------------------------------------------------------------ workload
names = list(profiles()) + ["custom"]
if "p_workload" not in ss:
    ss["p_workload"] = state.workload_name() if state.workload_name() in names else names[0]
wcol, dcol = st.columns([2, 3])
choice = wcol.selectbox("Workload", names, key="p_workload",
                        format_func=lambda n: n if n == "custom" else f"{n} — {profiles()[n].description}")
if choice == "custom":
    base = json.loads(state.workload_json())
    with st.expander("Custom workload", expanded=True):
        c = st.columns(6)
        defaults = {"c_bs": float(base.get("block_size_kib", 8.0)), "c_read": float(base.get("read_fraction", 0.7)),
                    "c_rand": float(base.get("random_fraction", 1.0)), "c_vms": int(base.get("vms_per_node") or 20),
                    "c_qd": int(base.get("outstanding_per_thread", 32)), "c_issuer": base.get("issuer", "vm")}
        for k, v in defaults.items():
            if k not in ss:
                ss[k] = v
        c[0].number_input("Block size, KiB", 0.5, 4096.0, key="c_bs")
        c[1].slider("Read fraction", 0.0, 1.0, step=0.05, key="c_read")
        c[2].slider("Random fraction", 0.0, 1.0, step=0.05, key="c_rand")
        c[3].number_input("VMs per node", 1, 2000, key="c_vms")
        c[4].number_input("Outstanding IO per VM thread", 1, 4096, key="c_qd")
        c[5].selectbox("Issued by", ["vm", "host"], key="c_issuer",
                       format_func=lambda v: {"vm": "VMs (VMFleet-style)", "host": "hosts (DiskSpd on the nodes)"}[v],
                       help="host: no guest OS in the path; 'VMs per node' then counts issuing processes per node")
    try:
        w = parse_workload({"name": "custom", "block_size_kib": ss["c_bs"], "read_fraction": ss["c_read"],
                            "random_fraction": ss["c_rand"], "vms_per_node": ss["c_vms"],
                            "outstanding_per_thread": ss["c_qd"], "issuer": ss["c_issuer"]})
    except PlannerError as exc:
        st.error(str(exc))
        st.stop()
    wj = state.canonical(w.model_dump(mode="json"))
    if wj != state.workload_json() or state.workload_name() != "custom":
        state.set_workload("custom", wj)
elif choice != state.workload_name():
    state.set_workload(choice)

dj, wj = state.design_json(), state.workload_json()
rep = state.report(dj, wj)
dcol.caption(f"Design **{rep['design']}** · {rep['nodes']} nodes · {rep['resiliency']} · {rep['transport']}")

# ------------------------------------------------------------ headline
degraded = bool(st.toggle("Degraded mode (one node down)", key="p_degraded", disabled=rep["nodes"] < 2)) and "degraded" in rep
view = rep["degraded"] if degraded and "degraded" in rep else rep
band = (not degraded)

def _headline(col, label: str, key: str, fmt: str, unit: str = "") -> None:
    """Metric value from planner; the calibration band (5-95 %) below it."""
    col.metric(label, fmt.format(view[key]) + unit,
               delta=f"{view[key] / rep[key] - 1:+.0%} vs healthy" if degraded else None,
               delta_color="inverse" if unit else "normal")
    lo, hi = rep.get(f"{key}_low"), rep.get(f"{key}_high")
    if band and lo is not None and hi is not None:
        col.caption(f"band {fmt.format(lo)}–{fmt.format(hi)}{unit}")


m = st.columns(4)
_headline(m[0], "IOPS", "iops", "{:,.0f}")
_headline(m[1], "Read latency (storage)", "read_latency_ms", "{:.3f}", " ms")
_headline(m[2], "Write latency (storage)", "write_latency_ms", "{:.3f}", " ms")
_headline(m[3], "VM latency", "vm_latency_ms", "{:.3f}", " ms")
m = st.columns([1, 1.6, 1, 1])
m[0].metric("p99 read latency (VM)", f"{rep['p99_read_latency_ms']:.3f} ms")
m[1].metric("Bottleneck", BOTTLENECK_LABELS.get(view["bottleneck"], view["bottleneck"]))
m[2].metric("Bandwidth", f"{rep['bandwidth_mb_s']:,.0f} MB/s")
m[3].metric("Usable capacity", f"{rep['usable_capacity_tb']:,.2f} TB")
if not rep.get("band_basis"):
    st.caption("No calibration bands available: figures are shown without an uncertainty band.")
else:
    st.caption("Bands: " + "; ".join(rep["band_basis"]) + ".")
if rep.get("extrapolation"):
    st.warning("Outside the calibrated domain, so the bands above are widened: "
               + "; ".join(state.plain(f["message"]) for f in rep["extrapolation"]) + ".",
               icon=":material/explore:")
for w in rep.get("warnings", []):
    st.warning(state.plain(w["message"]), icon=":material/warning:")
for note in rep.get("notes", []):
    st.info(state.plain(note), icon=":material/info:")
if degraded:
    d = rep["degraded"]
    st.info(f"{d['note']}. Repair time ≈ {d['repair_time_hours']:.1f} h at repair share {d['repair_share']:.0%}.")

# ------------------------------------------------------------ charts
curve = state.latency_curve(dj, wj)
fig_curve = charts.latency_curve(curve, {"iops": view["iops"], "vm_latency_ms": view["vm_latency_ms"]})
fig_util = charts.utilisation_bars(view["utilization"], view["bottleneck"],
                                   "Utilisation per resource" + (" (one node down)" if degraded else ""))
c1, c2 = st.columns([3, 2])
c1.plotly_chart(fig_curve, width="stretch", key="perf_curve")
c1.caption("Open loads of this workload's shape from idle to saturation, with the CPU cap and per-VM limits "
           "lifted to show the hardware; the dotted line marks where the CPU cap stops admitting load and "
           "the diamond is the workload as configured.")
c2.plotly_chart(fig_util, width="stretch", key="perf_util")

# ------------------------------------------------------------ exports
if not state.presenter():
    util_rows = [{"resource": k, "utilisation": round(v, 4), "degraded_utilisation":
                  round(rep.get("degraded", {}).get("utilization", {}).get(k, float("nan")), 4),
                  "bottleneck": k == rep["bottleneck"]} for k, v in rep["utilization"].items()]
    with st.expander("Tables and exports"):
        st.dataframe(util_rows, hide_index=True, width="stretch")
        e = st.columns(3)
        e[0].download_button("Utilisation CSV", export.to_csv(util_rows), file_name="utilisation.csv", mime="text/csv")
        e[1].download_button("Full report JSON", json.dumps(rep, indent=1, default=str), file_name="report.json",
                             mime="application/json")
        # the report embeds plotly.js (a few MB): build it on request, not on every what-if rerun
        if e[2].button("Prepare one-page report", key="p_prepare_report"):
            st.session_state["p_report"] = (dj, wj, export.html_report(dj, wj, state.workload_name()))
        ready = st.session_state.get("p_report")
        if ready and ready[:2] == (dj, wj):
            r = st.columns(2)
            r[0].download_button("One-page HTML report", ready[2], file_name=f"hciplan-{rep['design']}.html",
                                 mime="text/html", key="p_report_html")
            if export.pdf_available():
                if r[1].button("Print it to PDF", key="p_prepare_pdf"):
                    with st.spinner("Printing with headless chromium…"):
                        st.session_state["p_pdf"] = (dj, wj, export.pdf_report(ready[2]))
                pdf = st.session_state.get("p_pdf")
                if pdf and pdf[:2] == (dj, wj):
                    r[1].download_button("PDF report", pdf[2], file_name=f"hciplan-{rep['design']}.pdf",
                                         mime="application/pdf", key="p_report_pdf")
            else:
                r[1].caption("PDF needs Debian's chromium (`apt-get install chromium`); the HTML prints well too.")
