"""Performance page: workload picker, headline figures with bands, latency vs
IOPS curve, utilisation with the bottleneck, degraded mode, endurance, exports."""

from __future__ import annotations

import json

import streamlit as st

from hciplan_ui import charts, chrome, costs, export, fmt, inputs, sizing_rows, state
from planner.core import jsonio
from planner.core.errors import PlannerError
from planner.core.text import count, first_upper, sentence
from planner.engine.performance import LATENCY_NAMES, station_words
from planner.models.stacks import HOST_OS
from planner.models.workload import Workload, parse_workload, profiles
from planner.results.report import (
    AT_CAPACITY_KEY,
    bottleneck_words,
    load_latencies,
    network_traffic_words,
    present_utilization,
    unbounded_cases,
)
from planner.sizing.names import transport_words
from planner.sizing.words import band_basis_words, customer_words

chrome.header("Performance")
# the demand's own load follows the design's node count whichever page is opened first (a shared link)
if moved := costs.follow_demand(state.design_json()):
    st.caption(fmt.md(moved))
ss = st.session_state

# ------------------------------------------------------------ workload
SIZED = state.SIZED
sized = state.sized_workload_json()
names = ([SIZED] if sized else []) + [*list(profiles()), "custom"]
if ss.get("p_workload") not in names:
    ss["p_workload"] = state.workload_name() if state.workload_name() in names else names[0]


def _kept(w) -> str:
    """What a workload holds beyond the editor's six fields (an open load's IOPS, VM sizes...)."""
    kept = [
        f"{w.iops:,.0f} IOPS offered to the cluster (an open load: the VMs and outstanding IO "
        "count for CPU and RAM, not for the rate)"
        if w.iops
        else "",
        # counted ("1 VMs per node") and rounded as every page writes GB ("20.1143 GB"; browser review 2026-11-29)
        (
            f"{count(w.vms_total, 'VM')}, {w.vms_per_node} on the busiest node"
            if w.vms_total
            else f"{count(w.vms_per_node, 'VM')} per node"
        )
        if w.vms_per_node
        else "",
        f"{count(w.vcpus_per_vm, 'vCPU')} and {fmt.num(w.ram_gb_per_vm, None, 'GB')} RAM per VM",
        f"{w.working_set_gb_per_vm:,.0f} GB working set per VM",
        f"{w.iops_limit_per_vm:,.0f} IOPS limit per VM" if w.iops_limit_per_vm else "",
    ]
    return "; ".join(k for k in kept if k)


def _label(n: str) -> str:
    # the sized workload as this run read it: a format function may be called outside the run (Streamlit's
    # AppTest formats the options in its own process), where the session state is not this session's
    return state.workload_label(n, sized)


def _keep_sized() -> None:
    ss["p_workload"] = SIZED


def _replace_sized() -> None:
    state.set_workload(ss["p_workload"])


wcol, dcol = st.columns([2, 3])
choice = wcol.selectbox("Workload", names, key="p_workload", format_func=_label)
if choice == SIZED and sized:  # SIZED is offered only when there is a sized workload
    if not state.workload_is_sized():  # back to the sized demand's own workload, exactly
        state.set_workload(SIZED, sized)
    st.caption(
        "The sized demand's own workload (the Size page's \"Use this design\"): "
        # the load the page evaluates, on this design's nodes: the sized copy's "29 on the busiest node" stood
        # beside a verdict of 36 after a node was removed (presales walk 2026-11-30)
        + fmt.md(_kept(parse_workload(state.workload_json())))
        + '. Pick "custom" to edit it.'
    )
elif choice == "custom":
    base = json.loads(state.workload_json())
    with st.expander("Custom workload", expanded=True):
        c = st.columns(6)
        defaults = {
            "c_bs": float(base.get("block_size_kib", 8.0)),
            "c_read": float(base.get("read_fraction", 0.7)),
            "c_rand": float(base.get("random_fraction", 1.0)),
            "c_vms": int(base.get("vms_per_node") or 20),
            "c_qd": int(base.get("outstanding_per_thread", 32)),
            "c_issuer": base.get("issuer", "vm"),
        }
        for k, v in defaults.items():
            if k not in ss:
                ss[k] = v
        bs, e_bs = inputs.number(
            c[0], "Block size, KiB", "c_bs", inputs.model_bounds(Workload, "block_size_kib"), unit="KiB"
        )
        c[1].slider("Read fraction", 0.0, 1.0, step=0.05, key="c_read")
        c[2].slider("Random fraction", 0.0, 1.0, step=0.05, key="c_rand")
        vms, e_vms = inputs.number(
            c[3], "VMs per node", "c_vms", inputs.model_bounds(Workload, "vms_per_node"), integer=True, step=1
        )
        qd, e_qd = inputs.number(
            c[4],
            "Outstanding IO per VM thread",
            "c_qd",
            inputs.model_bounds(Workload, "outstanding_per_thread"),
            integer=True,
            step=1,
        )
        c[5].selectbox(
            "Issued by",
            ["vm", "host"],
            key="c_issuer",
            format_func=lambda v: {"vm": "VMs (VMFleet-style)", "host": "hosts (DiskSpd on the nodes)"}[v],
            help="host: no guest OS in the path; 'VMs per node' then counts issuing processes per node",
        )
        for col, e in zip((c[0], c[3], c[4]), (e_bs, e_vms, e_qd)):
            inputs.show(col, e)
        kept = st.empty()  # filled below with the workload this run leaves (it said the last run's)
    invalid = bool(e_bs or e_vms or e_qd)
    if not invalid:
        try:
            # the editor changes its own fields only: what it does not show (an open load's IOPS, vCPUs and
            # RAM per VM, working set, rate limits, alignment, a sized demand's name) stays as it was
            w = parse_workload(
                base
                | {
                    "name": base.get("name", "custom") if state.workload_name() in ("custom", SIZED) else "custom",
                    "block_size_kib": bs,
                    "read_fraction": ss["c_read"],
                    "random_fraction": ss["c_rand"],
                    "vms_per_node": int(vms),
                    # a sized demand's VM count holds until VMs per node is edited: then every node has that many
                    "vms_total": base.get("vms_total") if int(vms) == base.get("vms_per_node") else None,
                    "outstanding_per_thread": int(qd),
                    "issuer": ss["c_issuer"],
                }
            )
        except PlannerError as exc:
            st.error(fmt.md(exc))
            invalid = True
        else:
            wj = state.canonical(w.model_dump(mode="json"))
            if wj != state.workload_json() or state.workload_name() != "custom":
                state.set_workload("custom", wj, reseed_editor=False)
    # the state's workload: the edit just made, or the last valid one (valid, with every field)
    kept.caption("Kept from the workload: " + fmt.md(_kept(parse_workload(state.workload_json()))) + ".")
    if invalid:  # the page goes on with the last valid workload (no st.stop: the sidebar must render)
        st.warning(
            "The custom workload is not valid: the figures below are for the last valid workload "
            f"({fmt.md(state.workload_name())})."
        )
elif state.workload_is_sized():
    # a profile would replace the sized demand on every page: ask first (it stays a choice either way)
    st.warning(
        f"**{fmt.md(choice)}** would replace the sized demand's workload on every page (Design, Performance, "
        "SLA & tiers): the figures would no longer be the demand's. The sized demand stays in this list "
        "to come back to.",
        icon=":material/help:",
    )
    with st.container(horizontal=True):  # each button as wide as its words
        st.button(f"Use {choice}", key="p_replace_sized", on_click=_replace_sized, type="primary")
        st.button("Keep the sized demand", key="p_keep_sized", on_click=_keep_sized)
elif choice != state.workload_name():
    state.set_workload(choice)
if choice not in ("custom", SIZED):  # the box cuts its description at the column's width: all of it here
    wcol.caption(fmt.md(profiles()[choice].description))

dj, wj = state.design_json(), state.workload_json()
# the figures as `evaluate` prints them: a load with no latency at the rate it asks (past saturation, or an open load
# its pacing holds back), healthy or one node down, has none, with why, and the figures at the capacity only as ones
# at another load (the page showed 3.257 ms for 2,000,000 IOPS asked of 1,062,390, under the warning that it is not
# the load's)
raw = state.report(dj, wj)
rep, unbounded = load_latencies(raw), unbounded_cases(raw)
judged = costs.verdict(dj)  # the design against the session's demand (None without one)
dcol.caption(
    f"Design **{fmt.md(sizing_rows.design_label(json.loads(dj)))}**{sizing_rows.release_said(json.loads(dj))}"
    f" · {transport_words(rep['transport'])}"
    # the round trip between rooms every latency below includes: an input no page echoed (network walk 2026-12-01)
    + (f" · rooms {fmt.ms(rep['fault_domain_rtt_ms'])} round trip apart" if rep.get("fault_domain_rtt_ms") else "")
)

# ------------------------------------------------------------ headline
# a cluster whose IO stops with a node down (Ceph without a Monitor majority or below min_size) has
# no degraded figures to show: the toggle is off and says why
stops = bool(rep.get("degraded", {}).get("io_stops"))
degraded = (
    bool(st.toggle("Degraded mode (one node down)", key="p_degraded", disabled=rep["nodes"] < 2 or stops))
    and "degraded" in rep
    and not stops
)
if stops:
    st.caption(fmt.md(sentence(customer_words(rep["degraded"]["note"]))))
# every figure on the page comes from one view: degraded numbers never mix with healthy ones
view = rep["degraded"] if degraded else rep
# why the view's load has no latency at the rate it asks (None: its latencies are the load's)
no_latency = unbounded.get("one node down" if degraded else "healthy")
# a figure the model could not evaluate is None (with a note): no band, no delta for it
has_band = (
    not degraded
    and bool(rep.get("band_basis"))
    and all(
        raw.get(k) is not None
        # the VM latency's high end may be unbounded (null, past the capacity band's low end): the band shows so
        for k in ("iops", "iops_low", "iops_high", "vm_latency_ms", "vm_latency_ms_low")
    )
)


def _headline(col, label: str, key: str, f) -> None:
    """Metric value from planner; its calibration band (5-95 %) below it."""
    if no_latency and key.endswith("latency_ms") and view.get(key) is None:
        # no latency at the rate asked: the words the Compare page shows, and why
        col.metric(label, no_latency["cell"], help=fmt.md(first_upper(no_latency["why"]) + "."))
        return
    if view.get(key) is None and (why := view.get(f"{key}_note")):
        # a class the workload does not issue: its words, not a bare dash (a SAN's 100 %-read load showed "–" for the
        # write latency, no word why; verification walk, stop 55)
        col.metric(label, "none", help=fmt.md(first_upper(why) + "."))
        col.caption(fmt.md(first_upper(why)))
        return
    delta = None
    if degraded and rep.get(key) and view.get(key) is not None:
        delta = fmt.metric_delta(view[key] / rep[key], 0, " vs healthy")
    col.metric(
        label,
        f(view[key]),
        delta=delta,
        delta_color="normal" if key in ("iops", "bandwidth_mb_s") else "inverse",
        help=fmt.IOPS_CARRIED if key == "iops" else None,
    )
    if has_band and (band_line := fmt.band_text(rep.get(f"{key}_low"), rep.get(f"{key}_high"), f, view[key])):
        col.caption(band_line)


m = st.columns(4)
_headline(m[0], "IOPS", "iops", fmt.iops)
if caveat := costs.hosting_caveat(rep.get("warnings", []), judged, bool(degraded)):
    m[0].caption(caveat)
_headline(m[1], LATENCY_NAMES["read_latency_ms"], "read_latency_ms", fmt.ms)
_headline(m[2], LATENCY_NAMES["write_latency_ms"], "write_latency_ms", fmt.ms)
_headline(m[3], LATENCY_NAMES["vm_latency_ms"], "vm_latency_ms", fmt.ms)
if elsewhere := fmt.at_another_load(
    view.get(AT_CAPACITY_KEY), ("read_latency_ms", "write_latency_ms", "vm_latency_ms", "p99_read_latency_ms")
):
    st.caption(elsewhere)
m = st.columns(4)
_headline(m[0], LATENCY_NAMES["p99_read_latency_ms"], "p99_read_latency_ms", fmt.ms)
chrome.word_metric(m[1], "Bottleneck", bottleneck_words(view))
_headline(m[2], "Bandwidth", "bandwidth_mb_s", lambda x: fmt.num(x, 0, "MB/s"))
# the east-west traffic behind the network's % (network walk 2026-12-01: only "network 14 %" was shown)
if east_west := network_traffic_words(view.get("network_mb_s_per_node"), rep.get("network_link_mb_s_per_node")):
    m[2].caption(f"Between servers: {east_west}")
if degraded:
    value, meaning = fmt.after_node_loss(rep)
    m[3].metric("Usable capacity", value, help=meaning)
else:
    m[3].metric("Usable capacity", fmt.tb(rep["usable_capacity_tb"]))
if degraded:
    d = rep["degraded"]
    # Storage Spaces Direct rebuilds onto the survivors only once an administrator retires the server's drives: the
    # page said "Repair time ≈ 0.6 h", a rebuild it never starts by itself (S2D specialist's audit)
    # the share's source beside it: on S2D and vSAN an hciplan assumption (honesty audit 2026-12-01)
    share_is = f" ({customer_words(d['repair_share_note'])})" if d.get("repair_share_note") else ""
    rebuild = (
        f" Rebuild onto the survivors ≈ {fmt.num(d['repair_time_hours'], 1, 'h')} at repair share "
        f"{fmt.pct(d['repair_share'])}{share_is}, {customer_words(d['repair_condition'])}."
        if d.get("repair_time_hours") is not None and d.get("repair_automatic") is False
        # no rebuild to quote (a 3-node three-way mirror): what the server's return brings
        else f" {sentence(customer_words(d['on_return_note']))}"
        if d.get("on_return_note")
        else ""
    )
    repair = rebuild or (
        f" Repair time {'at least' if d.get('repair_time_is_lower_bound') else '≈'}"
        f" {fmt.num(d['repair_time_hours'], 1, 'h')} at repair share {fmt.pct(d['repair_share'])}{share_is}"
        # Ceph's is a lower bound (recovery's CPU and its throttles beyond the measured rate are not modelled)
        + (f" ({customer_words(d['repair_time_hours_note'])})" if d.get("repair_time_hours_note") else "")
        + (
            f", after a wait of {fmt.num(d['repair_starts_after_hours'] * 60, 0, 'minutes')} "
            f"({d['repair_starts_after_hours_note']})."
            if d.get("repair_starts_after_hours")
            else "."
        )
        if d.get("repair_time_hours") is not None
        else ""
    )
    st.info(
        fmt.md(sentence(customer_words(d["note"])))  # "three-way mirror needs 3", not "mirror-3way needs 3"
        + f"{repair} Degraded figures have no band: the bands are calibrated on the healthy cluster."
    )
elif has_band:
    # the report's basis names dimensions by their keys ("cpu_family: widest held-out-category error")
    st.caption("Bands: " + fmt.md("; ".join(band_basis_words(b, rep.get("stack")) for b in rep["band_basis"])) + ".")
else:
    st.caption("No calibration bands available: figures are shown without an uncertainty band.")
shown = costs.shown_warnings(rep.get("warnings", []), judged)
costs.verdict_panel(judged, "pv", warned={str(w.get("check")) for w in shown})
if extrapolated := fmt.extrapolation_note(rep):
    st.warning(extrapolated, icon=":material/explore:")
for w in shown:
    st.warning(fmt.said(w["message"]), icon=":material/warning:")
for note in rep.get("notes", []):
    st.info(fmt.said(note), icon=":material/info:")
# the figures shown above it: with a server down, the degraded run's (the note quoted the healthy 523,208 IOPS
# beside a degraded headline of 326,659; browser review 2026-11-29)
if closed := fmt.closed_load_note(
    json.loads(wj),
    {**rep, **view},
    bool(ss.get("size_demand")),
    json.loads(state.design_json()),
):
    st.info(fmt.md(closed), icon=":material/info:")

years = rep.get("endurance_years")
st.metric(
    # the healthy load's: the degraded view has no endurance of its own (a server is down for hours, not years)
    "Capacity drive endurance at this load" + (" (healthy)" if degraded else ""),
    fmt.years(years) if years is not None else "never wears out",
    help=rep.get("endurance_note")
    or "how long until the drives' rated writes (DWPD × capacity × warranty) are "
    "used by the backend writes of this workload",
)

# ------------------------------------------------------------ charts
curve = state.latency_curve(dj, wj, degraded=degraded)
# a load with no latency at the rate it asks has no operating point on the curve (its figure at the capacity is of
# another load)
point = None if no_latency else {"iops": view["iops"], "vm_latency_ms": view["vm_latency_ms"]}
if has_band and point is not None:
    point |= {k: rep[k] for k in ("iops_low", "iops_high", "vm_latency_ms_low", "vm_latency_ms_high")}
fig_curve = charts.latency_curve(curve, point, band=has_band)
fig_util = charts.utilisation_bars(
    present_utilization(rep, view["utilization"]),
    view["bottleneck"],
    "Utilisation per resource" + (" (one node down)" if degraded else ""),
    station_words(rep),
)
c1, c2 = st.columns([3, 2])
# themeless: one plotly draw per chart and what-if, not two (see charts.themeless)
c1.plotly_chart(charts.themeless(fig_curve), width="stretch", key="perf_curve", theme=None)
c1.caption(
    ("One node down: open loads" if degraded else "Open loads")
    + " of this workload's shape from idle to saturation, with the CPU cap and per-VM limits "
    "lifted to show the hardware; "
    + (
        "the dotted line marks where the CPU cap stops admitting load and "
        if charts.cpu_cap_shown(curve)
        else f"the CPU cap ({fmt.pct(curve['cpu_cap_utilization'])}) is above the share of logical processors IO "
        f"can keep busy (the fitted SMT ceiling, {fmt.pct(curve['cpu_ceiling_utilization'])}), so it never binds; "
        if curve.get("cpu_cap_iops") and charts.cap_above_ceiling(curve)
        else f"the CPU cap ({fmt.iops(curve['cpu_cap_iops'])} IOPS) lies past the IOPS capacity, so it never binds; "
        if curve.get("cpu_cap_iops")
        else ""
    )
    + (
        f"the workload as configured has no point on them: {no_latency['why']}."
        if no_latency
        else "the diamond is the workload as configured" + (" (bars: its band)." if has_band else ".")
    )
)
# the chart's text alternative: its curves as a table, the operating point and the lines in words
op_band = (
    fmt.band_text(point.get("vm_latency_ms_low"), point.get("vm_latency_ms_high"), fmt.ms, view.get("vm_latency_ms"))
    if has_band and point
    else None
)
chrome.chart_table(
    c1,
    "perf_curve",
    charts.latency_table(curve, band=has_band),
    note=(
        f"The workload as configured: {fmt.iops(view['iops'])} IOPS, no latency ({no_latency['cell']})"
        if no_latency
        else f"The workload as configured: {fmt.iops(view['iops'])} IOPS at {fmt.ms(view['vm_latency_ms'])} VM latency"
    )
    + (f" ({op_band})" if op_band else "")
    + f". IOPS capacity {fmt.iops(curve['iops_capacity'])} IOPS"
    + (
        f"; the CPU cap stops admitting load at {fmt.iops(curve['cpu_cap_iops'])} IOPS."
        if charts.cpu_cap_shown(curve)
        else "."
    ),
)
c2.plotly_chart(charts.themeless(fig_util), width="stretch", key="perf_util", theme=None)
if view.get("host_cpu_utilization") is not None:
    c2.caption(
        "The host CPU bar is the CPU the IO can use: it reaches 100 % at the fitted SMT ceiling, before "
        # the host's own tool, by stack: a vSAN host runs ESXi and a Ceph node Linux (it said "Windows" for both)
        f"every logical processor is busy. {HOST_OS.get(rep['stack'], 'The operating system')} would show "
        f"{fmt.pct(view['host_cpu_utilization'])} of "
        "logical processors busy"
        + (" (the CPU cap counts that figure)." if rep["bottleneck"] == "cpu_utilization_cap" else ".")
    )


# ------------------------------------------------------------ exports
def _exports() -> None:
    """The utilisation table and the downloads (built only while their section is open)."""
    present = {k: v for k, v in present_utilization(rep).items() if not k.endswith("_note")}
    # the resource the bottleneck is: the CPU cap is a policy on the host CPU (the table marked none while the
    # headline said "Bottleneck: CPU utilisation cap"; browser review 2026-11-29)
    neck = "host_cpu" if rep["bottleneck"] == "cpu_utilization_cap" else rep["bottleneck"]
    deg_util = rep.get("degraded", {}).get("utilization", {})
    util_rows = [
        {
            "Resource": station_words(rep).get(k, fmt.label(k)),
            "Utilisation": fmt.pct(v, 1),
            "One node down": fmt.pct(rep.get("degraded", {}).get("utilization", {}).get(k), 1),
            "Bottleneck": "yes" if k == neck else "",
        }
        for k, v in present.items()
    ]
    csv_rows = [
        {
            "resource": k,
            "utilisation": None if v is None else round(v, 4),
            "degraded_utilisation": None if deg_util.get(k) is None else round(deg_util[k], 4),
            "bottleneck": k == neck,
        }
        for k, v in present.items()
    ]
    pl = rep.get("platform") or {}
    for key, what in (("memory", "Memory bandwidth (a check, not a queue)"), ("pcie", "PCIe (a check, not a queue)")):
        if pl.get(f"{key}_utilization") is not None:
            util_rows.append(
                {
                    "Resource": what,
                    "Utilisation": fmt.pct(pl[f"{key}_utilization"], 1),
                    "One node down": fmt.DASH,
                    "Bottleneck": "",
                }
            )
    st.dataframe(util_rows, hide_index=True, width="stretch")
    if pl:
        st.caption(
            f"Per node at this load: memory traffic {fmt.num(pl.get('memory_traffic_mb_s'), 0, 'MB/s')} of "
            f"{fmt.num(pl.get('memory_bandwidth_mb_s'), 0, 'MB/s')} peak, PCIe "
            f"{fmt.num(pl.get('pcie_traffic_mb_s'), 0, 'MB/s')} of {fmt.num(pl.get('pcie_bandwidth_mb_s'), 0, 'MB/s')}"
            f" per direction; PCIe lanes needed {pl.get('pcie_lanes_needed') or fmt.DASH} of "
            f"{pl.get('pcie_lanes_available') or fmt.DASH}. Peaks are datasheet figures; real sustained "
            "rates are lower."
        )
    e = st.columns(2)
    e[0].download_button("Utilisation CSV", export.to_csv(csv_rows), file_name="utilisation.csv", mime="text/csv")
    e[1].download_button(
        "Full report JSON", jsonio.dumps(rep, indent=1), file_name="report.json", mime="application/json"
    )
    st.markdown("**The proposal for this design and workload**")
    export.proposal_panel(
        "p",
        dj,
        wj,
        costs.demand_json(),
        state.existing_json(),
    )


if not state.presenter():
    # a closed section holds nothing: a what-if neither rebuilds nor redraws the table and the three
    # downloads behind it (about 40 ms of the browser's work on each what-if); opening it reruns the
    # page with them
    exports = st.expander("Tables and exports", key="p_exports", on_change="rerun")
    if exports.open:
        with exports:
            _exports()
