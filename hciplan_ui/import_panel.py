"""Calibration page panel: a customer's benchmark files in, the model's error
on them, a refit of the parameters they identify, kept for the session.

Files go through :func:`planner.calibration.importers.load_points` (format detected from
the content, size checked before parsing, one error naming the file, nothing
kept from a failed import); the refit is :func:`planner.calibration.refit.import_report`.
No physics here.
"""

from __future__ import annotations

import streamlit as st

from hciplan_ui import charts, export, fmt, inputs, state
from planner.calibration.importers import MAX_IMPORT_BYTES, MAX_IMPORT_FILES
from planner.calibration.refit import METRIC_LABELS, point_table
from planner.core.errors import PlannerError
from planner.core.text import count, first_upper

#: the file box's limit per file, MB: the library's (each file is checked against MAX_IMPORT_BYTES when read)
IMPORT_MB = MAX_IMPORT_BYTES // 1_000_000
ISSUERS = {"host": "on the nodes (host)", "vm": "inside VMs (vm)"}


#: an importer's format as the caption above says it ("csv-template" is the reader's id)
FORMAT_WORDS = {
    "fio": "fio JSON",
    "diskspd": "DiskSpd XML",
    "vmfleet": "VMFleet results",
    "csv-template": "the CSV template",
}


def _load(files, design_json: str):
    """Measured points of the uploads, or an error message (nothing kept)."""
    from planner.calibration.importers import load_points, make_run_info
    from planner.models.catalog import load_catalog
    from planner.models.design import parse_design, resolve

    ss = st.session_state
    if len(files) > MAX_IMPORT_FILES:
        return None, f"{len(files)} files; at most {MAX_IMPORT_FILES} per import"
    for f in files:  # before reading a byte of it
        if f.size > MAX_IMPORT_BYTES:
            return None, f"{f.name}: file is {f.size:,} bytes; the limit is {MAX_IMPORT_BYTES:,}"
    try:
        run = make_run_info(
            issuer=ss.get("imp_issuer", "host"),
            per_node=int(ss.get("imp_per_node", 1)),
            vcpus_per_vm=int(ss.get("imp_vcpus", 4)),
        )
        rd = resolve(parse_design(design_json), load_catalog())
        return load_points([(f.name, f.getvalue()) for f in files], rd, run), None
    except PlannerError as exc:
        return None, str(exc)


def _error_table(summary: dict | None, label: str) -> list[dict]:
    if not summary:
        return []
    return [
        {
            "Judged": label,
            "Metric": METRIC_LABELS.get(m, m),
            "Points": v["points"],
            "Median absolute error, %": v["median_abs_pct_error"],
            "p90 |error|, %": v["p90_abs_pct_error"],
        }
        for m, v in summary.items()
    ]


def _shown(row: dict) -> dict:
    """A table row as shown: headers as every table heads them ("Predicted (shipped)"), numbers with
    separators and sensible precision (the CSV keeps them raw)."""
    return {first_upper(k): fmt.num(v) if isinstance(v, float) else v for k, v in row.items()}


def _scatter(rows: list[dict], metric: str, after: bool):
    import plotly.graph_objects as go

    fig = go.Figure()
    series = [("shipped fit", "predicted (shipped)")] + ([("refit", "predicted (refit)")] if after else [])
    allv = []
    for (name, key), symbol in zip(series, charts.SYMBOLS):
        pts = [r for r in rows if r.get(key) is not None and r["measured"] > 0 and r[key] > 0]
        fig.add_scatter(
            x=[r["measured"] for r in pts],
            y=[r[key] for r in pts],
            mode="markers",
            marker=dict(symbol=symbol),  # told apart by shape, not colour alone
            name=f"{name} ({len(pts)})",
            text=[charts.plain(f"{r['file']} / {r['job']}") for r in pts],  # the user's names, not markup
        )
        allv += [r["measured"] for r in pts] + [r[key] for r in pts]
    if allv:
        fig.add_scatter(
            x=[min(allv), max(allv)],
            y=[min(allv), max(allv)],
            mode="lines",
            name="y = x",
            line=dict(dash="dash", color="grey"),
        )
    fig.update_xaxes(title=f"measured {metric}", type="log")
    fig.update_yaxes(title=f"predicted {metric}", type="log")
    fig.update_layout(height=420, margin=dict(l=10, r=10, t=30, b=10), title=f"Predicted vs measured: {metric}")
    return fig


def render() -> None:
    from planner.calibration.refit import dumps, import_report

    ss = st.session_state
    st.divider()
    st.header("Calibrate on your own hardware")
    st.caption(
        "Upload fio JSON (--output-format=json or json+), DiskSpd XML (-Rxml), VMFleet result files "
        "(Measure-FleetCoreWorkload's result.tsv) or the CSV template (the button below): the format "
        f"is read from the content; at most {MAX_IMPORT_FILES} files of {MAX_IMPORT_BYTES // 1_000_000} MB. The "
        "cluster is the current design; fio and DiskSpd files each describe one issuer, and every node is taken "
        "to have run the same."
    )
    from planner.calibration.importers import csv_template

    # the template itself, not a path in the project's files a web user cannot reach (UI review 2026-11-29)
    st.download_button(
        "CSV template",
        csv_template.template_text(),
        file_name="import-template.csv",
        mime="text/csv",
        key="imp_template",
    )
    if state.session_calibration():
        st.success("A refit calibration is in use for this session: every page's predictions use it.")
        if st.button("Back to the shipped calibration", key="imp_revert"):
            state.set_session_calibration(None)
            st.rerun()
    files = inputs.file_box(st, "Benchmark result files", "imp_files", IMPORT_MB, multiple=True)
    c = st.columns(3)
    c[0].selectbox(
        "Where the benchmark ran",
        list(ISSUERS),
        format_func=ISSUERS.__getitem__,
        key="imp_issuer",
        help="VMFleet always runs in VMs and states its VM count",
    )
    _, e_per_node = inputs.number(
        c[1],
        "VMs or processes per node",
        "imp_per_node",
        (1, 2000, False),
        integer=True,
        step=1,
        default=1,
        help="how many VMs (vm) or benchmark processes (host) per node ran a file like this",
    )
    _, e_vcpus = inputs.number(c[2], "vCPUs per VM", "imp_vcpus", (1, 512, False), integer=True, step=1, default=4)
    inputs.show(c[1], e_per_node)
    inputs.show(c[2], e_vcpus)
    if st.button("Import", key="imp_load", disabled=not files or bool(e_per_node or e_vcpus), type="primary"):
        for k in ("imp_report", "imp_error", "imp_points"):
            ss.pop(k, None)
        points, err = _load(files, state.design_json())
        if err:
            ss["imp_error"] = err
        else:
            ss["imp_points"] = points
            ss["imp_report"] = import_report(points)
    if ss.get("imp_error"):
        st.error(fmt.md(ss["imp_error"]))  # it quotes file names
    rep = ss.get("imp_report")
    if not rep:
        return
    st.caption(
        fmt.md(
            " · ".join(
                f"{f['file']}: {FORMAT_WORDS.get(f['format'], f['format'])}, {count(f['points'], 'point')}"
                for f in rep["files"]
            )
        )
    )
    refit_done = "refit" in rep
    if rep.get("error_in_shipped_fit_points"):  # the shipped fit's error on its own data is in sample
        st.caption(fmt.md(f"Shipped fit's error: {rep['error_basis']}."))
    st.dataframe(
        _error_table(rep["error"], "shipped fit")
        + (
            _error_table(rep["refit"]["summary"]["imported"]["in_sample_after"], "refit, in sample")
            + _error_table(rep["refit"]["summary"]["imported"].get("held_out_after"), "refit, held out")
            if refit_done
            else []
        ),
        hide_index=True,
        width="stretch",
        key="imp_errors",
    )
    rows = point_table(rep["rows"], refit_done)
    st.dataframe([_shown(r) for r in rows], hide_index=True, width="stretch", key="imp_rows")
    metrics = list(dict.fromkeys(r["metric"] for r in rows))
    if metrics:
        metric = st.selectbox("Metric", metrics, key="imp_metric")
        st.plotly_chart(
            _scatter([r for r in rows if r["metric"] == metric], metric, refit_done), width="stretch", key="imp_scatter"
        )

    c = st.columns([1, 2])
    c[0].checkbox(
        "Together with the shipped data",
        key="imp_with_shipped",
        help="joint fit: the imported points carry half the weight, the shipped benchmarks the rest",
    )
    if c[1].button("Refit on these points", key="imp_refit"):
        bar = st.progress(0.0, text="refitting")
        rep = import_report(
            ss["imp_points"],
            calibrate=True,
            with_shipped=bool(ss.get("imp_with_shipped")),
            progress=lambda f, msg: bar.progress(min(max(f, 0.0), 1.0), text=msg),
        )
        ss["imp_report"] = rep
        st.rerun()
    if not refit_done:
        return
    info = rep["refit"]
    st.caption(
        f"Refit {count(len(info['refit_names']), 'parameter')} in {info['seconds']:.1f} s ({info['function_evaluations']} model "
        f"evaluations): {info['method']}."
    )
    from planner.models.params import ModelParams

    fields = ModelParams.model_fields
    st.dataframe(
        [
            {
                # what the parameter is, in words (the table listed "guest_cpu_us", "host_cpu_hop_us"; browser
                # review 2026-11-29); its name stays in the downloaded file
                "Parameter": (fields[p["name"]].description or p["name"])
                + (", µs" if p["name"].endswith("_us") else "")
                if p["name"] in fields
                else p["name"],
                "Shipped": p["shipped_value"],
                "Refit": p["refit_value"],
                "Change, %": p["changed_pct"],
                "Sensitivity": p["sensitivity"],
                "Why": p["reason"],
            }
            for p in info["parameters"]
        ],
        hide_index=True,
        width="stretch",
        key="imp_params",
    )
    doc_json = dumps(rep["calibration_file"])
    c = st.columns(2)
    if c[0].button("Use this refit for the session", key="imp_use", type="primary"):
        state.set_session_calibration(doc_json)
        st.rerun()
    c[1].download_button(
        "Download calibration JSON",
        doc_json,
        file_name="calibration-refit.json",
        mime="application/json",
        key="imp_download",
    )
    st.caption(
        "The file carries no uncertainty band (the shipped bootstrap describes the shipped data). "
        "'Use this refit for the session' puts it to work on every page here; the downloaded file does the "
        "same on the command line (`hciplan evaluate DESIGN --calibration calibration-refit.json`)."
    )
    if not state.presenter():
        st.download_button(
            "Measured vs predicted CSV",
            export.to_csv(point_table(rep["rows"], True)),
            file_name="imported_points.csv",
            mime="text/csv",
            key="imp_rows_csv",
        )
