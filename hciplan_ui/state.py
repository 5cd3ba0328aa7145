"""Session state, shareable links and cached model calls for the UI.

The current scenario lives in ``st.session_state``:

* ``design_json``   the last *valid* design (canonical JSON string)
* ``draft``         what the design widgets currently hold (may be invalid)
* ``workload_json`` the current workload (JSON string); ``workload_name`` its
  profile name or ``"custom"``
* ``calibration_json`` a customer refit kept for the session (the calibration
  document as JSON text; absent = the shipped fit); :func:`report` and
  :func:`latency_curve` use it, so every page that shows them does

Every model call goes through an ``st.cache_data`` function keyed on JSON
strings, so a rerun with an unchanged scenario costs a dictionary lookup.
No physics here: every number comes from :mod:`planner`.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from pathlib import Path

import numpy as np
import streamlit as st

from hciplan_ui import fmt
from planner.core import jsonio
from planner.core.errors import PlannerError, shown
from planner.models.catalog import load_catalog
from planner.models.design import Design, parse_design, resolve
from planner.models.workload import parse_workload, profiles

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DEFAULT_DESIGN = "reference"
DEFAULT_WORKLOAD = "oltp-8k"
SHARE_PARAM = "s"
MAX_SHARE_CHARS = 20_000
MAX_SHARE_JSON_BYTES = 1_000_000


# ----------------------------------------------------------------- helpers
def canonical(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def design_to_json(design: Design) -> str:
    return canonical(design.model_dump(mode="json", exclude_defaults=False))


def example_names() -> list[str]:
    """Example files that are designs (examples/ also holds databases, tiers, demands...)."""
    return design_examples()


@st.cache_data(show_spinner=False, max_entries=1)
def design_examples() -> list[str]:
    names = []
    for p in sorted(EXAMPLES.glob("*.json")):
        try:  # validated as a design, as loading it would: a db or tiers file is not offered
            validate_design(p.read_bytes())
        except PlannerError:
            continue
        names.append(p.stem)
    return names


@st.cache_data(show_spinner=False, max_entries=32)
def example_json(name: str) -> str:
    return design_to_json(parse_design((EXAMPLES / f"{name}.json").read_text(encoding="utf-8")))


def validate_design(data: dict | str | bytes) -> str:
    """Validated canonical JSON of a design dict; raises PlannerError naming the field."""
    from planner.physics.capacity import require_usable

    design = parse_design(data)
    rd = resolve(design, load_catalog())
    if design.cluster_engine:
        require_usable(rd)  # a design without usable capacity is refused too
    return design_to_json(design)


# ----------------------------------------------------------- session state
def set_design(design_json: str, reseed_widgets: bool = True) -> None:
    previous = st.session_state.get("design_json")
    if previous is not None and previous != design_json:  # what the what-if changed from (node_note)
        st.session_state["design_before"] = previous
    st.session_state["design_json"] = design_json
    st.session_state.pop("link_error", None)
    st.session_state["draft"] = json.loads(design_json)
    if reseed_widgets:
        for k in [k for k in st.session_state if str(k).startswith("d_")]:
            del st.session_state[k]


def set_workload(name: str, workload_json: str | None = None) -> None:
    if workload_json is None:
        workload_json = canonical(profiles()[name].model_dump(mode="json"))
    st.session_state["workload_name"] = name
    st.session_state["workload_json"] = workload_json


def init_state() -> None:
    """First run of a session: the reference design, or the scenario in the link."""
    if st.session_state.get("_initialised"):
        return
    st.session_state["_initialised"] = True
    set_design(example_json(DEFAULT_DESIGN))
    set_workload(DEFAULT_WORKLOAD)
    token = st.query_params.get(SHARE_PARAM)
    if token:
        try:
            design_json, wname, wjson = decode_scenario(token)
        except PlannerError as exc:
            st.session_state["link_error"] = (
                f"The shared link could not be opened ({exc}). Showing the reference design instead."
            )
        else:
            set_design(design_json)
            set_workload(wname, wjson)
            st.session_state["link_loaded"] = True
            try:
                tiers = decode_tiers(token)
            except PlannerError as exc:
                st.session_state["link_error"] = f"The shared link's tiers could not be used ({exc.message})."
            else:
                if tiers:
                    set_tiers(tiers)


def design_json() -> str:
    return st.session_state["design_json"]


def workload_json() -> str:
    return st.session_state["workload_json"]


def workload_name() -> str:
    return st.session_state["workload_name"]


# ------------------------------------------------------------ share links
def encode_scenario(
    design_json: str, workload_name: str, workload_json: str | None = None, tiers_json: str | None = None
) -> str:
    doc = {"d": json.loads(design_json), "w": workload_name}
    if workload_name not in profiles() and workload_json:
        doc["wj"] = json.loads(workload_json)
    if tiers_json and tiers_json != default_tiers_json():
        doc["t"] = json.loads(tiers_json)  # optional: links without it keep the shipped tiers
    raw = zlib.compress(canonical(doc).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_scenario(token: str) -> tuple[str, str, str]:
    """(design JSON, workload name, workload JSON) from a link token.

    Raises PlannerError with a plain message for anything malformed.
    """
    if not isinstance(token, str) or len(token) > MAX_SHARE_CHARS:
        raise PlannerError("link too long or empty", "link")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        text = zlib.decompressobj().decompress(raw, MAX_SHARE_JSON_BYTES + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise PlannerError("the link is not a valid hciplan scenario (corrupted or truncated)", "link") from None
    # the same safe reader as every file: size, depth, long integers, NaN/Infinity
    doc = jsonio.loads(text, "link", max_bytes=MAX_SHARE_JSON_BYTES)
    if not isinstance(doc, dict) or not isinstance(doc.get("d"), dict):
        raise PlannerError("the link holds no design", "link")
    design_json = validate_design(doc["d"])
    wname = doc.get("w") or DEFAULT_WORKLOAD
    if not isinstance(wname, str):  # a list or object here is no profile name (and not hashable)
        raise PlannerError("the link's workload name is not text", "link.w")
    if isinstance(doc.get("wj"), dict):
        wjson = canonical(parse_workload(doc["wj"]).model_dump(mode="json"))
        wname = "custom"
    elif wname in profiles():
        wjson = canonical(profiles()[wname].model_dump(mode="json"))
    else:
        raise PlannerError(f"unknown workload profile {shown(wname)}", "link")
    return design_json, wname, wjson


def decode_tiers(token: str) -> str | None:
    """The tier set a link carries (canonical JSON), None when it carries none."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.tiers import TierSet

    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        doc = jsonio.loads(
            zlib.decompressobj().decompress(raw, MAX_SHARE_JSON_BYTES + 1), "link", max_bytes=MAX_SHARE_JSON_BYTES
        )  # the safe reader, as decode_scenario
    except (binascii.Error, zlib.error, ValueError):  # PlannerError included
        return None  # decode_scenario already reports a broken link
    if not isinstance(doc, dict) or doc.get("t") is None:
        return None
    try:
        return canonical(TierSet.model_validate(doc["t"]).model_dump(mode="json"))
    except ValidationError as exc:
        raise PlannerError(f"the link's tiers are not valid ({format_validation_error(exc, 't')})", "link") from None


def default_tiers_json() -> str:
    from planner.models.tiers import default_tiers

    return canonical(default_tiers().model_dump(mode="json"))


def tiers_json() -> str:
    """The scenario's tier set (canonical JSON): edited on the SLA page, shipped by default."""
    return st.session_state.get("tiers_json") or default_tiers_json()


def set_tiers(tiers: str | None, reseed_editor: bool = True) -> None:
    st.session_state["tiers_json"] = tiers or default_tiers_json()
    if reseed_editor:
        st.session_state["tier_editor_base"] = st.session_state["tiers_json"]
        # a new editor, even when the tiers are the ones it started from: its own
        # (possibly invalid) edits go with the old one
        st.session_state["tier_editor_gen"] = st.session_state.get("tier_editor_gen", 0) + 1


def current_token() -> str:
    return encode_scenario(design_json(), workload_name(), workload_json(), st.session_state.get("tiers_json"))


def sync_query_params() -> None:
    """Keep the address bar a shareable link to the current scenario."""
    token = current_token()
    if st.query_params.get(SHARE_PARAM) != token:
        st.query_params[SHARE_PARAM] = token


# ------------------------------------------------------------ calibration
CALIBRATION_KEY = "calibration_json"


def session_calibration() -> str | None:
    """The session's refit calibration (JSON text), or None for the shipped fit."""
    try:
        return st.session_state.get(CALIBRATION_KEY)
    except Exception:
        return None


def set_session_calibration(calibration_json: str | None) -> None:
    if calibration_json is None:
        st.session_state.pop(CALIBRATION_KEY, None)
    else:
        st.session_state[CALIBRATION_KEY] = calibration_json


def _calibration(calibration_json: str):
    from planner.calibration.refit import read_calibration

    return read_calibration(calibration_json.encode("utf-8"), "session calibration")


# ------------------------------------------------------ cached model calls
def report(design_json: str, workload_json: str | None = None, calibration_json: str | None = None) -> dict:
    """planner.results.report.evaluate_report for JSON inputs (capacity, performance,
    degraded), with the session's refit calibration when one is kept."""
    return _report(design_json, workload_json, calibration_json or session_calibration())


@st.cache_data(show_spinner=False, max_entries=256)
def _report(design_json: str, workload_json: str | None, calibration_json: str | None) -> dict:
    from planner.results.report import evaluate_report

    w = parse_workload(workload_json) if workload_json else None
    if calibration_json:
        from planner.calibration.refit import evaluate_with_calibration

        return evaluate_with_calibration(_calibration(calibration_json), parse_design(design_json), w)
    return evaluate_report(parse_design(design_json), w)


@st.cache_data(show_spinner=False, max_entries=256)
def capacity(design_json: str) -> dict:
    from planner.physics.capacity import capacity_report

    return capacity_report(resolve(parse_design(design_json), load_catalog())).model_dump(mode="json")


def latency_curve(
    design_json: str, workload_json: str, points: int = 40, calibration_json: str | None = None, degraded: bool = False
) -> dict:
    """planner.results.report.latency_curve for JSON inputs (session calibration as :func:`report`),
    one node down with ``degraded``, with its band."""
    return _latency_curve(design_json, workload_json, points, calibration_json or session_calibration(), degraded)


@st.cache_data(show_spinner=False, max_entries=64)
def _latency_curve(
    design_json: str, workload_json: str, points: int, calibration_json: str | None, degraded: bool = False
) -> dict:
    from planner.results.report import latency_curve as curve

    params = _calibration(calibration_json).params if calibration_json else None
    return curve(
        resolve(parse_design(design_json), load_catalog()),
        parse_workload(workload_json),
        points,
        params,
        degraded=degraded,
        band=True,
    )


def node_note(before_json: str, after_json: str, workload_json: str) -> str | None:
    """Why IOPS fell when the node count grew and nothing else changed
    (:func:`planner.results.report.compare_note`), or None."""
    from planner.results.report import compare_note

    b, a = json.loads(before_json), json.loads(after_json)
    same_otherwise = {k: v for k, v in b.items() if k not in ("nodes", "name")} == {
        k: v for k, v in a.items() if k not in ("nodes", "name")
    }
    if not same_otherwise or a.get("nodes", 0) <= b.get("nodes", 0):
        return None
    try:
        return compare_note(report(before_json, workload_json), report(after_json, workload_json))
    except PlannerError:
        return None


def smt_ceiling() -> float:
    """The fitted share of logical processors IO can keep busy (the calibration in use)."""
    from planner.models.params import default_params

    params, _ = calibration_params(session_calibration())
    return (params or default_params()).host_cpu_max_utilization


def calibration_params(calibration_json: str | None):
    """(params, bootstrap sets) of a session refit, or (None, None) for the shipped fit."""
    if not calibration_json:
        return None, None
    cal = _calibration(calibration_json)
    return cal.params, cal.bootstrap_params()


def tornado(design_json: str, workload_json: str, costs_json: str | None = None) -> list[dict]:
    """planner.sizing.scenarios.sensitivity for JSON inputs (session calibration as :func:`report`;
    ``costs_json``: the cost assumptions its cost is priced with)."""
    return _tornado(design_json, workload_json, session_calibration(), costs_json)


@st.cache_data(show_spinner=False, max_entries=64)
def _tornado(
    design_json: str, workload_json: str, calibration_json: str | None, costs_json: str | None = None
) -> list[dict]:
    from planner.commercial.pricing import CostAssumptions
    from planner.sizing.scenarios import sensitivity

    return sensitivity(
        parse_design(design_json),
        parse_workload(workload_json),
        load_catalog(),
        calibration_params(calibration_json)[0],
        CostAssumptions.model_validate_json(costs_json) if costs_json else None,
    )


@st.cache_data(show_spinner=False, max_entries=1)
def validation() -> dict:
    from planner.calibration.fit import dataset, validation_table

    v = validation_table()
    rows = [{k: (float(x) if isinstance(x, np.floating) else x) for k, x in r.items()} for r in v["rows"]]
    # rows follow the dataset's points: mark the saturation (unthrottled) points, the ones
    # whose IOPS test the throughput model (a throttled step's IOPS equal its throttle)
    unthrottled = dataset()[3]["unthrottled"]
    for r, u in zip(rows, unthrottled):
        r["saturation"] = bool(u)
    return {"summary": v["summary"], "rows": rows}


@st.cache_data(show_spinner=False, max_entries=1)
def published_checks() -> list[dict]:
    """planner.calibration.published's out-of-sample checks (results no fit has seen)."""
    from planner.calibration.published import all_checks

    return all_checks()


@st.cache_data(show_spinner=False, max_entries=1)
def calibration_summary() -> dict | None:
    from planner.models.params import CALIBRATION_FILE, load_calibration

    if not CALIBRATION_FILE.exists():
        return None
    return load_calibration().summary


# --------------------------------------------------------------- display
def fmt_band(value: float, low: float | None, high: float | None, fmt: str = "{:,.0f}") -> str:
    """'X (low-high)' when the calibration gives a band, else 'X'."""
    s = fmt.format(value)
    if low is not None and high is not None:
        s += f" ({fmt.format(low)}–{fmt.format(high)})"
    return s


def plain(text: str) -> str:
    """Text shown through Markdown, with Markdown's special characters escaped
    (planner messages can carry user strings such as part names): :func:`ui.fmt.md`,
    which also breaks bare URLs and icon shortcodes."""
    return fmt.md(text)


def show_link_messages() -> None:
    if err := st.session_state.get("link_error"):
        st.error(fmt.md(err))  # it quotes the link's content


def presenter() -> bool:
    return bool(st.session_state.get("presenter", False))
