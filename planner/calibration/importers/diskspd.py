"""DiskSpd XML results (``-Rxml``), DiskSpd 2.0.17 to 2.2.

Parsed with :mod:`defusedxml` (no DTD, no entity expansion, no external
references). Element names follow DiskSpd's XML writer
(``XmlResultParser::ParseResults`` and ``Profile/TimeSpan/Target::GetXml``
in github.com/microsoft/diskspd), unchanged from 2.0.21a to 2.2:

* ``Results/Profile/TimeSpans/TimeSpan``: the run as specified -- ``Duration``,
  ``ThreadCount`` (``-F``: fixed threads over all targets; 0 = ``-t`` threads
  per target), ``RequestCount`` (``-O``: outstanding per thread over all
  targets; 0 = per target), ``MeasureLatency`` (``-L``) and per ``Target``:
  ``Path``, ``BlockSize`` (bytes), ``Random`` (present = random,
  ``RandomRatio`` % when mixed, 2.1+) or ``StrideSize`` (sequential),
  ``RequestCount`` (``-o``), ``WriteRatio`` (%), ``ThreadsPerFile`` (``-t``),
  ``Throughput`` (``-g``: bytes per ms per thread per target, or
  ``unit="IOPS"``);
* ``Results/TimeSpan``: what happened -- ``TestTimeSeconds``,
  ``CpuUtilization/Average/UsagePercent``, ``Latency`` (with ``-L``:
  ``AverageReadMilliseconds``, ``AverageWriteMilliseconds`` and ``Bucket``
  percentiles), and per ``Thread/Target``: ``ReadBytes``, ``ReadCount``,
  ``WriteBytes``, ``WriteCount``, ``FileSize``.

One measured point per result time span: counts summed over threads and
targets, IOPS = IOs / ``TestTimeSeconds``. DiskSpd measures latency only with
``-L``; without it the point carries IOPS and bandwidth only.
"""

from __future__ import annotations

import math
import re
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from planner.calibration.importers.common import (
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

_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def _parse_xml(text: str, name: str) -> Element:
    try:
        root = fromstring(_DECL.sub("", text, count=1), forbid_dtd=True)
    except DefusedXmlException:
        # why in words, not defusedxml's class name ("... references): DTDForbidden"; hostile-input walk 2026-11-30)
        raise ImportFileError(
            "XML with a DTD or entity declarations is refused (entity expansion and external references are not "
            "read); export the DiskSpd result again with -Rxml",
            name,
        ) from None
    except ParseError as exc:
        line, col = exc.position
        raise ImportFileError(f"truncated or malformed XML (line {line}, column {col})", name) from None
    if root.tag != "Results":
        raise ImportFileError(f"not a DiskSpd result (root element <{root.tag}>, expected <Results>)", name)
    return root


def _num(el: Element | None, path: str, file: str, where: str, default: float | None = None) -> float:
    node = el.find(path) if el is not None else None
    if node is None or node.text is None or not node.text.strip():
        if default is not None:
            return default
        raise ImportFileError(f"{where}: missing <{path}>", file)
    try:
        v = float(node.text)
    except ValueError:
        v = math.nan
    if not math.isfinite(v):
        raise ImportFileError(f"{where}: <{path}> '{node.text.strip()}' is not a number", file)
    return v


def _percentile(lat: Element, p: float, key: str, file: str, where: str) -> float | None:
    """The bucket of percentile ``p``'s ``key`` [ms], None where DiskSpd gives none; a value that is not a number
    is refused as :func:`_num` refuses one (a p99 of "NaN" or "abc" imported as no p99 without a word, where 1e400
    was an error; hostile-input walk 2026-11-30)."""
    for b in lat.findall("Bucket"):
        try:
            at = float(b.findtext("Percentile", "nan"))
        except ValueError:
            continue
        if abs(at - p) < 1e-9:
            return _num(b, key, file, f"{where}, percentile {p:g}") if (b.findtext(key) or "").strip() else None
    return None


def parse(text: str, name: str, design: DesignSource, run: RunInfo) -> list[ImportedPoint]:
    root = _parse_xml(text, name)
    version = (root.findtext("System/Tool/Version") or "").strip() or "version not stated"
    specs = root.findall("Profile/TimeSpans/TimeSpan")
    results = root.findall("TimeSpan")
    if not results:
        raise ImportFileError("no result <TimeSpan> (DiskSpd ran no test?)", name)
    stem = name.rsplit(".", 1)[0] if "." in name else name
    rd = design_for(design, stem)
    issuer = run.issuer_or("host")
    instances = run.per_node_or_default * rd.nodes
    out = []
    for k, res in enumerate(results):
        where = f"timespan {k + 1}"
        if res.find("Error") is not None:
            raise ImportFileError(f"{where}: {(res.findtext('Error') or '').strip()}", name)
        if k >= len(specs):
            raise ImportFileError(f"{where}: no matching <Profile> time span", name)
        spec = specs[k]
        secs = _num(res, "TestTimeSeconds", name, where)
        if secs <= 0:
            raise ImportFileError(f"{where}: zero-duration run (TestTimeSeconds {secs:g})", name)
        targets = {}
        for t in spec.findall("Targets/Target"):
            targets[(t.findtext("Path") or "").strip()] = t
        if not targets:
            raise ImportFileError(f"{where}: the profile lists no <Target>", name)
        # per-target totals over threads
        tot: dict[str, dict[str, float]] = {}
        threads = res.findall("Thread")
        if not threads:
            raise ImportFileError(f"{where}: no per-thread results (<Thread>)", name)
        for th in threads:
            for t in th.findall("Target"):
                path = (t.findtext("Path") or "").strip()
                w = f"{where}, thread {th.findtext('Id', '?')}, target {shown(path)}"
                a = tot.setdefault(path, {"rc": 0.0, "wc": 0.0, "rb": 0.0, "wb": 0.0, "size": 0.0})
                a["rc"] += _num(t, "ReadCount", name, w)
                a["wc"] += _num(t, "WriteCount", name, w)
                a["rb"] += _num(t, "ReadBytes", name, w)
                a["wb"] += _num(t, "WriteBytes", name, w)
                a["size"] = max(a["size"], _num(t, "FileSize", name, w, 0.0))
        unknown = [p for p in tot if p not in targets]
        if unknown:
            raise ImportFileError(f"{where}: result target {shown(unknown[0])} is not in the profile", name)
        rc = sum(a["rc"] for a in tot.values())
        wc = sum(a["wc"] for a in tot.values())
        if rc + wc <= 0:
            raise ImportFileError(f"{where}: no IO completed", name)
        nbytes = sum(a["rb"] + a["wb"] for a in tot.values())

        fixed_threads = int(_num(spec, "ThreadCount", name, where, 0.0))
        per_thread_total = int(_num(spec, "RequestCount", name, where, 0.0))
        outstanding = limit = rand_w = 0.0
        n_threads = throttled = 0
        paced = False
        for path, t in targets.items():
            tw = f"{where}, target {shown(path)}"
            bsz = _num(t, "BlockSize", name, tw)
            if not bsz > 0:  # a throttle in bytes per ms is divided by it
                raise ImportFileError(f"{tw}: <BlockSize> must be > 0 bytes (got {bsz:g})", name)
            on_target = fixed_threads or int(_num(t, "ThreadsPerFile", name, tw, 1.0))
            n_threads += 0 if fixed_threads else on_target
            outstanding += on_target * _num(t, "RequestCount", name, tw, 2.0)
            thr = _num(t, "Throughput", name, tw, 0.0)
            unit = t.find("Throughput")  # present when thr > 0
            if thr > 0:  # -g: per thread per target, IOPS or bytes per ms
                limit += on_target * (thr if unit is not None and unit.get("unit") == "IOPS" else thr * 1e3 / bsz)
                throttled += 1
            if t.find("ThinkTime") is not None or t.find("BurstSize") is not None:
                paced = True  # -j/-i: bursts with think time between them
            ios_t = tot.get(path, {}).get("rc", 0.0) + tot.get(path, {}).get("wc", 0.0)
            if t.find("Random") is not None:
                rand_w += ios_t * _num(t, "RandomRatio", name, tw, 100.0) / 100.0
        n_threads = fixed_threads or n_threads
        if 0 < throttled < len(targets):
            raise ImportFileError(
                f"{where}: -g throttles {throttled} of {len(targets)} targets; the model has one "
                "IOPS cap per issuer, so throttle all targets or none",
                name,
            )
        if per_thread_total > 0:
            outstanding = n_threads * per_thread_total
        notes = [f"DiskSpd {version}"]
        if paced and limit <= 0:
            limit = (rc + wc) / secs
            notes.append("paced (-i/-j bursts): IOPS cap = the measured IOPS")
        lat = res.find("Latency")
        rf = rc / (rc + wc)
        rlat = wlat = p99 = None
        if lat is not None:
            rlat = _num(lat, "AverageReadMilliseconds", name, where, 0.0) if rc > 0 else None
            wlat = _num(lat, "AverageWriteMilliseconds", name, where, 0.0) if wc > 0 else None
            p99 = _percentile(lat, 99.0, "ReadMilliseconds", name, where) if rc > 0 else None
        else:
            notes.append("no latency: DiskSpd measures it only with -L")
        cpu = None
        usage = res.find("CpuUtilization/Average/UsagePercent")
        if usage is not None and usage.text:
            if issuer == "host":  # a number, or the point is refused in one line ("NaN" imported as no CPU)
                cpu = _num(res, "CpuUtilization/Average/UsagePercent", name, where) / 100.0
            else:
                notes.append("CPU left out: DiskSpd in a VM reports the guest's CPU, not the host's")
        t_, per = population(n_threads, outstanding)
        ws = run.working_set_gb or (sum(a["size"] for a in tot.values()) / 1e9) or 40.0
        wl = workload(
            name,
            where,
            f"{stem} timespan {k + 1}",
            block_size_kib=round(nbytes / (rc + wc) / 1024.0, 4),
            read_fraction=rf,
            random_fraction=round(rand_w / (rc + wc), 4),
            issuer=issuer,
            vms_per_node=run.per_node_or_default,
            vcpus_per_vm=run.vcpus_per_vm,
            threads_per_vm=t_,
            outstanding_per_thread=per,
            working_set_gb_per_vm=ws,
            iops_limit_per_vm=limit if limit > 0 else None,
            vm_alignment=run.vm_alignment,
        )
        m = measured(
            name,
            where,
            iops=(rc + wc) / secs * instances,
            bandwidth_mb_s=nbytes / secs * instances / 1e6,
            vm_read_latency_ms=rlat,
            vm_write_latency_ms=wlat,
            p99_read_latency_ms=p99,
            host_cpu_utilization=cpu,
        )
        m["unthrottled"] = float(limit <= 0)
        out.append(
            ImportedPoint(
                group=stem,
                dataset=run.dataset,
                label=f"timespan {k + 1}: {wl.block_size_kib:g}K r{rf:.0%} qd{t_ * per} ({len(targets)} target"
                f"{'s' if len(targets) > 1 else ''})",
                design=rd,
                workload=wl,
                measured=m,
                note="; ".join(notes),
                source_file=name,
                job=f"{where}: {', '.join(targets)}",
                source_format="diskspd",
            )
        )
    return out
