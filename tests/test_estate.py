"""The customer's estate as input: a database list (CSV, XLSX) into a demand whose
totals are the list's sums; sys.dm_io_virtual_file_stats sampled twice and a perfmon
LogicalDisk CSV into per-database (per-volume) IO; one-line errors naming row and column."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.models.demand import Demand
from planner.sizing.estate import EstateError, detect, read_database_list, read_file_stats, read_perfmon, stats_demand

FIX = Path(__file__).resolve().parent / "fixtures" / "estate"


def test_database_list_becomes_a_demand_with_the_same_totals():
    out = read_database_list((FIX / "databases.csv").read_bytes(), "databases.csv", growth_pct=10)
    d = Demand.model_validate(out["demand"])
    iops, tb, _lat = d.totals(multiplier=1.0)
    assert iops == pytest.approx(out["totals"]["peak_iops"])
    # the data, and a TPM row's log and tempdb beside it (stop 55: Finance's 1,000 GB hold 1.5 TB, as in db-io)
    assert tb == pytest.approx(out["totals"]["capacity_tb"])
    assert d.database_count(1.0) == 4 and d.ram_gb(1.0) == pytest.approx(176)
    assert d.vcpus(1.0) == 24 and d.growth_pct == 10
    # a shipped tier's name brings its latency target; no tier: the default target
    tiers = d.tierset().by_name()
    assert tiers["Standard"].latency_target_ms == 5.0 and tiers["Estate"].latency_target_ms == 1.0
    fin = next(x for x in out["databases"] if x["name"] == "Finance")
    assert fin["iops_basis"].startswith("peak IOPS from 120,000 TPM") and fin["peak_iops"] > 0
    assert any("TPM" in n for n in out["notes"])


def test_database_list_from_xlsx_with_other_header_spellings():
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Database", "Size TB", "IOPS", "vCPU", "Memory GB", "Service tier", "Latency ms"])
    ws.append(["A", 0.5, 5000, 4, 32, "Gold", 0.5])
    ws.append(["B", 1.5, 1000, 8, 64, "Gold", 2])
    buf = io.BytesIO()
    wb.save(buf)
    out = read_database_list(buf.getvalue(), "estate.xlsx")
    gold = Demand.model_validate(out["demand"]).tierset().by_name()["Gold"]
    assert gold.latency_target_ms == 0.5 and gold.capacity_tb_per_db == pytest.approx(1.0)
    assert gold.guaranteed_iops == pytest.approx(3000) and gold.burst_iops == 5000


@pytest.mark.parametrize(
    "csv,where",
    [
        ("name,size_gb,peak_iops,vcpus,ram_gb\nA,100,abc,4,16\n", "row 2, column peak_iops: not a number"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\nA,100,10,4,16\nB,-1,10,4,16\n", "row 3, column size_gb"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\nA,100,10,999,16\n", "row 2, column vcpus: must be 1..512"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\nA,100,10,4,16\na,100,10,4,16\n", "row 3, column name"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\nA,100,,4,16\n", "row 2, column peak_iops: empty"),
        ("name,size_gb,vcpus,ram_gb\nA,100,4,16\n", "missing column peak_iops"),
        ("name,peak_iops,vcpus,ram_gb\nA,100,4,16\n", "missing column size_gb"),
        ("name,size_gb,peak_iops,vcpus\nA,100,10,4\n", "missing column ram_gb"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\n", "no database rows"),
        ("name,size_gb,peak_iops,vcpus,ram_gb\n=cmd|x,100,10,4,16\n" + "B,1,1,1,1\n" * 30000, "more than 20,000 rows"),
        # a JSON file (a demand) is said to be one, not a table missing its columns (CLI review 2026-11-29)
        ('\ufeff {"name": "x", "tier_counts": {"Standard": 1}}', "a JSON file, not a table"),
    ],
)
def test_bad_lists_are_one_line_naming_row_and_column(csv, where):
    with pytest.raises(EstateError) as exc:
        read_database_list(csv.encode(), "db.csv")
    msg = str(exc.value)
    assert msg.startswith("db.csv: ") and where in msg and "\n" not in msg, msg


def test_file_stats_between_two_samples():
    out = read_file_stats((FIX / "file_stats.csv").read_bytes(), "file_stats.csv")
    sales = next(d for d in out["databases"] if d["database"] == "Sales")
    # file 1: 300,000 reads + 90,000 writes, file 2: 60,000 writes, over 60 s
    assert sales["read_iops"] == pytest.approx(5000) and sales["write_iops"] == pytest.approx(2500)
    assert sales["read_latency_ms"] == pytest.approx(150_000 / 300_000)
    assert sales["write_latency_ms"] == pytest.approx((27_000 + 6_000) / 150_000)
    assert sales["size_gb"] == pytest.approx(850)
    dem = Demand.model_validate(stats_demand(out)["demand"])
    assert dem.totals(1.0)[0] == pytest.approx(7560)


def test_file_stats_errors():
    base = (FIX / "file_stats.csv").read_text().splitlines()
    one = "\n".join(base[:4]).encode()
    with pytest.raises(EstateError, match="1 sample"):
        read_file_stats(one, "fs.csv")
    restart = "\n".join([*base[:4], base[4].replace("800000,6553600000", "10,6553600000"), *base[5:]]).encode()
    with pytest.raises(EstateError, match="row 5, column num_of_reads: lower than the earlier sample"):
        read_file_stats(restart, "fs.csv")


def test_perfmon_volumes():
    out = read_perfmon((FIX / "perfmon.csv").read_bytes(), "perfmon.csv")
    (d,) = out["volumes"]  # _Total is left out
    assert d["volume"] == "D:" and d["samples"] == 3  # the blank sample is skipped
    assert d["iops"] == pytest.approx(3000) and d["block_size_kib"] == pytest.approx(8.0)
    # time per read over the reads (2 ms x 1,000, 4 ms x 3,000, 3 ms x 2,000), as the file statistics' stall per read
    assert d["read_latency_ms"] == pytest.approx(20_000 / 6000)
    assert d["write_latency_ms"] == pytest.approx((0.5 + 1 + 3) * 1000 / 3000)
    bad = (FIX / "perfmon.csv").read_text().replace('"3000","1000","24576000"', '"3000","x1","24576000"', 1)
    with pytest.raises(EstateError, match=r"row 3, column .*Disk Writes/sec.*not a number"):
        read_perfmon(bad.encode(), "perfmon.csv")


def test_detect_and_cli(tmp_path, capsys):
    assert detect((FIX / "perfmon.csv").read_bytes()) == "perfmon"
    assert detect((FIX / "file_stats.csv").read_bytes()) == "file-stats"
    assert detect((FIX / "databases.csv").read_bytes()) == "list"
    assert main(["estate", str(FIX / "databases.csv"), "--validated-for", "Azure Local"]) == 0
    demand = json.loads(capsys.readouterr().out)
    assert Demand.model_validate(demand).validated_for == "Azure Local"  # a demand file as it is
    f = tmp_path / "d.json"
    f.write_text(json.dumps(demand))
    assert main(["size", str(f), "--top", "1"]) == 0
    capsys.readouterr()
    assert main(["estate", str(FIX / "file_stats.csv"), "--vcpus", "8", "--details"]) == 0
    assert json.loads(capsys.readouterr().out)["databases"][0]["vcpus"] == 8
    assert main(["estate", str(FIX / "perfmon.csv"), "--details"]) == 0  # no data size: the volumes only
    assert "volumes" in json.loads(capsys.readouterr().out)
    assert main(["estate", str(FIX / "databases.csv"), "--vcpus", "8"]) == 2
    assert capsys.readouterr().err.startswith("error: vcpus: ")
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"name,size_gb,peak_iops,vcpus,ram_gb\nA,1e999,1,1,1\n")
    assert main(["estate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == "error: bad.csv: row 2, column size_gb: not a number ('1e999')\n", err


def test_a_semicolon_list_reads_decimal_commas_as_excel_wrote_them():
    """QA 2026-11-28: a ';'-separated list (what Excel writes where ',' is the decimal sign) read
    "0,5" GB as 5 GB: its ',' was taken for a thousands separator. The same list written with ','
    and '.' gives the same databases."""
    comma = (FIX / "databases.csv").read_text()
    rows = [r.split(",") for r in comma.strip().splitlines()]
    assert all(len(r) == len(rows[0]) for r in rows)  # no quoted cells in the fixture: a plain split is its parse

    def euro(cell: str) -> str:
        try:
            x = float(cell)
        except ValueError:
            return cell
        return f"{x:,.1f}".replace(",", "_").replace(".", ",").replace("_", ".")  # 1234.5 -> 1.234,5

    semi = "\n".join(";".join(euro(c) for c in r) for r in rows) + "\n"
    assert "," in semi  # the decimal commas are there to read
    a = read_database_list(comma.encode(), "databases.csv")
    b = read_database_list(semi.encode(), "databases.csv")
    assert [(x["name"], x["size_gb"]) for x in b["databases"]] == [(x["name"], x["size_gb"]) for x in a["databases"]]
    assert b["totals"] == pytest.approx(a["totals"])


@pytest.mark.parametrize(
    "csv,err",
    [
        (
            "name,size_gb,size_tb,peak_iops,vcpus,ram_gb\na,500,2,1000,4,16\n",
            "row 2: size_gb 500 and size_tb 2 (2000 GB) disagree: give one",
        ),
        ("name,size_gb,peak_iops,vcpus,ram_gb\na,500,1000,2.5,16\n", "row 2, column vcpus: a whole number of vCPUs"),
    ],
)
def test_a_row_that_contradicts_itself_is_refused(csv, err):
    """CLI review 2026-11-29: a row with size_gb 500 and size_tb 2 used 0.5 TB quietly; 2.5 vCPUs became 2."""
    with pytest.raises(EstateError, match=err.replace("(", r"\(").replace(")", r"\)")):
        read_database_list(csv.encode(), "x.csv")
    # one size in both columns is one size
    same = read_database_list(b"name,size_gb,size_tb,peak_iops,vcpus,ram_gb\na,500,0.5,1000,4,16\n", "x.csv")
    assert same["demand"]["tiers"]["tiers"][0]["capacity_tb_per_db"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    "flags,err",
    [
        (["--latency-target-ms", "0"], "error: latency_target_ms: must be 0.02..10000 ms (got 0)\n"),
        (["--growth-pct", "-5"], "error: growth_pct: must be 0..1000 (got -5)\n"),
        (
            ["--validated-for", "Nope"],
            "error: validated_for: no node in the catalog is validated for 'Nope'; programs listed: Azure Local\n",
        ),
    ],
)
def test_the_estate_options_are_checked_by_their_own_names(tmp_path, capsys, flags, err):
    """CLI review 2026-11-29: `estate x.csv --latency-target-ms 0` blamed the file ("x.csv:
    demand.tiers.tiers.0.latency_target_ms"), and an unknown --validated-for failed only in `size`, as
    "no chassis and CPU in the catalog fit together"."""
    f = tmp_path / "x.csv"
    f.write_text("name,size_gb,peak_iops,vcpus,ram_gb\na,500,1000,4,16\n")
    assert main(["estate", str(f), *flags]) == 2
    assert capsys.readouterr().err == err


def test_the_missing_columns_are_all_named_and_a_tier_of_ones_own_says_its_target():
    """Browser review 2026-11-29: wrong columns gave "missing column name, vcpus, ram_gb", leaving out the size
    and the IOPS; a tier named "Platinum" took the default latency target without a word; a bound read
    "must be 0.001..1e+07 (got 1e+30)"."""
    with pytest.raises(EstateError, match=r"missing column name, size_gb or size_tb, peak_iops or tpm, vcpus, ram_gb"):
        read_database_list(b"foo,bar\n1,2\n", "x.csv")
    out = read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb,tier\na,100,1000,4,16,Platinum\n", "x.csv")
    assert any(
        n.startswith("tier 'Platinum' is not one of the shipped tiers") and "takes 1 ms" in n for n in out["notes"]
    )
    with pytest.raises(EstateError, match=r"must be 1\.\.10,000,000 \(got 1e\+30\)"):
        read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb\na,1e30,1000,4,16\n", "x.csv")


def test_every_bad_row_is_said_at_once():
    """Browser review 2026-11-29: an estate with several bad rows said one per upload."""
    from planner.sizing.estate import MAX_ROW_ERRORS, EstateError, read_database_list

    bad = "name,size_gb,peak_iops,vcpus,ram_gb\na,-1,100,4,16\nb,100,100,2.5,16\nc,100,,4,16\nd,100,100,4,16\n"
    with pytest.raises(EstateError) as exc:
        read_database_list(bad.encode(), "e.csv")
    msg = exc.value.message
    assert msg.startswith("row 2, column size_gb") and "row 3, column vcpus" in msg and "row 4, column peak_iops" in msg
    many = "name,size_gb,peak_iops,vcpus,ram_gb\n" + "".join(f"x{i},-1,100,4,16\n" for i in range(MAX_ROW_ERRORS + 3))
    with pytest.raises(EstateError, match=r"; and 3 more row errors$"):
        read_database_list(many.encode(), "e.csv")


def test_a_list_is_read_as_strictly_as_a_json_input():
    """CLI review 2026-11-30: an unknown column was ignored (a misspelt "peak_iosp" left every database at its
    TPM); a row with both peak IOPS and TPM dropped the TPM without a word; 0 IOPS became "no IOPS given; 1 IOPS
    per database assumed"."""
    with pytest.raises(EstateError, match=r"1 column this list does not take \(a typo\?\): 'peak_iosp'"):
        read_database_list(b"name,size_gb,peak_iosp,tpm,vcpus,ram_gb\nA,100,500,1000,4,16\n")
    with pytest.raises(EstateError, match="row 2, column peak_iops"):
        read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb\nA,100,0,4,16\n")
    out = read_database_list(b"name,size_gb,peak_iops,tpm,vcpus,ram_gb\nA,100,500,1000,4,16\nB,100,,1000,4,16\n")
    assert any("1 database gave both peak IOPS and TPM (A)" in n for n in out["notes"])
    assert out["databases"][0]["peak_iops"] == 500 and out["databases"][1]["iops_basis"].startswith("peak IOPS from")


@pytest.mark.parametrize(
    "cell, read",
    [
        ('"1,5"', None),
        ('"2.500,75"', None),
        ('"1,500"', 1500.0),
        ('"12,345.5"', 12345.5),
        ("2.5", 2.5),
        ('"1,000,000"', 1e6),
    ],
)
def test_a_decimal_comma_is_refused_and_thousands_separators_read(tmp_path, capsys, cell, read):
    """CLI review 2026-11-30: a size of "1,5" was read as 15 GB and "2.500,75" as 2.50075 GB, without a word."""
    import json

    from planner.cli import main

    f = tmp_path / "estate.csv"
    f.write_text(f"name,size_gb,peak_iops,vcpus,ram_gb\nA,{cell},100,2,8\n")
    rc = main(["estate", str(f), "--details"])
    out, err = capsys.readouterr()
    if read is None:
        assert rc == 2 and err.count("\n") == 1 and "comma that is not a thousands separator" in err
    else:
        assert rc == 0 and json.loads(out)["databases"][0]["size_gb"] == read


def test_an_estate_says_a_database_far_above_its_tiers_mean_and_a_rate_its_vcpus_cannot_run(tmp_path, capsys):
    """CLI review 2026-11-30: Finance (42,361 IOPS from 120,000 TPM) and Sales (6,000 IOPS) made one tier
    guaranteeing 24,181 each, with no word; a row of 100,000,000 TPM on 2 vCPUs was read as 54,373 IOPS with
    only the generic TPM note."""
    import json

    from planner.cli import main

    assert main(["estate", "examples/estate-databases.csv", "--details"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    (heavy,) = [n for n in notes if "guaranteed the tier's mean" in n]
    assert heavy.startswith("tier 'Premium'") and "Finance peaks at 43,761" in heavy and "Sales" not in heavy
    f = tmp_path / "estate.csv"
    f.write_text("name,size_gb,tpm,vcpus,ram_gb\nA,1,100000000,2,4\nB,100,1000,4,16\n")
    assert main(["estate", str(f), "--details"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    (busy,) = [n for n in notes if "than its vCPUs give" in n]
    assert busy.startswith("1 database given by TPM") and "A (100,000,000 TPM" in busy and "B (" not in busy


def test_a_file_named_xlsx_that_is_no_workbook_is_said_so(tmp_path, capsys):
    """Adversarial review 2026-11-30: "missing column name, size_gb ... (columns found: not_a_zip_at_all)"."""
    from planner.cli import main

    f = tmp_path / "estate.xlsx"
    f.write_bytes(b"not a zip at all\n")
    assert main(["estate", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an Excel workbook" in err


def test_a_tpm_row_takes_the_dbas_own_buffer_pool_and_hit_ratio():
    """DBA walk 2026-11-30: "2 columns this list does not take" for buffer_pool_gb and buffer_hit_ratio, so a 300 GB
    database on a 16 GB VM at 90,000 TPM was sized at the model's 31,559 peak IOPS (pool at 80 % of RAM, hit ratio
    from the skew) with no way to give the measured hit ratio. The row's figures go to the database layer as a
    Database's own would (:func:`planner.models.database.io_demand`)."""
    from planner.models.database import Database, io_demand

    head = b"name,size_gb,tpm,vcpus,ram_gb,buffer_pool_gb,buffer_hit_ratio\n"
    out = read_database_list(
        head + b"a,300,90000,4,16,,\nb,300,90000,4,16,14,\nc,300,90000,4,16,,99\nd,300,90000,4,16,,0.99\n"
    )
    iops = {d["name"]: d["peak_iops"] for d in out["databases"]}

    def model(**kw):
        return io_demand(Database(name="x", size_gb=300, tpm=90_000, **kw)).peak_iops

    assert iops["a"] == pytest.approx(model(buffer_pool_gb=12.8), rel=1e-12)
    assert iops["b"] == pytest.approx(model(buffer_pool_gb=14), rel=1e-12)
    assert iops["c"] == iops["d"] == pytest.approx(model(buffer_pool_gb=12.8, buffer_hit_ratio=0.99), rel=1e-12)
    assert iops["d"] < iops["b"] < iops["a"]
    assert any("3 gave their own buffer pool or hit ratio" in n for n in out["notes"])
    with pytest.raises(EstateError, match="row 2, column buffer_pool_gb: 20 GB, more than the VM's 16 GB RAM"):
        read_database_list(b"name,size_gb,tpm,vcpus,ram_gb,buffer_pool_gb\na,300,90000,4,16,20\n")
    # a row given by its measured IOPS keeps them, and is told the pool is not used
    out = read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb,buffer_hit_ratio\na,300,9000,4,16,0.9\n")
    assert out["databases"][0]["peak_iops"] == 9000
    assert any("a pool or hit ratio shapes only the IO of a row given by TPM" in n for n in out["notes"])


def test_both_share_columns_take_a_fraction_or_a_percentage_by_one_rule():
    """DBA walk 2026-11-30: read_fraction "70%" or "70" was refused ("must be 0..1 (got 70)") while
    buffer_hit_ratio "99.5" was taken as a percentage. One rule (estate.share): a value with "%" or above 1, up
    to 100, is a percentage."""
    out = read_database_list((FIX / "pct_readfrac.csv").read_bytes(), "pct_readfrac.csv")
    assert [d["read_fraction"] for d in out["databases"]] == pytest.approx([0.7, 0.7])
    head = b"name,size_gb,tpm,vcpus,ram_gb,buffer_hit_ratio,read_fraction\n"
    out = read_database_list(head + b"a,300,90000,4,16,99%,0.7\nb,300,90000,4,16,99,70 %\nc,300,90000,4,16,0.99,0.7\n")
    assert len({d["peak_iops"] for d in out["databases"]}) == 1
    assert [d["read_fraction"] for d in out["databases"]] == pytest.approx([0.7] * 3)
    # "0.5%" is half a percent, not half
    out = read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb,read_fraction\na,1,100,2,8,0.5%\n")
    assert out["databases"][0]["read_fraction"] == pytest.approx(0.005)
    for col in ("read_fraction", "buffer_hit_ratio"):
        bad = f"name,size_gb,tpm,vcpus,ram_gb,{col}\na,300,90000,4,16,170\n".encode()
        with pytest.raises(EstateError, match=rf"row 2, column {col}: a share is 0\.\.1 or a percentage up to 100"):
            read_database_list(bad)


def test_estate_errors_say_what_is_wrong_in_the_files_own_words(tmp_path):
    """DBA walk 2026-11-30: a perfmon column was quoted with Python's escapes ('\\\\\\\\SQL01\\\\LogicalDisk(C:)...');
    a negative DMV counter "must be 0..1e+18"; "file_stats: no size for 'CRM_PROD'" named no file; an XLSX
    formula with no saved value read "row 2, column size_gb: empty"; a workbook whose list is on its second
    sheet said only "missing column ..."."""
    import openpyxl

    perf = (FIX / "perfmon.csv").read_text()
    neg = perf.replace('"3000","1000","24576000","8192000","0.004"', '"3000","1000","24576000","8192000","-0.004"', 1)
    with pytest.raises(EstateError) as exc:
        read_perfmon(neg.encode(), "perfmon.csv")
    assert str(exc.value) == (
        "perfmon.csv: row 3, column '\\\\SQL01\\LogicalDisk(D:)\\Avg. Disk sec/Read': must not be negative (got -0.004)"
    )
    fs = (FIX / "file_stats.csv").read_text().splitlines()
    bad = "\n".join([*fs[:4], fs[4].replace(",800000,", ",-5,", 1), *fs[5:]]).encode()
    with pytest.raises(EstateError, match=r"^fs\.csv: row 5, column num_of_reads: must not be negative \(got -5\)$"):
        read_file_stats(bad, "fs.csv")
    nosize = "\n".join(line.rsplit(",", 1)[0] for line in fs).encode()
    with pytest.raises(EstateError, match=r"^nosize\.csv: no size for 'HR'"):
        stats_demand(read_file_stats(nosize, "nosize.csv"))
    # a formula with no saved value (openpyxl writes none, as a script would)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["name", "size_gb", "peak_iops", "vcpus", "ram_gb"])
    ws.append(["A", "=3000+200", 500, 4, 16])
    f = tmp_path / "formulas.xlsx"
    wb.save(f)
    with pytest.raises(EstateError) as exc:
        read_database_list(f.read_bytes(), "formulas.xlsx")
    assert str(exc.value) == (
        "formulas.xlsx: row 2, column size_gb: a formula without a saved value ('=3000+200'): open the file in "
        "Excel and save it"
    )
    # the list on the second sheet: said in the error; on the first, with others beside it: said in a note
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    wb.active.append(["Estate export for migration"])
    ws = wb.create_sheet("Databases")
    ws.append(["name", "size_gb", "peak_iops", "vcpus", "ram_gb"])
    ws.append(["A", 100, 500, 4, 16])
    buf = io.BytesIO()
    wb.save(buf)
    with pytest.raises(EstateError, match=r"only the first sheet, 'Notes', is read \(the workbook's other sheet: "):
        read_database_list(buf.getvalue(), "two.xlsx")
    wb.move_sheet("Databases", offset=-1)
    buf = io.BytesIO()
    wb.save(buf)
    out = read_database_list(buf.getvalue(), "two.xlsx")
    assert "only the first sheet, 'Databases', is read (the workbook's other sheet: 'Notes')" in out["notes"]


def test_a_volume_with_no_reads_has_no_read_latency_as_the_file_statistics_say_it(capsys):
    """DBA walk 2026-11-30: a log volume with no reads showed "Read latency 0.000 ms" (perfmon writes 0 for an
    interval without reads), where the file statistics give null with "no reads between the samples"."""
    head = ",".join(
        f'"\\\\SQL01\\LogicalDisk(L:)\\{c}"'
        for c in ("Disk Reads/sec", "Disk Writes/sec", "Avg. Disk sec/Read", "Avg. Disk sec/Write")
    )
    rows = ['"11/20/2026 10:00:00.000","0","500","0","0.001"', '"11/20/2026 10:00:15.000","0","700","0","0.002"']
    data = "\n".join([f'"(PDH-CSV 4.0)",{head}', *rows]).encode()
    (v,) = read_perfmon(data, "log.csv")["volumes"]
    assert v["read_latency_ms"] is None and v["read_latency_ms_note"] == "no reads in the samples"
    assert v["write_latency_ms"] == pytest.approx((0.5 + 1.4) / 1.2)
    fs = read_file_stats((FIX / "file_stats.csv").read_bytes())
    assert all((d["read_latency_ms"] is None) == bool(d["read_latency_ms_note"]) for d in fs["databases"])


@pytest.mark.parametrize(
    "name,flags",
    [
        ("databases.csv", ["--growth-pct", "30"]),
        ("databases.xlsx", ["--growth-pct", "30"]),
        ("file_stats.csv", ["--vcpus", "8", "--ram-gb", "64", "--growth-pct", "30"]),
        (
            "perfmon.csv",
            ["--capacity-tb", "5", "--databases", "4", "--vcpus", "8", "--ram-gb", "64", "--growth-pct", "30"],
        ),
    ],
)
def test_the_documented_pipeline_sizes_every_estate_format(tmp_path, capsys, name, flags):
    """DBA walk 2026-11-30: `hciplan estate perfmon.csv > demand.json && hciplan size demand.json` failed
    ("demand.hciplan_version: not a field this input takes ..."): a perfmon CSV printed its volumes, and
    --vcpus, --growth-pct and --platform were ignored. Every format prints a demand `size` takes, with the
    options in it."""
    import openpyxl

    f = FIX / name
    if name.endswith(".xlsx"):  # the list as a workbook
        wb = openpyxl.Workbook()
        for line in (FIX / "databases.csv").read_text().splitlines():
            wb.active.append([float(c) if c.replace(".", "").isdigit() else (c or None) for c in line.split(",")])
        f = tmp_path / name
        wb.save(f)
    assert main(["estate", str(f), *flags, "--platform", "windows-server"]) == 0
    demand = json.loads(capsys.readouterr().out)
    d = Demand.model_validate(demand)
    assert d.growth_pct == 30 and d.platform == "windows-server"
    if "--vcpus" in flags:
        assert d.vcpus(1.0) == 8 * d.database_count(1.0) and d.ram_gb(1.0) == 64 * d.database_count(1.0)
    out = tmp_path / "demand.json"
    out.write_text(json.dumps(demand))
    assert main(["size", str(out), "--top", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] is not None


@pytest.mark.parametrize(
    "name,flags,err",
    [
        ("perfmon.csv", [], "error: capacity_tb: a perfmon CSV gives no data size"),
        ("perfmon.csv", ["--capacity-tb", "5", "--vcpus", "8"], "error: vcpus: per database VM: give --databases too"),
        (
            "perfmon.csv",
            ["--capacity-tb", "5", "--peak-to-mean-ratio", "2"],
            "error: peak_to_mean_ratio: only applies to a file-stats export",
        ),
        ("databases.csv", ["--capacity-tb", "5"], "error: capacity_tb: only applies to a perfmon CSV"),
        ("file_stats.csv", ["--databases", "5"], "error: databases: only applies to a perfmon CSV"),
        ("file_stats.csv", ["--peak-to-mean-ratio", "0.5"], "error: peak_to_mean_ratio: must be 1..100"),
        (
            "perfmon.csv",
            ["--capacity-tb", "0"],
            "error: capacity_tb: must be 0.001..100000 TB (got 0)",
        ),
    ],
)
def test_an_estate_option_that_cannot_apply_is_refused_in_one_line(capsys, name, flags, err):
    assert main(["estate", str(FIX / name), *flags]) == 2
    got = capsys.readouterr().err
    assert got.startswith(err) and got.count("\n") == 1, got


def test_one_instance_becomes_its_user_databases_with_tempdbs_io_spread_over_them():
    """DBA walk 2026-11-30: the view is one instance's, and master, model, msdb and tempdb each became a database
    VM ("10 databases ... 80 vCPUs, 640 GB" of one server at 8 vCPUs and 64 GB). A DBaaS migration moves the user
    databases, each to its own VM with its own tempdb: the system databases are left out (their IO said), tempdb's
    IO and size are spread over the user databases in proportion to their own IO."""
    base = (FIX / "file_stats.csv").read_text().splitlines()
    head, rows = base[0], base[1:]
    extra = [
        # master: 60 reads in 60 s; tempdb: 12,000 writes of 8 KiB and 6,000 reads in 60 s, 30 GB
        "master,1,1000000,100,819200,10,0,0,0,6000000",
        "master,1,1060000,160,1310720,12,0,0,0,6000000",
        "tempdb,1,1000000,0,0,0,0,0,0,30000000000",
        "tempdb,1,1060000,6000,49152000,60,12000,98304000,120,30000000000",
    ]
    stats = read_file_stats("\n".join([head, *rows, *extra]).encode(), "fs.csv")
    alone = stats_demand(read_file_stats((FIX / "file_stats.csv").read_bytes()), vcpus=8, ram_gb=64)
    out = stats_demand(stats, vcpus=8, ram_gb=64)
    assert [d["name"] for d in out["databases"]] == ["HR", "Sales"]
    assert out["totals"]["vcpus"] == 16 and out["totals"]["ram_gb"] == 128
    own = {d["name"]: d["iops"] for d in alone["databases"]}
    got = {d["name"]: d["iops"] for d in out["databases"]}
    for db in own:  # tempdb's 300 IOPS by each one's share of the 7,560
        assert got[db] == pytest.approx(own[db] * (1 + 300 / sum(own.values())))
    assert out["totals"]["size_gb"] == pytest.approx(alone["totals"]["size_gb"] + 30)
    assert any(n.startswith("the instance's 1 system database, 'master', is not migrated") for n in out["notes"])
    assert any(
        n.startswith("tempdb's 300 IOPS and 30.0 GB, the instance's, spread over the 2 user databases")
        for n in out["notes"]
    )
    kinds = {d["database"]: d["kind"] for d in out["file_stats"]}
    assert kinds == {"HR": "user", "Sales": "user", "master": "system", "tempdb": "tempdb"}
    # an export by database_id: ids 1 to 4 and 32767 are the system databases
    by_id = "\n".join(
        [head.replace("database_name", "database_id")]
        + [r.replace("Sales,", "5,").replace("HR,", "6,") for r in rows]
        + [e.replace("master,", "1,").replace("tempdb,", "2,") for e in extra]
    )
    out = stats_demand(read_file_stats(by_id.encode(), "ids.csv"))
    assert sorted(d["name"] for d in out["databases"]) == ["5", "6"]
    only = "\n".join([head, *extra]).encode()
    with pytest.raises(EstateError, match=r"^only\.csv: no user database: only the instance's system databases"):
        stats_demand(read_file_stats(only, "only.csv"))


def test_file_statistics_say_their_iops_are_a_mean_and_scale_by_the_users_ratio_only():
    """DBA walk 2026-11-30: "10 databases, 23,171 IOPS at their peaks" of the mean between two samples. The
    output says what the figure is; no peak factor is assumed: one sentence says so, and the user's ratio scales
    the mean."""
    stats = read_file_stats((FIX / "file_stats.csv").read_bytes())
    out = stats_demand(stats)
    assert "peak_iops" not in out["totals"] and out["iops_basis"] == "the mean between the two samples"
    (said,) = [n for n in out["notes"] if "peak factor" in n]
    assert said.startswith(
        "no peak factor is applied: the demand is the mean between the two samples, which under-sizes"
    )
    assert all(d["iops_basis"].startswith("mean IOPS between the two samples") for d in out["databases"])
    scaled = stats_demand(stats, peak_to_mean_ratio=1.5)
    assert scaled["totals"]["iops"] == pytest.approx(1.5 * out["totals"]["iops"])
    assert Demand.model_validate(scaled["demand"]).totals(1.0)[0] == pytest.approx(1.5 * 7560)
    assert not any("peak factor" in n for n in scaled["notes"])
    assert any(
        n == "IOPS: the mean between the two samples x 1.5, the peak-to-mean ratio given" for n in scaled["notes"]
    )


def test_a_perfmon_demand_without_a_database_count_says_it_sizes_no_database_vms(capsys):
    """Verification walk 2026-11-30: `estate perfmon.csv --capacity-tb 5` without --databases sized no database VMs
    (`size` then counted 0 vCPUs and 0 GB) and nothing said so."""
    from planner.cli import main

    assert main(["estate", str(FIX / "perfmon.csv"), "--capacity-tb", "5"]) == 0
    out, err = capsys.readouterr()
    assert "databases" not in json.loads(out) and "counts no database VMs" in err
    assert main(["estate", str(FIX / "perfmon.csv"), "--capacity-tb", "5", "--databases", "4"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["databases"] == 4 and "warning" not in err


def test_an_estate_grows_in_each_databases_size_and_rate_not_in_count():
    """Hostile-input walk: each estate tier holds one or two databases and was rounded up to whole databases,
    so 20 % growth planned a list of 4 databases at 51,661 IOPS as 7 databases at 79,142 IOPS (+53 %), 40 vCPUs
    (24 listed) and 288 GB RAM (176); a list of one database read "1 database, 2 with 20 % growth". An estate's
    databases are known ones: they grow in data and IOPS, their count, vCPUs and RAM as listed."""
    out = read_database_list(Path("examples/estate-databases.csv").read_bytes(), growth_pct=20.0)
    dem = Demand.model_validate(out["demand"])
    s = dem.summary()
    t = out["totals"]
    assert s["databases"] == s["databases_before_growth"] == t["databases"] == 4
    assert s["iops"] == pytest.approx(t["peak_iops"] * 1.2)
    assert s["capacity_tb"] == pytest.approx(t["capacity_tb"] * 1.2)
    assert (s["vcpus"], s["ram_gb"]) == (t["vcpus"], t["ram_gb"]) == (24, 176)
    assert s["growth_words"] == "with 20 % growth in each database's data and IOPS"
    one = read_database_list(b"name,size_gb,peak_iops,vcpus,ram_gb\nA,100,1000,4,16\n", growth_pct=20.0)
    one = Demand.model_validate(one["demand"])
    assert one.database_count() == 1 and one.totals()[0] == pytest.approx(1200)
    # the load the sizer and the pages evaluate: 4 VMs at the grown IOPS
    from planner.engine.loads import demand_workload

    w = demand_workload(dem)
    assert float(w.vms_total) == 4 and float(w.open_iops) == pytest.approx(t["peak_iops"] * 1.2)


def test_a_demand_in_tiers_still_grows_in_whole_databases():
    d = Demand.model_validate({"tier_counts": {"Standard": 2}, "growth_pct": 20})
    assert d.growth_in == "databases" and d.database_count() == 3 and d.database_count(1.0) == 2
    assert d.growth_words() == "with 20 % growth"


def test_a_date_cell_and_a_quotes_formula_are_said_in_words(tmp_path):
    """Hostile-input walk: an estate XLSX cell formatted as a date read "not a number (datetime.datetime(2020, 1, 1,
    0, 0))"; a quotes XLSX whose price is a formula with no saved value read "give price_usd or discount_pct", where
    the estate reader says the cell is a formula without a saved value."""
    import datetime as dt

    import openpyxl

    from planner.commercial.prices import QuoteError, read_quotes

    def book(rows) -> bytes:
        wb = openpyxl.Workbook()
        for r in rows:
            wb.active.append(r)
        buf = io.BytesIO()
        wb.save(buf)
        return buf.getvalue()

    data = book([["name", "size_gb", "peak_iops", "vcpus", "ram_gb"], ["A", dt.datetime(2020, 1, 1), 1000, 4, 16]])
    with pytest.raises(EstateError) as exc:
        read_database_list(data, "x.xlsx")
    assert (
        str(exc.value)
        == "x.xlsx: row 2, column size_gb: a date, not a number (2020-01-01): format the cell as a number"
    )
    data = book([["part", "price_usd"], ["intel-p4510-1tb", "=1/0"]])
    with pytest.raises(QuoteError) as exc:
        read_quotes(data, "q.xlsx")
    assert str(exc.value) == (
        "q.xlsx: row 2, column price_usd: a formula without a saved value ('=1/0'): open the file in Excel and save it"
    )


def test_every_default_the_import_fills_is_said_with_or_without_details(capsys):
    """Honesty audit 2026-12-01: a row with no block size or read share took 8 KiB and 70 % reads with no word;
    `--details` noted the 1 ms target alone, and without it nothing was said. Every default filled is said, with
    its count and its columns, in the details and on standard error beside the demand."""
    ex = Path(__file__).resolve().parent.parent / "examples" / "estate-databases.csv"
    out = read_database_list(ex.read_bytes(), ex.name)
    # Sales, HR and Web give peak IOPS and no IO shape (Finance's comes from its TPM)
    said = [d for d in out["defaults"] if "block_size_kib" in d]
    assert said == [
        "3 databases with no block_size_kib: 8 KiB assumed (SQL Server's page); 3 databases with no read_fraction: "
        "70 % reads assumed (an OLTP mix): hciplan assumptions (the oltp-8k profile's IO shape), not measurements; "
        "give the columns to replace them"
    ]
    assert any("it takes 1 ms" in d for d in out["defaults"])
    assert all(d in out["notes"] for d in out["defaults"])
    assert main(["estate", str(ex)]) == 0
    err = capsys.readouterr().err
    assert "note: 3 databases with no block_size_kib: 8 KiB assumed" in err
    assert "note: 1 database with no tier (grouped as 'Estate') and no latency_target_ms: it takes 1 ms" in err


def test_an_estate_counts_a_tpm_rows_log_and_tempdb_as_db_io_and_size_do():
    """Stop 55 DBA walk: a 500 GB database at 20,000 TPM held 0.75 TB in db-io and size (data, log and tempdb) and
    0.5 TB in an estate (its data alone). One rule now: a row given by TPM is a workload description, its capacity
    Database.capacity_tb; a row given by its peak IOPS keeps the size it gives (the space its files take)."""
    from planner.models.database import Database
    from planner.models.demand import Demand

    csv = "name,size_gb,tpm,peak_iops,vcpus,ram_gb,buffer_pool_gb,tier\npg,500,20000,,8,64,16,A\nio,500,,9000,8,64,,B\n"
    out = read_database_list(csv.encode(), "estate.csv")
    tiers = {t["name"]: t for t in out["demand"]["tiers"]["tiers"]}
    assert tiers["A"]["capacity_tb_per_db"] == pytest.approx(0.75)
    assert tiers["A"]["capacity_tb_per_db"] == pytest.approx(
        Database(name="pg", size_gb=500, tpm=20000, buffer_pool_gb=16).capacity_tb
    )
    one = Demand.model_validate(
        {"database": {"size_gb": 500, "tpm": 20000, "buffer_pool_gb": 16}, "databases": 1, "max_nodes": 4}
    )
    assert tiers["A"]["capacity_tb_per_db"] == pytest.approx(one.capacity_tb)
    assert tiers["B"]["capacity_tb_per_db"] == pytest.approx(0.5)  # given by its IO: as given
    assert out["totals"]["capacity_tb"] == pytest.approx(1.25)
    assert any("log and tempdb" in n and "as given" in n for n in out["notes"]), out["notes"]
