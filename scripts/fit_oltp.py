"""Fit the database layer's one parameter and judge it on what it was not fitted on.

Writes ``planner/data/oltp-calibration.json``:

* ``cpu_us_per_txn``: core-microseconds of SQL Server work per HammerDB TPM transaction,
  from the one published run whose database VM was CPU-bound with its load stated (Datrium:
  12 vCPUs at 100 % for 2,000,000 TPM), less the guest IO stack's CPU for the IO that run
  issues (the S2D fit's guest CPU per IO). One point, one parameter: in sample it is exact
  by construction, so it is judged only out of sample.
* its spread across CPU generations: official TPC-E results on SQL Server 2012-2022, one and
  two sockets (per-core microseconds per transaction against their median).
* held-out checks: HammerDB's documented SQL Server run with CPU measured (i9-14900KS) and
  the TPM/NOPM ratio the driver's mix implies against 11 published pairs.
* the band (``band_ratio``): a fit on one point has no error of its own, and the TPC-E spread
  is how per-core cost varies between CPUs, not the fit's error (the i9 run fell at its edge;
  DBA review 2026-11-30). The band compounds that spread with the fit's error, taken either way
  as the one held-out measurement of the same quantity gives it (the i9's CPU per transaction
  over the fit's): a stated assumption, not a fitted spread. The Azure SQL Managed Instance runs
  stay held out, outside the fit and the band (tests/test_mi_heldout.py).

``python scripts/fit_oltp.py`` (``--check`` prints without writing).
"""

from __future__ import annotations

import argparse
import json
import statistics

from planner.commercial.database import guest_us_per_io
from planner.core.resources import BENCH_DIR, EXAMPLES_DIR, data_path
from planner.models import oltp
from planner.models.catalog import load_catalog
from planner.models.database import Database, io_demand
from planner.models.design import parse_design
from planner.models.params import default_params
from planner.physics.cpu import guest_us_per_io as cpu_guest_us

PUBLISHED = BENCH_DIR / "database" / "results.json"
OUT = data_path("oltp-calibration.json")


def fit() -> dict:
    doc = json.loads(PUBLISHED.read_text())
    d = doc["seeds"]["datrium"]
    # the run as described: 5,000 warehouses (~500 GB), > 500 users, SQL Server 2014, a 256 GB VM
    db = Database(
        name="datrium",
        size_gb=500,
        warehouses=5000,
        buffer_pool_gb=230,
        virtual_users=500,
        sql_server_version=2014,
        vcpus=12,
        tpm=d["tpm"],
    )
    io = io_demand(db)
    ios_per_txn = io.iops / io.transactions_per_s
    # the compute node's CPU is not published: the guest IO CPU at the clock of the shipped seed design's stand-in,
    # as the capacity and the rate check count it on that design (at the reference 3 GHz the fit said "exact" while
    # examples/seed-datrium-dvx.json carried 1.1 % less than the run it was fitted on; DBA walk 2026-11-30)
    seed = parse_design(json.loads((EXAMPLES_DIR / "seed-datrium-dvx.json").read_text(encoding="utf-8")))
    guest_us = guest_us_per_io(seed, load_catalog(), default_params())
    cpu_model = seed.split.compute_node.cpu.model
    total_us = 12 * d["vcpu_utilization"] * 60e6 / d["tpm"]
    cpu = total_us - ios_per_txn * guest_us

    rows = [
        r
        for r in doc["tpce_sql_server"]
        if r["sockets"]
        and r["sockets"] <= 2
        and r["cores_per_socket"]
        and r["sql_server_version"]
        and r["sql_server_version"][:4] >= "2012"
    ]
    per_core = [r["sockets"] * r["cores_per_socket"] * 1e6 / r["tpse"] for r in rows]
    med = statistics.median(per_core)
    ratios = sorted(x / med for x in per_core)

    i9 = doc["hammerdb_cpu_point"]
    busy = i9["logical_cpus"] * i9["cpu_utilization"]
    io9 = io_demand(Database(name="i9", size_gb=1, warehouses=10, buffer_pool_gb=64, virtual_users=4, tpm=i9["tpm"]))
    # the i9's guest IO CPU at the reference clock (3 GHz), as before: the part is not in the catalog
    per_txn9 = cpu + io9.iops / io9.transactions_per_s * default_params().guest_cpu_us
    pred9 = busy * 60e6 / per_txn9

    # the fit's own error: one point gives none, so its one held-out measurement of the same quantity (the i9's CPU
    # per transaction over the fit's) is taken either way, and compounded with the spread between CPUs (a customer's
    # CPU is not Datrium's): the TPC-E spread alone is how per-core cost varies, not the fit's error, and the i9 fell
    # at its edge (DBA review 2026-11-30)
    i9_ratio = pred9 / i9["tpm"]
    fit_error = max(i9_ratio, 1.0 / i9_ratio)
    band = [ratios[0] / fit_error, ratios[-1] * fit_error]

    # Micron's single-node run (held out, in neither the fit nor the band): the model's CPU-bound rate on the
    # server's 24 cores, and on its 48 logical processors counted as cores (what counting a hyperthread as a core's
    # worth would say); the brief gives no CPU utilisation, so the run is taken as CPU-bound (an assumption)
    mi = doc["micron_9100_single_node"]
    io_m = io_demand(
        Database(
            name="micron-9100",
            size_gb=mi["database_gb"],
            warehouses=mi["warehouses"],
            buffer_pool_gb=230,
            sql_server_version=2014,
            vcpus=mi["cores"],
            tpm=mi["tpm"],
        )
    )
    ghz_m = load_catalog().cpu["intel-xeon-e5-2690-v3"].base_ghz
    per_txn_m = cpu + io_m.iops / io_m.transactions_per_s * cpu_guest_us(default_params(), ghz_m)
    pred_m = {n: n * 60e6 / per_txn_m for n in (mi["cores"], mi["logical_cpus"])}

    pairs = [
        {
            "id": p["id"],
            "measured": p["tpm"] / p["nopm"],
            "predicted": oltp.TPM_PER_NOPM,
            "error_pct": 100 * (oltp.TPM_PER_NOPM / (p["tpm"] / p["nopm"]) - 1),
        }
        for p in doc["hammerdb_tpm_nopm_pairs"]
    ]
    return {
        "cpu_us_per_txn": {
            "value": cpu,
            "unit": "core-microseconds per TPM transaction (SQL Server's work; the guest IO stack's is added per IO)",
            "fitted_on": f"Datrium DVX: 12 vCPUs at 100 % for {d['tpm']:,.0f} TPM ({total_us:.1f} core-us per transaction, "
            f"less {ios_per_txn:.3f} IOs x {guest_us:.1f} us of guest IO CPU)",
            "in_sample_error_pct": 0.0,
            "in_sample_note": "one point, one parameter: exact by construction; judged only out of sample",
            "spread_ratio": [ratios[0], ratios[-1]],
            "spread_basis": f"per-core microseconds per transaction of {len(rows)} official TPC-E results on SQL Server "
            f"2012-2022 (1-2 sockets), against their median: {ratios[0]:.2f}-{ratios[-1]:.2f}x",
            "band_ratio": band,
            "band_basis": f"no fitted spread (one point, one parameter): the TPC-E spread between CPUs "
            f"({ratios[0]:.2f}-{ratios[-1]:.2f}x) compounded with the fit's own error, taken either way as its one "
            f"held-out measurement of the CPU per transaction gives it (HammerDB's i9 run: {i9_ratio:.3f}x the fit's, "
            f"a factor of {fit_error:.3f}): {band[0]:.2f}-{band[1]:.2f}x the fitted CPU per transaction, a stated "
            "assumption. The Azure SQL Managed Instance runs are held out and not in it: their one CPU "
            "measurement lies outside it (docs: Accuracy, the database layer held out)",
            "band_components": {"tpce_spread": [ratios[0], ratios[-1]], "fit_error_factor": fit_error},
            "assumptions": [
                "a vCPU is one core's worth of work (the VM's 12 vCPUs on a host with more cores)",
                f"the Datrium compute node's CPU is not published: guest IO CPU at the clock of the seed design's "
                f"stand-in ({cpu_model}, examples/seed-datrium-dvx.json)",
                "cost per core constant across CPU generations and clocks (the TPC-E series is flat "
                "within the spread above)",
            ],
        },
        "held_out": {
            "hammerdb_i9": {
                "measured_tpm": i9["tpm"],
                "predicted_tpm": pred9,
                "error_pct": 100 * (pred9 / i9["tpm"] - 1),
                "how": f"{busy:.2f} logical CPUs busy x 60 s / {per_txn9:.1f} core-us per transaction",
                "caveats": i9["caveats"],
            },
            "micron_9100_single_node": {
                "measured_tpm": mi["tpm"],
                "predicted_tpm": pred_m[mi["cores"]],
                "error_pct": 100 * (pred_m[mi["cores"]] / mi["tpm"] - 1),
                "predicted_tpm_logical_cpus_as_cores": pred_m[mi["logical_cpus"]],
                # what a core gave with its second thread, if the run was CPU-bound at the fit's cost per transaction
                "implied_smt_gain": mi["tpm"] / pred_m[mi["cores"]],
                "error_pct_logical_cpus_as_cores": 100 * (pred_m[mi["logical_cpus"]] / mi["tpm"] - 1),
                "how": f"{mi['cores']} cores at 100 % x 60 s / {per_txn_m:.1f} core-us per transaction (the fit's "
                f"{cpu:.1f} and the guest IO stack's at {ghz_m:g} GHz); buffer pool 230 GB of 256 GB RAM assumed",
                "caveats": mi["cpu_note"],
            },
            "tpm_per_nopm": {
                "predicted": oltp.TPM_PER_NOPM,
                "pairs": pairs,
                "max_abs_error_pct": max(abs(p["error_pct"]) for p in pairs),
            },
        },
        "source": "planner/data/benchmarks/database/results.json; scripts/fit_oltp.py",
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="print, do not write")
    a = ap.parse_args()
    out = fit()
    text = json.dumps(out, indent=1) + "\n"
    if not a.check:
        OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
