"""The UI's formatting and input helpers (no Streamlit run needed)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from hciplan_ui import fmt, inputs
from planner.models.database import Database
from planner.models.design import Design, NodeSpec

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "x, shown",
    [
        (1740666.3, "1,740,666"),
        (576646.9, "576,647"),
        (57.74, "57.7"),
        (4.567, "4.57"),
        (0.4629, "0.463"),
        (0, "0"),
        (None, "–"),
        (float("nan"), "–"),
        (float("inf"), "–"),
        (-0.0001, "0.000"),
    ],
)
def test_numbers_have_separators_and_sensible_precision(x, shown):
    assert fmt.num(x) == shown


def test_units_and_bands():
    assert fmt.ms(0.46292) == "0.463 ms" and fmt.ms(12.345) == "12.3 ms" and fmt.ms(None) == "–"
    assert fmt.tb(8.9973) == "9.00 TB" and fmt.usd(105671.2) == "$105,671" and fmt.usd(-5) == "-$5"
    assert (
        fmt.pct(0.255) == "26 %"
        and fmt.pct(0.255, 1) == "25.5 %"
        and fmt.years(0.4288) == "5.1 months"
        and fmt.years(None) == "–"
    )
    assert fmt.band(576647, 549243, 646156) == "576,647 (549,243–646,156)"
    assert fmt.span(0.142, 0.166, fmt.ms) == "0.142–0.166 ms"
    # one precision for both ends, the high end's ("band 5.018–12.8 ms"; browser review 2026-11-29), unless the
    # low end would round to 0
    assert fmt.span(5.018, 12.8, fmt.ms) == "5.0–12.8 ms" and fmt.span(0.04, 12.0, fmt.ms) == "0.040–12.0 ms"
    # and with the figure it bands, that figure's: "6.078 ms, band 3.0–12.2 ms" (review 2026-12-01)
    assert fmt.span(3.018, 12.2, fmt.ms, 6.078) == "3.018–12.200 ms" and fmt.band_text(3.5, 50.8, fmt.ms, 23.5) == (
        "band 3.5–50.8 ms"
    )
    assert fmt.band(6.078, 3.018, 12.2, fmt.ms) == "6.078 ms (3.018–12.200 ms)"
    assert fmt.label("capacity_drives") == "capacity drives" and "_" not in fmt.label("some_new_key")


@pytest.mark.parametrize(
    "text",
    [
        "![b](http://host/x.png)",
        "[l](http://h/l)",
        "<img src=x>",
        "$x^2$",
        "**b** _i_ `c` ~~s~~ | t |",
        "# h",
        "1. list",
        "- item",
        ":material/home:",
        ":smile: :+1: :100: :red[x] :blue-background[y]",
        "see http://h/x or www.h.com or a@b.com",
        "a:",
    ],
)
def test_user_text_has_no_live_markdown(text):
    s = fmt.md(text)
    plain = s.replace("\\", "").replace(fmt.WORD_JOINER, "")
    assert plain == text  # the reader sees exactly what was typed
    for i, ch in enumerate(s):  # every markdown character is escaped
        if ch in "[]()!<>$*_`~|#" and (i == 0 or s[i - 1] != "\\"):
            assert s[i - 1 : i + 1] == "\\\\" + ch, (text, s)
    for link in ("http://", "www.", "a@b", ":material/", ":smile", ":+", ":1", ":red", ":blue"):
        assert link not in s
    assert not s.endswith(":")  # a text after it (another's, joined to it) cannot open a shortcode with it
    # CommonMark escapes punctuation only: a backslash before anything else is shown ("\\1. list" read so)
    assert all(m.group(1) in string.punctuation for m in re.finditer(r"\\(.)", s)), s
    assert fmt.md("a\nb\r\nc") == "a b c"


def test_a_figure_at_the_start_is_not_taken_for_a_list():
    """Only a list's mark followed by a space is escaped: "228.0 of 128" and "-5 %" stay as written."""
    assert fmt.md("228.0 of 128 vCPUs") == "228.0 of 128 vCPUs" and fmt.md("-5 %") == "-5 %"
    assert fmt.md("1. list") == "1\\. list" and fmt.md("- item") == "\\- item"


def test_model_bounds_come_from_the_model():
    # the field takes the widest stack's limit (Ceph 256); each stack's own is checked by the model
    # and used by the Design page (planner.models.stacks.MAX_NODES: S2D 16)
    assert inputs.model_bounds(Design, "nodes") == (1, 256, False)
    assert inputs.model_bounds(NodeSpec, "ram_gb") == (1, 100_000, False)  # a server of 1 GB at least
    assert inputs.model_bounds(Database, "latency_target_ms") == (0.02, 10_000.0, False)


@pytest.mark.parametrize(
    "value, msg",
    [
        (5, None),
        (16, None),
        (1000, "Nodes must be a whole number, 1–16 (you typed 1,000)"),
        (0, "Nodes must be a whole number, 1–16 (you typed 0)"),
        (-3, "Nodes must be a whole number, 1–16 (you typed -3)"),
        (2.5, "Nodes must be a whole number, 1–16 (you typed 2.5)"),
        (None, "Nodes must be a whole number, 1–16 (the box is empty)"),
    ],
)
def test_out_of_range_message_names_field_range_and_value(value, msg):
    assert inputs.check("Nodes", value, 1, 16, integer=True) == msg


def test_exclusive_bound_is_said_so():
    assert (
        inputs.check("RAM per node, GB", 0.0, 0, 100_000, lo_open=True, unit="GB")
        == "RAM per node, GB must be more than 0 and at most 100,000 GB (you typed 0)"
    )


def test_log_axis_ticks_have_no_long_decimals():
    from hciplan_ui.charts import log_ticks

    t = log_ticks([0.142, 0.46, 2.5])
    assert t["ticktext"] == ["0.1", "0.2", "0.5", "1", "2", "5"]
    assert log_ticks([500, 1.2e6])["ticktext"][-3:] == ["500k", "1M", "2M"]


def test_charts_use_readable_names_and_formatted_labels():
    from hciplan_ui import charts

    util = {"vm_vcpu": 0.04, "host_cpu": 0.6, "network": 0.15, "cache": 0.32, "capacity_drives": 0.29}
    fig = charts.utilisation_bars(util, "cpu_utilization_cap")
    assert list(fig.data[0].y) == ["VM vCPUs", "host CPU", "network", "cache devices", "capacity drives"]
    fig = charts.compare_bars(["current", "what-if"], [576646.9, 686598.2], "IOPS", "IOPS")
    assert list(fig.data[0].text) == ["576,647", "686,598"]  # was '5.77e+05'
    curve = {
        "iops": [1e4, 5e5],
        "read_latency_ms": [0.14, 0.15],
        "write_latency_ms": [0.2, 0.22],
        "vm_latency_ms": [0.45, 0.6],
        "p99_read_latency_ms": [1.6, 2.4],
        "iops_capacity": 6e5,
        "cpu_cap_iops": None,
        "vm_latency_ms_low": [0.44, 0.55],
        "vm_latency_ms_high": [0.47, 0.8],
    }
    fig = charts.latency_curve(
        curve,
        {
            "iops": 4e5,
            "vm_latency_ms": 0.46,
            "iops_low": 3.8e5,
            "iops_high": 4.3e5,
            "vm_latency_ms_low": 0.45,
            "vm_latency_ms_high": 0.48,
        },
        band=True,
    )
    assert "VM (mean), band" in [t.name for t in fig.data]
    assert all(len(s) <= 4 for s in fig.layout.yaxis.ticktext)


def test_row_errors_name_the_row_the_tier_and_the_column():
    from pydantic import ValidationError

    from hciplan_ui import fmt
    from planner.models.tiers import TierSet

    good = TierSet.model_validate_json((ROOT / "planner" / "data" / "tiers.json").read_text()).model_dump(mode="json")
    rows = [dict(t) for t in good["tiers"]]
    rows[0]["burst_iops"] = rows[0]["guaranteed_iops"] / 5
    rows[1]["latency_target_ms"] = -1
    with pytest.raises(ValidationError) as exc:
        TierSet.model_validate({"tiers": rows})
    labels = {
        "burst_iops": "burst IOPS",
        "guaranteed_iops": "guaranteed IOPS",
        "latency_target_ms": "latency target, ms",
    }
    text = fmt.row_errors(exc.value, rows, "tiers", labels)
    assert f"Row 1 ({rows[0]['name']}): burst IOPS must be ≥ guaranteed IOPS" in text
    assert f"Row 2 ({rows[1]['name']}), latency target, ms: " in text
    assert "tiers.tiers" not in text and "_iops" not in text
    # a name of 10,000 characters is cut, so the reason after it shows (adversarial review 2026-11-30)
    rows[0]["name"] = "T" * 10_000
    with pytest.raises(ValidationError) as exc:
        TierSet.model_validate({"tiers": rows})
    text = fmt.row_errors(exc.value, rows, "tiers", labels)
    assert text.startswith("Row 1 (" + "T" * 40 + "…)") and len(text) < 1_000


def test_reset_gives_the_tier_editor_a_new_key():
    """Reset after an invalid edit must clear it: the tiers may be the ones the editor
    started from, so the editor gets a new key (its own edits go with the old one)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.toggle(key="tier_editing").set_value(True).run()  # the editor, the reset and the files
    assert not at.exception
    gen = at.session_state["tier_editor_gen"] if "tier_editor_gen" in at.session_state else 0
    at.button(key="tiers_reset").click().run()
    assert not at.exception
    assert at.session_state["tier_editor_gen"] == gen + 1


def test_hosting_caveat_only_when_the_healthy_nodes_cannot_host():
    assert fmt.hosting_caveat([]) is None
    assert fmt.hosting_caveat([{"check": "vcpus", "case": "one node down"}]) is None
    assert fmt.hosting_caveat([{"check": "pcie_lanes", "case": "healthy"}]) is None
    text = fmt.hosting_caveat([{"check": "vcpus", "case": "healthy"}, {"check": "ram", "case": "healthy"}])
    assert "too few vCPUs and not enough RAM" in text


def test_a_change_past_ten_times_reads_as_a_multiple():
    from hciplan_ui import fmt

    assert fmt.change(1.211) == "+21.1 %" and fmt.change(0.093) == "-90.7 %" and fmt.change(9.99) == "+899.0 %"
    assert fmt.change(212.509) == "213x" and fmt.change(1329.8) == "1,330x"
    # a change that rounds to nothing has no sign, and no badge (review 2026-11-29: "↓ -0.0%", "↑ +0.0%")
    assert fmt.change(0.99996) == fmt.change(1.00004) == "0.0 %" and fmt.change(1.0004, 0) == "0 %"
    assert fmt.metric_delta(0.99996) is None and fmt.metric_delta(1.0004, 0, " vs healthy") is None
    assert fmt.metric_delta(0.994, 0, " vs healthy") == "-1 % vs healthy" and fmt.metric_delta(1.006) == "+0.6 %"


def test_device_iops_never_read_0k():
    from hciplan_ui.fmt import kilo

    assert [kilo(x) for x in (180, 950, 2_500, 750_000, 1_200_000)] == ["180", "950", "2.5k", "750k", "1,200k"]


def test_a_count_of_one_is_singular():
    from planner.core.text import count

    assert (count(1, "node"), count(2, "node"), count(0, "node"), count(1_000, "server")) == (
        "1 node",
        "2 nodes",
        "0 nodes",
        "1,000 servers",
    )


def test_binding_help_speaks_the_pages_words_tightest_first():
    """The Size page's Binding help said "capacity 1.07x, iops 1.52x" in the library's keys; it now
    names each resource as the pages do, tightest first, and leaves out what never binds."""
    from hciplan_ui.sizing_rows import binding_help

    text = binding_help(
        {
            "limit_ratios": {
                "capacity": 1.07,
                "iops": 1.52,
                "latency": 1.3,
                "vcpu": None,
                "vcpu_note": "never binds",
                "ram": 2.0,
            }
        }
    )
    assert text.endswith(
        "storage capacity 1.07x the demand, the latency target 1.30x the demand, "
        "IOPS (saturation) 1.52x the demand, RAM 2.00x the demand"
    )
    assert "vcpu" not in text and "vCPUs" not in text and "never" not in text
    # the binding resource first: a latency within 2 % of saturation is said as saturation (browser
    # review 2026-11-28: "Binding: IOPS (saturation)" beside a help that listed the latency first)
    tie = binding_help({"limit_ratios": {"iops": 1.09, "latency": 1.085, "capacity": 3.0}, "binding": "iops"})
    assert tie.endswith(
        "IOPS (saturation) 1.09x the demand, the latency target 1.08x the demand, storage capacity 3.00x the demand"
    )


def test_the_extrapolation_warning_says_its_values_in_words():
    """Stop 35's note: the Size and Performance pages' extrapolation warning carried ids ("'fc-4g x1'",
    "(calibrated: rdma)", "sas-hdd", "ec-8+2") where the proposal said them in words."""
    from planner.models.design import parse_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    text = ""
    for name in ("seed-dl580-san-raid5.json", "seed-datrium-dvx.json"):
        rep = evaluate_report(
            parse_design((ROOT / "examples" / name).read_text()), profiles()["oltp-8k"], degraded=False
        )
        text += (fmt.extrapolation_note(rep) or "").replace("\\", "").replace(fmt.WORD_JOINER, "")  # markdown's escapes
    for said in ("4 Gb Fibre Channel, 1 path", "calibrated: RDMA", "SAS HDD", "erasure coding 8+2", "RAID-5"):
        assert said in text, said
    # a family's own brackets are not nested in the list's: "(calibrated: ... (Cascade Lake))" (review 2026-11-29)
    assert "))" not in text, text
    for code in ("fc-4g", "'rdma'", "sas-hdd", "ec-8+2", "raid5", "'single-server'"):
        assert code not in text, code
    # an architecture's own explanation stays; one server is "1 server"
    assert "no single server was measured" in text
    assert "cluster size 1 server is outside" in text


def test_the_calibrated_domains_numbers_are_said_with_their_units():
    """Browser review 2026-11-28: a proposal said "this design uses 0.003173972030937385" and
    "(0.199536 to 1)" for a read share outside the calibrated domain."""
    from planner.sizing.names import domain_value_words
    from planner.sizing.words import extrapolation_words

    assert domain_value_words("read_fraction", 0.003173972030937385) == "0.3 %"
    assert domain_value_words("read_fraction", "0.199536 to 1") == "20 to 100 %"
    assert domain_value_words("block_size_kib", "4 to 64") == "4 to 64 KiB"
    # the numbers as the report's own messages say them (the words had "1.02e+03 KiB")
    assert domain_value_words("block_size_kib", "4 to 1024") == "4 to 1,024 KiB"
    assert domain_value_words("nodes", 1) == "1 server"
    flag = {"dimension": "read_fraction", "value": 0.0031739, "side": "low", "calibrated": "0.199536 to 1"}
    assert extrapolation_words({**flag, "message": "x"}) == (
        "share of IOs that are reads 0.3 % is outside the calibrated 20 to 100 %"
    )


def test_the_sidebar_and_headings_say_the_resiliency_in_words():
    """Browser review 2026-11-28: the sidebar said "Design reference · 3 nodes · mirror-3way" and the
    Size page's design line ended "· mirror-3way"."""
    import json

    from hciplan_ui.sizing_rows import design_label

    ref = json.loads((ROOT / "examples" / "reference.json").read_text())
    # a name its author gave, with the node count and resiliency; a bundled example by its parts
    own = ref | {"name": "my cluster"}
    assert design_label(own) == "my cluster · 3 nodes · three-way mirror", design_label(own)
    assert design_label(ref).startswith("3 x ") and design_label(ref).endswith("· three-way mirror")
    from planner.models.demand import Demand
    from planner.sizing.search import size

    best = size(Demand.model_validate_json((ROOT / "examples" / "demand-200dbs.json").read_text()), top=1).best
    said = design_label(best["design"])
    assert said.endswith("· three-way mirror") and "mirror-3way" not in said, said


def test_the_libraries_pages_share_are_imported_once_by_one_thread_before_any_page():
    """Two of Streamlit's script threads importing pandas at once left one with a half-initialised
    module and the Performance page with a traceback (about one fresh browser in eight, 2026-11-29).
    app.py imports them under one lock before the app's own code; 16 threads at once all see whole
    modules, in a fresh interpreter."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    src = (root / "app.py").read_text()
    assert src.index("import_once()") < src.index("from hciplan_ui.app import main")
    probe = (
        "import sys, threading, hciplan_ui\n"
        "errors = []\n"
        "def run():\n"
        "    try:\n"
        "        hciplan_ui.import_once()\n"
        "        import pandas, plotly.graph_objects\n"
        "        pandas.Series([1]); plotly.graph_objects.Figure()\n"
        "    except Exception as e:\n"
        "        errors.append(repr(e))\n"
        "ts = [threading.Thread(target=run) for _ in range(16)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert not errors, errors\n"
        "assert all(m in sys.modules for m in hciplan_ui.FIRST_IMPORTS)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_streamlits_emoji_catalogue_is_imported_off_the_pages_thread():
    """A fresh server's first "Use this design" compiled Streamlit's emoji catalogue (0.1-0.4 s) inside the
    page's run (cProfile, 2026-11-29): import_once imports it in the background a few seconds after the
    first imports, in a fresh interpreter, without the page asking for it."""
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import sys, time, hciplan_ui\n"
        "hciplan_ui.import_once()\n"
        "assert 'streamlit.emojis' not in sys.modules  # not on the page's thread\n"
        "time.sleep(hciplan_ui.LATE_IMPORT_DELAY_S + 5)\n"
        "assert all(m in sys.modules for m in hciplan_ui.LATE_IMPORTS), hciplan_ui.LATE_IMPORTS\n"
        "print('ok')\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_a_static_table_is_one_markdown_table_of_escaped_text():
    """st.table renders its cells as markdown: a tier named "[x](http://host)" was a link there
    (review 2026-11-29). fmt.table escapes every header and cell, keeps empty cells, aligns a column of
    figures right, and reads back as typed."""
    from uitables import parse

    hostile = ["[x](http://h/x) **b**", "1. list", "a | b", "<img src=x>", "$x$", ":material/home:"]
    rows = [
        {"Tier [t]": h, "IOPS": f"{i:,}", "Price, USD/month": f"${i}.50", "Note": ""} for i, h in enumerate(hostile)
    ]
    text = fmt.table(rows)
    lines = text.split("\n")
    assert len(lines) == 2 + len(rows)
    assert lines[1] == "|---|---:|---:|---|"  # figures right, text and the empty column left
    for h, line in zip(hostile, lines[2:], strict=True):
        assert line.startswith(f"| {fmt.md(h)} | ")
    back = parse(text)
    assert list(back.columns) == list(rows[0])
    assert back.to_dict("records") == rows
    assert fmt.table([]) == ""


def test_no_page_draws_st_table():
    """st.table renders its cells as markdown (a user's tier name was a link) and costs the browser about
    five times a markdown table: static tables go through fmt.table (review 2026-11-29)."""
    ui = Path(fmt.__file__).resolve().parent
    found = [
        f"{p.name}:{i}"
        for p in sorted(ui.glob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"(?<!fmt)\.table\(", line) and not line.lstrip().startswith("#")
    ]
    assert not found, found


def test_a_share_in_use_reads_100_percent_only_when_exactly_full():
    """UI review (2026-11-29): "Does not fit: storage capacity 100 %" for 9.0 TB of 8.997 TB."""
    assert fmt.used(1.0003) == "100.03 %" and fmt.used(0.9996) == "99.96 %"
    assert fmt.used(1.0) == "100 %" and fmt.used(0.49) == "49 %" and fmt.used(1.2) == "120 %"
    assert fmt.used(1 + 1e-12) == "just over 100 %" and fmt.used(1 - 1e-12) == "just under 100 %"
    assert fmt.used(None) == fmt.DASH


def test_memory_is_said_at_the_speed_its_cpu_runs_it():
    """Browser review 2026-11-29: "16 x 96 GB DDR5-5600" beside a Xeon Gold 6430, which runs memory at 4400."""
    from hciplan_ui.sizing_rows import memory_words

    node = {
        "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
        "dimms": {"model": "ddr5-96gb-rdimm-5600", "count": 16},
    }
    assert memory_words(node) == "16 x 96 GB DDR5-5600 at 4400 MT/s with this CPU (1,536 GB)"
    node["cpu"]["model"] = "amd-epyc-9554"
    assert "with this CPU" not in memory_words(node) or "at 4800" in memory_words(node)


def test_a_proposal_file_is_named_for_its_customer():
    from hciplan_ui.export import proposal_stem

    assert proposal_stem("Contoso Bank") == "proposal-contoso-bank"
    assert proposal_stem("<script>/../x") == "proposal-script-x" and proposal_stem("") == "proposal"
    assert proposal_stem(None) == "proposal" and proposal_stem("Ünïcødé 💾") == "proposal-unicde"


def test_a_saturated_demand_has_no_latency_in_the_verdict_row():
    """Browser review 2026-11-29: "604,350 IOPS at saturation, 715,450 needed" beside "demand mean 3.195 ms vs
    1.000 ms target"."""
    from hciplan_ui.costs import _short

    d = {"key": "latency", "have": 3.195, "need": 1.0, "tier": "demand", "statistic": "mean"}
    assert _short({**d, "detail": "the load cannot be carried, so no latency target holds"}) == ("unbounded: saturated")
    assert _short({**d, "detail": "demand mean 3.195 ms (target 1 ms)"}).startswith("demand mean 3.195 ms vs")


def test_the_closed_load_note_does_not_claim_the_demands_latency_is_lower():
    """Browser review 2026-11-29: "at which this design's latency is far lower" beside a preset at 0.505 ms and
    the demand at 0.530 ms."""
    from hciplan_ui.fmt import closed_load_note

    w = {
        "vms_per_node": 10,
        "threads_per_vm": 1,
        "outstanding_per_thread": 8,
        "block_size_kib": 8,
        "read_fraction": 0.7,
    }
    note = closed_load_note(w, {"nodes": 3, "iops": 1000.0, "vm_latency_ms": 0.5}, sized_demand=True)
    assert "far lower" not in note and "with a latency of its own" in note


def test_two_dimms_per_channel_are_not_said_to_run_at_the_one_per_channel_rate():
    """Browser review 2026-11-30: "32 x 96 GB DDR5-5600 at 5200 MT/s with this CPU" on 2 x 8 channels, where two
    DIMMs per channel run slower; the catalog has no two-per-channel figure, so none is given."""
    from hciplan_ui.sizing_rows import memory_words

    node = {"cpu": {"model": "intel-xeon-gold-6548yplus", "sockets": 2}, "dimms": {"model": "ddr5-96gb-rdimm-5600"}}
    two = memory_words(node | {"dimms": node["dimms"] | {"count": 32}})
    assert (
        "2 DIMMs per memory channel, so slower than the 5200 MT/s this CPU runs with one" in two
        and "at 5200 MT/s with" not in two
    )
    assert memory_words(node | {"dimms": node["dimms"] | {"count": 16}}).endswith(
        "at 5200 MT/s with this CPU (1,536 GB)"
    )


def test_n_plus_one_not_asked_is_not_said_met():
    """Architect review 2026-11-30: the N+1 cell read "met · data rebuilt: yes; targets held: yes" for a demand
    that asked no N+1 (the nested two-way mirror on two nodes cannot rebuild on one)."""
    from hciplan_ui.costs import _short

    d = {"key": "n_plus_one", "met": True, "asked": False, "capacity_met": True, "performance_met": True}
    assert _short(d) == "not asked by the demand"
    assert _short({**d, "asked": True}) == "data rebuilt: yes; targets held: yes"


def test_the_tier_prices_csv_says_each_tiers_promise_and_its_limit_in_words():
    """Pricing review 2026-11-30: the CSV's limited_by read "capacity (n+1)" and "ram (n+1)" where the page says
    "storage capacity, one node down", and it had no tier's IOPS, latency or size."""
    from hciplan_ui.costs import tier_price_rows
    from planner.commercial.pricing import tier_prices
    from planner.models.design import load_design, resolve
    from planner.models.tiers import default_tiers

    tiers = default_tiers()
    tp = tier_prices(resolve(load_design(ROOT / "examples" / "reference.json")), tiers, n_plus_one=True)
    rows = tier_price_rows(tp, tiers.model_dump_json())
    assert [r["tier"] for r in rows] == [t.name for t in tiers.tiers]
    for r, t in zip(rows, tiers.tiers):
        assert r["guaranteed_iops"] == t.guaranteed_iops and r["latency_target_ms"] == t.latency_target_ms
        assert "(n+1)" not in r["limited_by"] and "_" not in r["limited_by"]
    assert any(r["limited_by"].endswith(", one node down") for r in rows)


def test_a_drive_life_reads_the_same_in_the_metric_and_the_warning():
    """Verification walk 2026-11-30: "Capacity drive endurance at this load 2.7 years" above "rated writes run out
    in 2.6 years" (2.695 rounded in one, cut in the other)."""
    from hciplan_ui.fmt import years
    from planner.physics.endurance import endurance_warning

    assert years(2.695) == "2.6 years" and years(2.96) == "2.9 years" and years(150.7) == "150 years"
    assert "run out in 2.6 years" in endurance_warning(2.695, 5.0, 36)["message"]


def test_a_drive_life_under_a_year_reads_in_the_warnings_unit():
    """New-user walk: the reference cluster under oltp-8k (0.4726 years) showed "Capacity drive endurance at this
    load 0.4 years" beside "rated writes run out in 5.6 months". Both now say the warning's unit, both cut short."""
    from hciplan_ui.fmt import years
    from planner.physics.endurance import endurance_warning

    for life, said in ((0.47256, "5.6 months"), (0.09, "1.0 months"), (0.05, "18 days"), (1.0, "1.0 years")):
        assert years(life) == said
        assert f"run out in {said} " in endurance_warning(life, 5.0, 36)["message"]


def test_the_tier_tables_cells_show_a_typed_figure_as_typed_and_an_estates_mean_rounded():
    """Migration walk 2026-11-30: an estate's tiers read "83,610.51859753378" IOPS and "1.4585714285714286" TB in
    the SLA page's tier table."""
    assert fmt.typed(83610.51859753378) == "83,611"
    assert fmt.typed(1.4585714285714286) == "1.46"
    assert fmt.typed(0.6237112305634794) == "0.624"
    assert fmt.typed(0.5) == "0.5" and fmt.typed(0.7) == "0.7" and fmt.typed(5000) == "5,000"


def _contrast(fg: str, bg: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_apps_own_colours_meet_wcag_contrast():
    """Accessibility walk 2026-11-30: captions (bands, part specs) were 3.89:1 at 14 px, the sidebar's summary
    3.8:1, and keyboard focus on a sidebar page link a faint background (about 1.1:1). Text of BASE_CSS's colours
    is 4.5:1 or more, the focus ring 3:1 or more, on the page (white) and the sidebar (Streamlit's #f8f8f7)."""
    from hciplan_ui import chrome

    assert _contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the formula, on a known pair
    page, sidebar, refused = "#ffffff", "#f8f8f7", "#fff1f2"
    c = chrome.COLOURS
    assert min(_contrast(c["CAPTION_TEXT"], bg) for bg in (page, sidebar)) >= 4.5
    assert min(_contrast(c["FOCUS_RING"], bg) for bg in (page, sidebar)) >= 3.0
    assert min(_contrast(c["REFUSAL_TEXT"], bg) for bg in (page, refused)) >= 4.5
    # every colour is in the style, and no name is left in it unreplaced
    assert all(colour in chrome.BASE_CSS and name not in chrome.BASE_CSS for name, colour in c.items())


def test_the_word_joiner_stands_only_where_a_colon_could_open_a_shortcode_or_a_link():
    """Accessibility walk 2026-11-30: every colon of the app's own text ("warranty: 5 years", a table's
    "Low setting: change in IOPS") carried an invisible U+2060 into a copy and paste. A colon before a space opens
    no shortcode, colour or link: no joiner there; before anything else, one (the safety cases above)."""
    assert fmt.md("warranty: 5 years") == "warranty: 5 years"
    assert fmt.WORD_JOINER not in fmt.table([{"Low setting: change in IOPS": "+1"}])
    assert fmt.md("x :smile:") == f"x :{fmt.WORD_JOINER}smile:{fmt.WORD_JOINER}"


def test_a_band_with_no_high_end_says_unbounded():
    """Performance walk 2026-12-01: an open load past its capacity band's low end has no latency high end (null, with
    its note); the pages said its band as none at all. They say it unbounded."""
    from hciplan_ui import fmt

    assert fmt.band_text(0.245, None, fmt.ms) == "band 0.245 ms–unbounded"
    assert fmt.band(0.686, 0.245, None, fmt.ms) == "0.686 ms (0.245 ms–unbounded)"
    assert fmt.band_text(None, None, fmt.ms) is None and fmt.band_text(1.0, 1.0, fmt.ms) is None


def test_the_pages_write_a_percent_by_the_documents_rule():
    """One rule for a percent on the pages and in the documents (:func:`planner.core.text.pct`): the pages wrote
    "25 %" by a rule of their own beside the library's (customer-engineer walk 2026-12-01)."""
    from planner.core.text import pct

    for x, digits in ((0.255, 0), (0.0333, 1), (12.5, 0)):
        assert fmt.pct(x, digits) == pct(x, digits)
    assert fmt.pct(None) == fmt.pct(float("nan")) == "–"


def test_a_unit_price_has_cents_above_a_dollar_and_four_decimals_below():
    """Pricing-call walk (stop 63): "$347.9375" per guaranteed IOPS a month read as false precision."""
    assert fmt.unit_price(347.93751) == "$347.94" and fmt.unit_price(0.069612) == "$0.0696"
    assert fmt.unit_price(1.0) == "$1.00" and fmt.unit_price(None) == fmt.DASH


def test_the_ceph_release_after_a_design_label_keeps_its_separator():
    """Chromium, stop 64: "3 replicas· Ceph Pacific": the pages escaped " · Ceph Pacific ..." whole and fmt.md trims
    the leading space. The separator stays outside the escaping; the words inside it are escaped."""
    from hciplan_ui import sizing_rows

    said = sizing_rows.release_said({"stack": "ceph", "ceph": {"release": "pacific"}})
    assert said == " · Ceph Pacific \\(measured in the calibration data\\)"
    assert sizing_rows.release_said({"stack": "s2d"}) == ""


def test_after_node_loss_counts_what_an_erasure_code_re_protects_once_recovered_even_when_not_all():
    """The Capacity page's figure follows the library's one rule (usable_one_node_down_tb with
    io_resumes_after_recovery): an ec-2+1 pool whose data the survivors cannot all re-protect read "0.00 TB, IO
    stops" through the page's own special case, where the N+1 check counted what they do re-protect."""
    from hciplan_ui import fmt

    cap = {
        "usable_capacity_tb": 20.0,
        "reprotected_after_node_loss_tb": 15.0,
        "reprotected_after_node_loss": False,  # the survivors hold 15 of the 20 TB re-protected
        "repairs_after_node_loss": True,
        "online_after_node_loss": False,
        "io_resumes_after_recovery": True,
        "node_loss_note": "after losing one node, 15.00 TB re-protected once recovery rebuilds them",
    }
    value, note = fmt.after_node_loss(cap)
    assert value == "15.00 TB, once recovered", value
    assert note.startswith("after losing a node, 15.00 TB"), note
    stops, _ = fmt.after_node_loss(cap | {"io_resumes_after_recovery": False})
    assert stops == "0.00 TB, IO stops", stops


def test_a_ceph_designs_words_name_its_db_wal_devices_not_a_cache():
    """Ceph walk (2026-12-03): every page's design caption read "2 x Intel Optane ... as cache" of a Ceph design's
    DB/WAL devices, beside the Design page's "DB/WAL device" select."""
    import json

    from hciplan_ui.sizing_rows import described

    d = json.loads(Path("examples/reference.json").read_text())
    assert " as cache · " in described(d)
    ceph = d | {"stack": "ceph", "resiliency": "replica-3"}
    assert " as DB/WAL devices · " in described(ceph) and " as cache" not in described(ceph)
    bare = ceph | {"node": d["node"] | {"cache_devices": None}}
    assert " · no DB/WAL devices · " in described(bare)
    assert " · no cache · " in described(d | {"node": d["node"] | {"cache_devices": None}})


def test_the_demand_tables_capacity_keeps_the_size_pages_precision():
    """Size page walk (2026-12-03): the "against the demand" row said "11.2 TB needed" under the tile's "11.25 TB
    needed"; a need of 0.003 TB read "0.0 TB"."""
    from hciplan_ui.costs import _short

    assert _short({"key": "capacity", "have": 16.81, "need": 11.25}) == "16.81 TB usable, 11.25 TB needed"
    assert _short({"key": "capacity", "have": 16.81, "need": 0.003}) == "16.810 TB usable, 0.003 TB needed"
