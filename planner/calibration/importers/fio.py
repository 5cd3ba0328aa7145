"""fio JSON results (``--output-format=json`` or ``json+``), fio 2.x and 3.x.

One measured point per reporting group (``groupid``): jobs of one group ran
together, so their IOPS add up. With ``group_reporting`` fio already merged
the group into one entry; without it, each job (``numjobs`` clones included)
has its own entry and they are summed here.

Fields read (fio HOWTO, "Interpreting the output" and the JSON writer in
``stat.c``):

* per direction (``read``, ``write``; ``trim`` is counted and left out: the
  model has no trim path; ``mixed`` with ``unified_rw_reporting``): ``iops``,
  ``total_ios``, ``io_bytes`` (bytes since fio 3.0, which added ``io_kbytes``;
  KiB before), ``bw_bytes`` (else ``bw`` in KiB/s), ``runtime`` (ms);
* latency: ``lat_ns`` (submission + completion, fio >= 3.0) or ``lat`` (us,
  fio 2.x) for the mean; percentiles from ``lat_ns`` when
  ``lat_percentiles`` was set, else ``clat_ns`` / ``clat`` (completion,
  fio's default); ``json+`` latency ``bins`` (ns -> count) merge jobs exactly;
* options: ``global options`` overlaid by each job's ``job options``
  (``rw``, ``bs``, ``rwmixread``/``rwmixwrite``, ``percentage_random``,
  ``iodepth``, ``numjobs``, ``ioengine``, ``size``, ``filename``,
  ``rate_iops``, ``rate``, ``thinktime``).

Outstanding IO: ``numjobs x iodepth``, with iodepth 1 for synchronous
engines (fio: "increasing iodepth beyond 1 will not affect synchronous
ioengines"). When an unthrottled group's Little's-law population
(IOPS x mean latency) differs from that by more than 30 % (buffered libaio,
an engine not named), the measured population is used and the point says so.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from planner.calibration.importers.common import (
    MAX_IMPORT_BYTES,
    DesignSource,
    ImportedPoint,
    ImportFileError,
    RunInfo,
    design_for,
    measured,
    population,
    shown,
    workload,
)
from planner.core import jsonio

SYNC_ENGINES = {
    "sync",
    "psync",
    "vsync",
    "pvsync",
    "pvsync2",
    "mmap",
    "splice",
    "filecreate",
    "filestat",
    "ftruncate",
    "null",
}
LITTLE_TOLERANCE = 0.30
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)
_POW = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}


def sniff(text: str) -> bool:
    head = text[:4096]
    return '"fio version"' in head or ('"jobs"' in head and '"jobname"' in text[:20000])


def size_bytes(v) -> float | None:
    """fio size string -> bytes (k = 1024, fio's default kb_base); None if not a plain size."""
    if v is None:
        return None
    m = _SIZE.match(str(v).split(",")[0].split(":")[0])
    if not m:
        return None
    return float(m.group(1)) * 1024 ** _POW[m.group(2).lower()]


def _int(opts: dict, key: str, default: int) -> int:
    try:
        return int(str(opts.get(key, default)).split(",")[0])
    except ValueError:
        return default


def _json(text: str, name: str) -> dict:
    """The fio document, parsed by the one safe JSON reader (:mod:`planner.core.jsonio`:
    size and nesting limits, no NaN/Infinity) after any text fio printed before it."""
    start = text.find("{")
    if start < 0:
        raise ImportFileError("no JSON object in the file (fio run without --output-format=json?)", name)
    doc = jsonio.loads(text[start:], name, ImportFileError, MAX_IMPORT_BYTES)
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), list) or not doc["jobs"]:
        raise ImportFileError("not fio JSON output (no 'jobs' list)", name)
    return doc


def job_names(names: list[str], limit: int = 3, sep: str = ", ") -> str:
    """A group's job names for a message or a label: the first ``limit`` and how many more
    (a group of 16,000 jobs must not become a 100 kB label or push an error's reason out)."""
    more = len(names) - limit
    return sep.join(names[:limit]) + (f"{sep}{more:,} more" if more > 0 else "")


class _Dir:
    """One direction's totals, summed over a group's jobs."""

    def __init__(self):
        self.ios = self.bytes = self.bw = self.iops = 0.0
        self.lat_weighted = 0.0  # sum of ios x mean latency, ns
        self.runtime_ms = 0.0
        self.p99_ns: list[float] = []
        self.bins: dict[int, int] = {}
        self.bins_complete = True

    def add(self, sec: object, name: str, where: str) -> None:
        if not isinstance(sec, dict):
            return
        try:
            iops = float(sec.get("iops", 0.0))
            runtime = float(sec.get("runtime", 0.0))
            ios = float(sec["total_ios"]) if "total_ios" in sec else iops * runtime / 1e3
            b = float(sec.get("io_bytes", 0.0)) * (1 if "io_kbytes" in sec else 1024)
            bw = float(sec["bw_bytes"]) if "bw_bytes" in sec else float(sec.get("bw", 0.0)) * 1024
        except (TypeError, ValueError, KeyError) as exc:
            raise ImportFileError(f"{where}: unreadable IO counters ({exc})", name) from None
        self.runtime_ms = max(self.runtime_ms, runtime)
        if ios <= 0:
            return
        lat, scale = (sec.get("lat_ns"), 1.0) if "lat_ns" in sec else (sec.get("lat"), 1e3)
        if not isinstance(lat, dict) or not _pos(lat.get("mean")):
            raise ImportFileError(f"{where}: IO was done but the mean latency (lat_ns/lat) is missing", name)
        self.ios += ios
        self.bytes += b
        self.bw += bw
        self.iops += iops
        self.lat_weighted += ios * float(lat["mean"]) * scale
        pct_src, pscale = _percentile_source(sec)
        try:
            pct = (pct_src or {}).get("percentile") or {}
            p99 = next((v for k, v in pct.items() if abs(float(k) - 99.0) < 1e-9), None)
            if p99 is not None:
                self.p99_ns.append(float(p99) * pscale)
            bins = (pct_src or {}).get("bins")
            if isinstance(bins, dict) and bins and pscale == 1.0:
                for k, c in bins.items():
                    self.bins[int(k)] = self.bins.get(int(k), 0) + int(c)
            else:
                self.bins_complete = False
        except (TypeError, ValueError, AttributeError) as exc:
            raise ImportFileError(f"{where}: unreadable latency percentiles or bins ({exc})", name) from None

    @property
    def mean_ms(self) -> float:
        return self.lat_weighted / self.ios / 1e6 if self.ios > 0 else math.nan

    def p99_ms(self, entries: int) -> float:
        """p99: fio's own when one entry holds the group; merged bins (json+) otherwise."""
        if self.ios <= 0:
            return math.nan
        if entries == 1 and len(self.p99_ns) == 1:
            return self.p99_ns[0] / 1e6
        if self.bins_complete and self.bins:
            total = sum(self.bins.values())
            acc = 0
            for k in sorted(self.bins):
                acc += self.bins[k]
                if acc >= 0.99 * total:
                    return k / 1e6
        return math.nan


def _pos(x) -> bool:
    try:
        return float(x) > 0
    except (TypeError, ValueError):
        return False


def _percentile_source(sec: dict) -> tuple[dict | None, float]:
    for key, scale in (("lat_ns", 1.0), ("clat_ns", 1.0), ("clat", 1e3)):
        src = sec.get(key)
        if isinstance(src, dict) and src.get("percentile"):
            return src, scale
    return None, 1.0


def _random_share(opts: dict) -> float:
    rw = str(opts.get("rw", opts.get("readwrite", "read"))).split(":")[0]
    if not rw.startswith("rand"):
        return 0.0
    if "percentage_random" in opts:
        return min(max(_int(opts, "percentage_random", 100) / 100.0, 0.0), 1.0)
    return 1.0


def _rate_limit_iops(opts: dict, bs_bytes: float) -> float | None:
    """Per-job IOPS cap from rate_iops (r[,w]) or rate (bytes/s, r[,w]); None if none."""
    if "rate_iops" in opts:
        given = [size_bytes(v) for v in str(opts["rate_iops"]).split(",") if v.strip()]
        vals = [v for v in given if v]
        return sum(vals) if vals else None
    if "rate" in opts:
        given = [size_bytes(v) for v in str(opts["rate"]).split(",") if v.strip()]
        vals = [v for v in given if v]
        return sum(vals) / bs_bytes if vals and bs_bytes > 0 else None
    return None


def _working_set_gb(entries: list[dict], gopts: dict) -> float | None:
    """Data the group touches: each distinct filename's size, or numjobs own
    files of ``size`` when no filename is given (fio's default layout)."""
    files: dict[str, float] = {}
    for e in entries:
        o = {**gopts, **(e.get("job options") or {})}
        sz = size_bytes(o.get("size"))
        if sz is None:
            return None
        fname = o.get("filename")
        if fname:
            for f in str(fname).split(":"):
                files[f] = max(files.get(f, 0.0), sz)
        else:
            files[f"{e.get('jobname')}#{len(files)}"] = sz * max(_int(o, "numjobs", 1), 1)
    return sum(files.values()) / 1e9 if files else None


def parse(text: str, name: str, design: DesignSource, run: RunInfo) -> list[ImportedPoint]:
    doc = _json(text, name)
    groups: dict[int, list[dict]] = {}
    for k, job in enumerate(doc["jobs"]):
        if not isinstance(job, dict) or "jobname" not in job:
            raise ImportFileError(f"jobs[{k}] is not a fio job record (no 'jobname')", name)
        groups.setdefault(int(job.get("groupid", 0)), []).append(job)
    stem = name.rsplit(".", 1)[0] if "." in name else name
    rd = design_for(design, stem)
    out = []
    for gid, entries in groups.items():
        names = sorted({str(e["jobname"]) for e in entries})
        try:
            out.append(_group_point(gid, entries, names, doc, name, stem, rd, run))
        except ImportFileError as exc:
            # the reason first, then which jobs: a list of 100 job names cannot push it out of the line
            raise ImportFileError(f"{exc.message} (jobs {job_names(names)})", name) from None
    return out


def _group_point(gid: int, entries: list[dict], names: list[str], doc: dict, name: str, stem: str, rd, run: RunInfo):
    """One reporting group's measured point."""
    version = str(doc.get("fio version", "fio (version not stated)"))
    gopts = doc.get("global options") or {}
    issuer = run.issuer_or("host")
    instances = run.per_node_or_default * rd.nodes
    where = f"group {gid}"
    for e in entries:
        code = int(e.get("error", 0) or 0)
        if code != 0:
            raise ImportFileError(f"{where}: job {shown(str(e['jobname']))} ended with error {code}", name)
    dirs = {d: _Dir() for d in ("read", "write", "trim", "mixed")}
    per_name = Counter(e["jobname"] for e in entries)  # entries per job name, counted once (linear)
    threads = depth_total = 0
    rand_w = limit = 0.0
    limited = paced = False
    engines = set()
    for e in entries:
        o = {**gopts, **(e.get("job options") or {})}
        for d, acc in dirs.items():
            acc.add(e.get(d), name, where)
        # without group_reporting every clone has its own entry
        same = per_name[e["jobname"]]
        clones = max(_int(o, "numjobs", 1), 1) if _merged(e, o, same) else 1
        members = _members(e)
        if members is not None and members > 1.3 * clones:
            raise ImportFileError(
                f"{where}: group_reporting merged about {members:.0f} jobs but the options shown are one "
                f"job section's (numjobs {clones}); the group's jobs differ, so its workload is unknown. "
                "Report each job section in its own group (new_group) or without group_reporting",
                name,
            )
        engine = str(o.get("ioengine", ""))
        engines.add(engine or "(not stated)")
        depth = 1 if engine in SYNC_ENGINES else max(_int(o, "iodepth", 1), 1)
        threads += clones
        depth_total += clones * depth
        ios_e = sum(float((e.get(d) or {}).get("total_ios", 0) or 0) for d in ("read", "write", "mixed"))
        rand_w += ios_e * _random_share(o)
        bs_e = size_bytes(o.get("bs", o.get("blocksize", "4k"))) or 4096.0
        r = _rate_limit_iops(o, bs_e)
        if r is not None:
            limited = True
            limit += r * clones
        if "thinktime" in o or "rate_process" in o:
            paced = True
    rw_ios = dirs["read"].ios + dirs["write"].ios + dirs["mixed"].ios
    runtime = max(d.runtime_ms for d in dirs.values())
    if runtime <= 0:
        raise ImportFileError(f"{where}: zero-duration run (runtime 0 ms)", name)
    if rw_ios <= 0:
        what = "only trim IO (not modelled)" if dirs["trim"].ios > 0 else "no completed IO"
        raise ImportFileError(f"{where}: {what}", name)
    notes = [f"{version}", f"ioengine {', '.join(sorted(engines))}"]
    if dirs["trim"].ios > 0:
        notes.append(f"{int(dirs['trim'].ios)} trims left out (no trim path in the model)")
    rbytes = dirs["read"].bytes + dirs["write"].bytes + dirs["mixed"].bytes
    bs_kib = rbytes / rw_ios / 1024.0
    if dirs["mixed"].ios > 0 and dirs["read"].ios + dirs["write"].ios == 0:
        o = {**gopts, **(entries[0].get("job options") or {})}
        rf = _mix_from_options(o)
        notes.append("unified_rw_reporting: read share from the options")
        rlat = dirs["mixed"].mean_ms if rf == 1 else math.nan
        wlat = dirs["mixed"].mean_ms if rf == 0 else math.nan
        p99 = dirs["mixed"].p99_ms(len(entries)) if rf == 1 else math.nan
    else:
        rf = dirs["read"].ios / (dirs["read"].ios + dirs["write"].ios)
        rlat, wlat = dirs["read"].mean_ms, dirs["write"].mean_ms
        p99 = dirs["read"].p99_ms(len(entries))
        if dirs["read"].ios > 0 and not math.isfinite(p99):
            notes.append("p99 left out: several job entries and no json+ bins to merge")
    iops_inst = dirs["read"].iops + dirs["write"].iops + dirs["mixed"].iops
    bw_inst = dirs["read"].bw + dirs["write"].bw + dirs["mixed"].bw
    throttled = limited or paced
    # Little's law at the issuer: IOs in flight = IOPS x mean latency
    lat_s = (dirs["read"].lat_weighted + dirs["write"].lat_weighted + dirs["mixed"].lat_weighted) / rw_ios / 1e9
    n_obs = iops_inst * lat_s
    n_pop: float = depth_total
    if not throttled and n_obs > 0 and abs(n_obs / depth_total - 1.0) > LITTLE_TOLERANCE:
        n_pop = max(n_obs, 1.0)
        notes.append(
            f"outstanding IO {n_obs:.1f} from Little's law (IOPS x mean latency), not {depth_total} from the options"
        )
    if paced and not limited:
        limit = iops_inst
        notes.append("paced (thinktime/rate_process): IOPS cap = the measured IOPS")
    t, per = population(threads, n_pop)
    ws = run.working_set_gb or _working_set_gb(entries, gopts) or 40.0
    w = workload(
        name,
        where,
        job_names(names, sep="+"),
        block_size_kib=round(bs_kib, 4),
        read_fraction=min(max(rf, 0.0), 1.0),
        random_fraction=round(rand_w / rw_ios, 4) if rw_ios else 1.0,
        issuer=issuer,
        vms_per_node=run.per_node_or_default,
        vcpus_per_vm=run.vcpus_per_vm,
        threads_per_vm=t,
        outstanding_per_thread=per,
        working_set_gb_per_vm=ws,
        iops_limit_per_vm=limit if throttled and limit > 0 else None,
        vm_alignment=run.vm_alignment,
    )
    m = measured(
        name,
        where,
        iops=iops_inst * instances,
        bandwidth_mb_s=bw_inst * instances / 1e6,
        vm_read_latency_ms=rlat if rf > 0 else None,
        vm_write_latency_ms=wlat if rf < 1 else None,
        p99_read_latency_ms=p99 if rf > 0 else None,
    )
    m["unthrottled"] = float(not throttled)
    return ImportedPoint(
        group=stem,
        dataset=run.dataset,
        label=f"{job_names(names, sep='+')} g{gid}: {bs_kib:g}K r{rf:.0%} qd{t * per}",
        design=rd,
        workload=w,
        measured=m,
        note="; ".join(notes),
        source_file=name,
        job=f"{where} ({job_names(names)})",
        source_format="fio",
    )


def _members(entry: dict) -> float | None:
    """Jobs merged into an entry: fio sums ``job_runtime`` over them (ms)."""
    run = max(float((entry.get(d) or {}).get("runtime", 0) or 0) for d in ("read", "write", "trim", "mixed"))
    jr = float(entry.get("job_runtime", 0) or 0)
    return jr / run if run > 0 and jr > 0 else None


def _merged(entry: dict, opts: dict, same_name: int) -> bool:
    """True when this entry stands for all ``numjobs`` clones (group_reporting).

    fio sums ``job_runtime`` over merged jobs, so a merged entry's job runtime
    is about numjobs x the run time, a per-clone entry's about 1x; without
    ``job_runtime`` (fio 2.x) per-clone entries repeat the job name.
    """
    nj = max(_int(opts, "numjobs", 1), 1)
    if nj == 1:
        return True
    members = _members(entry)
    return members > 1.5 if members is not None else same_name < nj


def _mix_from_options(o: dict) -> float:
    rw = str(o.get("rw", o.get("readwrite", "read"))).split(":")[0]
    if rw in ("read", "randread"):
        return 1.0
    if rw in ("write", "randwrite", "trimwrite"):
        return 0.0
    if "rwmixread" in o:
        return _int(o, "rwmixread", 50) / 100.0
    if "rwmixwrite" in o:
        return 1.0 - _int(o, "rwmixwrite", 50) / 100.0
    return 0.5
