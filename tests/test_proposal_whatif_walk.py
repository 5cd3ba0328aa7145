"""The proposal documents as a customer engineer reproduces them (customer-engineer walk 2026-12-01): the HammerDB
demand (examples/demand-hammerdb.json), the design the sizer proposes for it, then a what-if on the Design page (5
nodes, 1,536 GB of RAM, 10 x Micron 7450 PRO, ConnectX-6 Dx, three-way mirror) whose capacity drives' rated writes
last 2.6 years against a 36-month amortisation: the app and ``hciplan proposal`` say "not met", the documents must
say the same verdict, with the same figures, in every format."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from test_cost_consistency import WHATIF_DESIGN
from test_proposal_document import docx_text, html_text, pdf_text_of

from planner.engine.loads import demand_as_workload
from planner.models.demand import Demand
from planner.models.design import Design
from planner.sizing.document import document
from planner.sizing.formats import pdf_available, render
from planner.sizing.proposal import build

ROOT = Path(__file__).resolve().parents[1]
DEMAND_FILE = ROOT / "examples" / "demand-hammerdb.json"
#: the walk's what-if: the sized design's build with the Design page's changes (defined once, with the growth test's)
WHATIF = WHATIF_DESIGN

#: the design the sizer proposes for the demand ("Use this design" on the Size page)
SIZED = {
    **WHATIF,
    "name": "sized",
    "node": {
        "chassis": "dell-ax-660",
        "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
        "ram_gb": 1024.0,
        "capacity_drives": {"model": "micron-5400-pro-3.84tb", "count": 9},
        "nics": {"model": "broadcom-p225p-2x25g", "count": 1},
        "dimms": {"model": "ddr5-32gb-rdimm-4800", "count": 32},
    },
}


def _build(design: dict) -> dict:
    d = Demand.model_validate_json(DEMAND_FILE.read_text())
    des = Design.model_validate(design)
    return build(des, demand_as_workload(d, des.nodes), demand=d, meta={"customer": "Contoso", "date": "2026-12-01"})


@pytest.fixture(scope="module")
def proposal():
    return _build(WHATIF)


@pytest.fixture(scope="module")
def doc(proposal):
    return document(proposal)


@pytest.fixture(scope="module")
def files(proposal):
    out = {f: render(proposal, f) for f in ("html", "docx", "xlsx")}
    if pdf_available():
        out["pdf"] = render(proposal, "pdf")
    return out


@pytest.fixture(scope="module")
def workbook(files):
    import openpyxl

    return openpyxl.load_workbook(io.BytesIO(files["xlsx"]))


def texts(files) -> dict[str, str]:
    """The document's text in each format it has text in (the PDF where chromium is installed), one space between
    words (a no-break space is a space)."""
    out = {"html": html_text(files["html"]), "docx": docx_text(files["docx"])}
    if "pdf" in files:
        out["pdf"] = pdf_text_of(files["pdf"])
    return {k: " ".join(v.replace("\u00a0", " ").split()) for k, v in out.items()}


def rows_of(ws) -> list[list]:
    return [[c.value for c in row] for row in ws.iter_rows()]


def section(doc: dict, title: str) -> dict:
    return next(s for s in doc["sections"] if s["title"] == title)


def kv(doc: dict, title: str) -> dict:
    return dict(next(b["rows"] for b in section(doc, title)["blocks"] if b["type"] == "kv"))


def meets(doc: dict) -> list[list[str]]:
    return next(b for b in section(doc, "Your databases")["blocks"] if b.get("name") == "meets")["rows"]


def test_the_documents_verdict_is_the_librarys_one_verdict(proposal, doc, files, workbook):
    """Walk: the app's verdict table had a column "Other rules: not met" (the drives' rated writes last 2.6 years
    against a 36-month amortisation) and ``hciplan proposal`` said ``"met": false``, while the document's section 2
    showed 8 rows all "met" and its summary said "We propose"; the workbook had no rules sheet at all."""
    v = proposal["verdict"]
    assert v["met"] is False and [o["rule"] for o in v["other_fails"]] == ["drive_endurance"]
    # section 2 names the failed rule in its own row
    rows = meets(doc)
    other = next(r for r in rows if r[0] == "Other rules")
    assert other[2] == "NOT met" and "rated writes outlast the amortisation period" in other[3]
    # the summary describes, never proposes, and names the rule and the remedy
    opening = section(doc, "Summary")["blocks"][0]["text"]
    assert "We propose" not in opening and "does not meet" in opening
    assert "rated writes outlast the amortisation period" in opening
    assert v["remedy"]["words"] in opening
    assert doc["verdict"] == opening
    for fmt, t in texts(files).items():
        assert "does not meet" in t and "We propose" not in t, fmt
    # the workbook says the verdict on its summary and carries the rules
    summary = rows_of(workbook["Summary"])
    assert "does not meet" in str(summary[2][0])
    rules = rows_of(workbook["Rules"])
    assert rules[3][:3] == ["Rule", "Whose", "Result"]
    endurance = next(r for r in rules[4:] if r[0] and "rated writes outlast" in str(r[0]))
    assert endurance[2] == "not met"
    assert "does not meet" in str(rules[2][0])


def test_a_design_that_meets_every_rule_is_still_proposed():
    """The sized design meets every rule: its documents propose it, with no row of other rules."""
    drives = {"model": "micron-7450-max-3.2tb", "count": 10}  # rated 3 drive writes a day
    p = _build({**WHATIF, "node": {**WHATIF["node"], "capacity_drives": drives}})
    assert p["verdict"]["met"] is True, p["verdict"]["summary"]
    d = document(p)
    assert section(d, "Summary")["blocks"][0]["text"].startswith("We propose")
    assert not any(r[0] == "Other rules" for r in meets(d)) and d["verdict"] is None


@pytest.mark.parametrize("design", [WHATIF, SIZED], ids=["what-if", "sized"])
def test_the_throughput_row_gives_both_saturations_each_labelled_in_the_app_and_the_document(design):
    """Walk: the app's IOPS cell said "1,507,438 IOPS at saturation" (every node up, unlabelled, beside cells saying
    "one node down"), the document's row of the same rule "the cluster saturates at 1,144,635 IOPS with one server
    down" (the sized design: 676,080 in the app, 405,648 in the document). One rule, the same two figures, each
    labelled, in the verdict, the app's cell and the document."""
    from hciplan_ui.costs import _short

    p = _build(design)
    row = next(d for d in p["verdict"]["dimensions"] if d["key"] == "iops")
    up, down = row["saturation_iops"], row["saturation_one_node_down_iops"]
    assert up == row["have"] and down is not None and down < up
    assert f"{up:,.0f} IOPS at saturation with every node up ({down:,.0f} with one node down" in row["detail"]
    # every node up with its held-out band (honesty audit 2026-12-01); one node down with none, said, as every
    # degraded figure (the Performance page's "Degraded figures have no band" sat above a band; regression walk)
    from planner.sizing.document import DOWN_NO_RANGE

    lo, hi = row["saturation_iops_low"], row["saturation_iops_high"]
    assert lo < up < hi and row["saturation_one_node_down_iops_low"] is None
    assert row["saturation_one_node_down_iops_note"] == DOWN_NO_RANGE
    assert (
        f"{up:,.0f} IOPS at saturation (band {lo:,.0f}–{hi:,.0f}), all nodes up ({down:,.0f} one node down, "
        f"{DOWN_NO_RANGE})" in _short(row)
    )
    said = meets(document(p))[0]
    assert said[0] == "Throughput"
    assert f"saturates at {down:,.0f} IOPS with one server down ({up:,.0f} IOPS with every server up)" in said[3]


def test_every_one_server_down_figure_says_so_where_it_is_printed(proposal, files, workbook):
    """Walk: the summary's "Most IOPS with every latency target met 1,139,769 IOPS" is a one-server-down figure with
    no label and no range (section 2 says "with one server down"); the workbook's summary put it right under "Throughput
    the cluster can reach 1,507,438" (every server up)."""
    b = proposal["binding"]
    assert "latency" in b["limits_one_node_down"]
    most = f"{b['guaranteed_iops']:,.0f}"
    for fmt, t in texts(files).items():
        at = [m.start() for m in re.finditer(re.escape(most), t)]
        assert len(at) >= 2, fmt  # the summary and section 2
        for i in at:
            assert "one server down" in t[max(0, i - 100) : i + 100], (fmt, t[max(0, i - 100) : i + 100])
        assert (
            f"one server down {most} IOPS (no range: the ranges are calibrated on clusters with every server up)" in t
        )
    for ws in workbook.worksheets:
        for r in rows_of(ws):
            if round(b["guaranteed_iops"]) in r:
                assert str(r[0]).endswith(", one server down"), (ws.title, r)
    summary = {r[0]: r for r in rows_of(workbook["Summary"])}
    assert summary["Throughput the cluster can reach, every server up"][1] == round(proposal["report"]["iops_capacity"])


def test_the_figure_a_caveat_gives_its_spread_on_is_printed_in_every_format(proposal, files, workbook):
    """Walk: "expect -22 % to +37 % on the throughput the cluster can reach" spoke of a figure (1,507,438, range
    1,183,188-2,061,572) only the workbook printed."""
    rep = proposal["report"]
    up, low, high = (f"{rep[k]:,.0f}" for k in ("iops_capacity", "iops_capacity_low", "iops_capacity_high"))
    line = f"Throughput the cluster can reach, every server up {up} IOPS (range {low} IOPS to {high} IOPS)"
    for fmt, t in texts(files).items():
        assert "on the throughput the cluster can reach" in t, fmt
        assert line in t, fmt
    summary = {r[0]: r for r in rows_of(workbook["Summary"])}
    assert summary["Throughput the cluster can reach, every server up"][3] == line.split(" up ", 1)[1]


def test_storage_latencies_carry_their_ranges_and_one_server_down_figures_say_they_have_none(proposal, files, workbook):
    """Walk: the PDF and DOCX gave "Storage latency read / write 0.170 ms / 0.207 ms" with no range where the app
    and the workbook gave 0.122-0.332 and 0.156-0.333; the one-server-down "0.524 ms" had no range and, unlike the
    app's Performance page, the document did not say one-node-down figures carry none."""
    rep, dg = proposal["report"], proposal["report"]["degraded"]

    def band(k: str) -> str:
        return f"{rep[k]:.3f} ms (range {rep[k + '_low']:.3f} ms to {rep[k + '_high']:.3f} ms)"

    for fmt, t in texts(files).items():
        assert f"Storage latency, read / write {band('read_latency_ms')} / {band('write_latency_ms')}" in t, fmt
        assert (
            f"{dg['iops']:,.0f} IOPS at {dg['vm_latency_ms']:.3f} ms (no range: the ranges are calibrated on clusters "
            "with every server up)" in t
        ), fmt
        assert "Figures with one server down have no range" in t, fmt
    notes = [str(r[0]) for r in rows_of(workbook["Guarantees"])]
    assert any(n.startswith("Ranges are where") and "Figures with one server down have no range" in n for n in notes)


def test_the_rebuild_with_one_server_down_carries_its_condition_in_every_format(proposal, files, workbook):
    """Walk: the workbook's Guarantees sheet said "With one server down: data fully protected again after 0.3 hours"
    where the PDF said the rebuild runs only if an administrator retires the drives (Storage Spaces Direct starts
    none by itself: ``repair_automatic`` false, ``repair_condition``)."""
    dg = proposal["report"]["degraded"]
    assert dg["repair_automatic"] is False and dg["repair_time_hours"] > 0
    for fmt, t in texts(files).items():
        assert "if an administrator retires its drives" in t and "data fully protected again" not in t, fmt
    rows = [r for r in rows_of(workbook["Guarantees"]) if r[4] == "hours"]
    assert len(rows) == 1
    label, hours = rows[0][0], rows[0][1]
    assert "data fully protected again" not in label
    assert "only if an administrator retires the server's drives" in label and "starts none by itself" in label
    assert hours == round(dg["repair_time_hours"], 1)


def test_the_workbook_says_each_note_once_and_has_no_empty_column(proposal, workbook):
    """Walk: the Growth sheet repeated "Year 0 is today's demand ..." (A12 and A14); the Cost and TCO sheet's "TCO
    total (USD)" column was empty on every cost line."""
    notes = [r[0] for r in rows_of(workbook["Growth"]) if isinstance(r[0], str)]
    assert len(notes) == len(set(notes)) and any(n.startswith("Year 0 is today's demand") for n in notes)
    cost = rows_of(workbook["Cost and TCO"])
    header = cost[3]
    assert "TCO total (USD)" not in header
    lines = [r for r in cost if r[0] in {x["line"] for x in proposal["cost"]["lines"]}]
    assert lines
    for i, name in enumerate(header):
        if name not in ("Formula", None):  # only the total row carries a formula; the TCO table is wider
            assert all(r[i] is not None for r in lines), name


def test_one_capacity_is_one_figure_at_one_precision(proposal, doc):
    """Walk: section 2 said "after a node loss 50.9 TB usable on 4 nodes" where the Capacity section said "the
    survivors hold 50.95 TB" (one precision per quantity: core.text's tb_words)."""
    down = f"{proposal['report']['reprotected_after_node_loss_tb']:,.2f} TB"
    assert down == "50.95 TB"
    server_can_fail = next(r for r in meets(doc) if r[0] == "A server can fail")
    assert f"after a node loss {down} usable on 4 nodes; demand 36.00 TB" in server_can_fail[3]
    capacity = " ".join(b.get("text", "") for b in section(doc, "Capacity")["blocks"])
    assert f"the survivors hold {down}" in capacity
    assert next(r for r in meets(doc) if r[0] == "Capacity")[1] == "36.00 TB"
    assert kv(doc, "Your databases")["Capacity"].startswith("36.00 TB")


def test_the_vm_is_said_as_given_or_assumed_never_both(doc):
    """Walk: "Each database's VM, assumed: 8 vCPUs and 160 GB of RAM (as given)" said both of one figure; the demand
    gives both (vcpus_per_db 8, ram_gb_per_db 160). A demand that gives neither says each is assumed."""
    said = kv(doc, "Your databases")
    assert said["Each database's VM"] == "8 vCPUs and 160 GB of RAM, as given"
    assert not any(k.startswith("Each database's VM,") for k in said)
    d = Demand.model_validate(
        {"database": {"name": "db", "size_gb": 500, "buffer_pool_gb": 128, "tpm": 3000}, "databases": 4}
    )
    des = Design.model_validate(WHATIF)
    p = build(des, demand_as_workload(d, des.nodes), demand=d)
    vm = kv(document(p), "Your databases")["Each database's VM"]
    # 16: the database VM the schema shows (stop 55: the sizer had used 4 where the schema said 16)
    assert vm.startswith("16 vCPUs (assumed) and ") and "GB of RAM (assumed: the 128 GB buffer pool" in vm
    assert "as given" not in vm


def test_the_documents_carry_their_inputs_and_the_workbooks_make_the_document_again(
    proposal, doc, files, workbook, tmp_path, capsys
):
    """Walk: the documents could not be regenerated from what the customer receives: no design or demand was in
    them. The appendix Inputs gives the design's parts by catalog id, the demand's fields and the database's
    translation into IO; the workbook's Inputs sheet the JSON `hciplan proposal` runs on again, to the same
    document."""
    from planner.cli import main

    inputs = section(doc, "Inputs")
    assert inputs["label"].startswith("Appendix")
    rows = {
        r[0]: r[1] for b in inputs["blocks"] if b["type"] in ("table", "kv") for r in (b["rows"] if b["rows"] else [])
    }
    assert rows["node / capacity drives / model"] == "micron-7450-pro-3.84tb"
    assert rows["node / nics / model"] == "mellanox-cx6-dx-2x100g" and rows["resiliency"] == "mirror-3way"
    assert rows["vcpu oversubscription"] == "4" and rows["validated for"] == "Azure Local"
    assert rows["database / buffer pool gb"] == "128" and rows["database / nopm"] == "20000"
    db = proposal["demand_database"]
    assert rows["IOPS per database, as sized"].startswith(f"{db['iops_per_db']:,.0f} (its peak")
    assert rows["Buffer-pool hit ratio"].startswith(f"{100 * db['buffer_hit_ratio']:.1f} %")
    assert rows["Transaction log, share of the data"] == "25 % (assumed)"
    assert rows["tempdb, share of the data"] == "25 % (assumed)"
    for fmt, t in texts(files).items():
        assert "hciplan proposal demand.json --design design.json" in t and "micron-7450-pro-3.84tb" in t, fmt
    # the workbook's JSON, saved as files, makes the same document again
    sheet = rows_of(workbook["Inputs"])
    assert "makes this document again" in sheet[2][0] and sheet[3] == ["File", "JSON"]
    saved = {r[0]: r[1] for r in sheet[4:] if r[0]}
    assert set(saved) == {"design.json", "demand.json"}  # the default costs: no costs.json
    for name, text in saved.items():
        (tmp_path / name).write_text(text)
    out = tmp_path / "again.html"
    args = ["proposal", str(tmp_path / "demand.json"), "--design", str(tmp_path / "design.json")]
    args += ["--customer", "Contoso", "--date", "2026-12-01", "--format", "html", "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    assert html_text(out.read_bytes()) == html_text(files["html"])


def test_a_saved_scenario_makes_the_same_document(files, tmp_path, capsys):
    """``hciplan proposal --scenario NAME`` reads a saved scenario's demand and design (and its system today, cost
    assumptions and names): the walk's what-if saved, the same document."""
    from planner.cli import main

    (tmp_path / "design.json").write_text(json.dumps(WHATIF))
    db = str(tmp_path / "scenarios.db")
    save = ["scenario", "save", "walk", "--demand", str(DEMAND_FILE), "--design", str(tmp_path / "design.json")]
    assert main([*save, "--customer", "Contoso", "--db", db]) == 0
    capsys.readouterr()
    out = tmp_path / "again.html"
    args = ["proposal", "--scenario", "walk", "--customer", "Contoso", "--db", db, "--date", "2026-12-01"]
    assert main([*args, "--format", "html", "--out", str(out)]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["met"] is False and said["design"] == "what-if"
    assert html_text(out.read_bytes()) == html_text(files["html"])
    # a demand file beside it, or neither: one line each
    assert main(["proposal", str(DEMAND_FILE), *args[1:], "--format", "html", "--out", str(out)]) == 2
    assert "give a demand file or --scenario, not both" in capsys.readouterr().err
    assert main(["proposal", "--format", "html", "--out", str(out)]) == 2
    assert "give a demand file, or --scenario NAME" in capsys.readouterr().err


def test_a_document_the_command_cannot_make_again_says_so():
    """A proposal under a benchmark workload (the Performance page's) is not what ``hciplan proposal`` makes from
    its demand: its Inputs appendix says so rather than promising the command."""
    from planner.models.workload import profiles

    d = Demand.model_validate_json(DEMAND_FILE.read_text())
    des = Design.model_validate(WHATIF)
    p = build(des, profiles()["oltp-8k"], demand=d)
    said = section(document(p), "Inputs")["blocks"][0]["text"]
    assert "cannot make this document again" in said and "oltp-8k" in said and "--design" not in said
