"""The Ceph calibration's accuracy from planner/data/calibration-ceph.json: the summary (median and
largest absolute % error, in sample and leave-one-configuration-out), the issue's six cases
(measured, the S2D-cost figure issue 27 reported, Ceph in sample, held out), every measured figure,
the pseudo-extrapolation errors and the fitted parameters. The docs' Accuracy page is built from
these functions (``<!-- hciplan:ceph-... -->`` markers, scripts/mkdocs_hooks.py); run as a script,
it prints every table. ``hciplan validate --stack ceph [--rows]`` prints the same figures as JSON."""

from __future__ import annotations

import json
from importlib.resources import files

METRICS = ["iops", "bandwidth_mb_s", "write_latency_ms", "osd_lps_per_osd"]

#: the issue's table: (configuration, point, metric, the figure hciplan gave with S2D's costs)
ISSUE = [
    ("mako-reef", "4 KiB random read", "iops", 7.64e6),
    ("mako-reef", "4 KiB random write", "iops", 822e3),
    ("mako-pacific-rocksdb", "4 KiB random write, RocksDB default", "iops", 822e3),
    ("mako-reef", "4 MiB sequential read", "bandwidth_mb_s", 158e3),
    ("mako-reef", "4 MiB sequential write", "bandwidth_mb_s", 32.9e3),
    ("mako-reef", "4 KiB sync write, 1 client, QD1 (O_DSYNC)", "write_latency_ms", 0.321),
]


def calibration() -> dict:
    """The shipped Ceph calibration file, as the installed package holds it."""
    return json.loads((files("planner") / "data" / "calibration-ceph.json").read_text(encoding="utf-8"))


def fmt(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _err(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f} %"


#: how the summary table names each kind of error
KIND_LABELS = {
    "in_sample": "in sample",
    "leave_one_configuration_out": "held out (one configuration, or its twins with it)",
}


def worst_held_out(doc: dict | None = None) -> str:
    """The sentence naming the metric with the largest held-out median error, its largest error and its
    in-sample median (the summary table's worst row, said in words)."""
    s = (doc or calibration())["summary"]
    ho, ins = s.get("leave_one_configuration_out", {}), s.get("in_sample", {})
    if not ho:
        return ""
    m = max(ho, key=lambda k: ho[k]["median_abs_pct_error"])
    return (
        f"The largest held-out error is {m}'s: median {ho[m]['median_abs_pct_error']:.1f} %, at most "
        f"{ho[m]['max_abs_pct_error']:.1f} %, against {ins[m]['median_abs_pct_error']:.1f} % in sample."
    )


def summary_table(doc: dict | None = None) -> str:
    """Median / largest absolute % error per metric (and the number of figures), in sample and held out,
    and the sentence naming the largest held-out error (:func:`worst_held_out`)."""
    s = (doc or calibration())["summary"]
    lines = [
        "| judged on | " + " | ".join(f"{m} (median / max abs %, n)" for m in METRICS) + " |",
        "|---|" + "---|" * len(METRICS),
    ]
    for kind in ("in_sample", "leave_one_configuration_out"):
        row = s.get(kind, {})
        cells = [
            f"{row[m]['median_abs_pct_error']:.1f} / {row[m]['max_abs_pct_error']:.1f} ({row[m]['points']})"
            if m in row
            else "-"
            for m in METRICS
        ]
        lines.append(f"| {KIND_LABELS[kind]} | " + " | ".join(cells) + " |")
    worst = worst_held_out(doc)
    return "\n".join(lines) + (f"\n\n{worst}" if worst else "")


def points(doc: dict | None = None) -> dict[tuple[str, str, str], dict]:
    """Each measured figure by (configuration, point, metric)."""
    return {(r["configuration"], r["point"], r["metric"]): r for r in (doc or calibration())["points"]}


def cases_table(doc: dict | None = None) -> str:
    """The six cases issue 27 reported with S2D's costs, against the Ceph model in sample and held out."""
    rows = points(doc)
    lines = [
        "| case | measured | S2D costs (issue 27) | Ceph, in sample | error | Ceph, held out | error |",
        "|---|---|---|---|---|---|---|",
    ]
    for cfg, pt, m, s2d in ISSUE:
        r = rows[(cfg, pt, m)]
        held = r["held_out"]
        lines.append(
            f"| {cfg}: {pt} ({m}) | {fmt(r['measured'])} | {fmt(s2d)} | {fmt(r['in_sample'])} | "
            f"{_err(r['in_sample_error_pct'])} | {'-' if held is None else fmt(held)} | {_err(r['held_out_error_pct'])} |"
        )
    return "\n".join(lines)


def points_table(doc: dict | None = None) -> str:
    """Every measured figure: in sample, held out, and the station that binds."""
    lines = [
        "| configuration | release | point | metric | measured | in sample | error | held out | error | bottleneck |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in (doc or calibration())["points"]:
        ho = "-" if r["held_out"] is None else fmt(r["held_out"])
        lines.append(
            f"| {r['configuration']} | {r['release']} | {r['point']} | {r['metric']} | {fmt(r['measured'])} | "
            f"{fmt(r['in_sample'])} | {_err(r['in_sample_error_pct'])} | {ho} | {_err(r['held_out_error_pct'])} "
            f"| {r['bottleneck']} |"
        )
    return "\n".join(lines)


def extrapolation_table(doc: dict | None = None) -> str:
    """The fit without one side of a dimension predicting it: median / max absolute % error, and the parameters
    its points do not inform, held at their starting values (``held_at_prior``; "-" for none)."""
    ext = (doc or calibration())["bands"].get("extrapolation", {})
    lines = [
        "| dimension | held out | configurations | iops | bandwidth_mb_s | write_latency_ms | held at prior |",
        "|---|---|---|---|---|---|---|",
    ]
    for dim, sides in ext.items():
        for side, e in sides.items():
            he = e.get("held_out_error", {})
            cells = [
                f"{he[m]['median_abs_pct_error']:.1f} / {he[m]['max_abs_pct_error']:.1f}" if m in he else "-"
                for m in ("iops", "bandwidth_mb_s", "write_latency_ms")
            ]
            held = ", ".join(f"`{k}`" for k in e.get("held_at_prior", [])) or "-"
            lines.append(f"| {dim} | {side} | {', '.join(e['held_out'])} | " + " | ".join(cells) + f" | {held} |")
    return "\n".join(lines)


def params_table(doc: dict | None = None) -> str:
    """The fitted parameters of the Ceph calibration."""
    doc = doc or calibration()
    lines = ["| parameter | value |", "|---|---|"]
    lines += [f"| `{k}` | {doc['params'][k]:.4g} |" for k in doc["fitted"]]
    return "\n".join(lines)


def heading(doc: dict | None = None) -> str:
    doc = doc or calibration()
    return f"Ceph calibration {doc['version']}: {len(doc['fitted'])} fitted parameters, {len(doc['points'])} figures"


def main() -> None:
    doc = calibration()
    for block in (
        heading(doc),
        summary_table(doc),
        cases_table(doc),
        points_table(doc),
        extrapolation_table(doc),
        params_table(doc),
    ):
        print(block)
        print()


if __name__ == "__main__":
    main()
