"""Number inputs that say what is wrong.

``st.number_input`` with ``min_value``/``max_value`` clamps or refuses a typed
value silently (typing 1000 nodes kept the old value; 0 only turned the field
red). These inputs have no widget bounds: the value typed is checked against
the model's own bounds (read from the pydantic field, so the UI and the model
cannot disagree) and a message names the field, the allowed range and the
value typed.
"""

from __future__ import annotations

import math

import streamlit as st

from hciplan_ui import fmt
from planner.core.errors import field_bounds

#: (low, high, low_exclusive) of a pydantic field's numeric constraints
model_bounds = field_bounds


def _g(x: float) -> str:
    # past a quadrillion, in powers of ten: "you typed -100,000,000,000,000,001,097,906,362,944,..." ran to over 300
    # digits for -1e308 (hostile-input walk 2026-11-30)
    if abs(float(x)) >= 1e15:
        return f"{x:.3g}"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.10g}"


def range_text(lo, hi, lo_open: bool = False, unit: str = "") -> str:
    u = f" {unit}" if unit else ""
    if lo is not None and hi is not None:
        return f"more than {_g(lo)} and at most {_g(hi)}{u}" if lo_open else f"{_g(lo)}–{_g(hi)}{u}"
    if lo is not None:
        return f"more than {_g(lo)}{u}" if lo_open else f"at least {_g(lo)}{u}"
    return f"at most {_g(hi)}{u}" if hi is not None else "a number"


def check(label: str, value, lo, hi, lo_open: bool = False, unit: str = "", integer: bool = False) -> str | None:
    """The message for a value outside [lo, hi] (None when it is fine)."""
    ok = value is not None and math.isfinite(float(value))
    if ok and integer and not float(value).is_integer():
        ok = False
    if ok and lo is not None:
        ok = value > lo if lo_open else value >= lo
    if ok and hi is not None:
        ok = value <= hi
    if ok:
        return None
    typed = "the box is empty" if value is None else f"you typed {_g(value)}"
    kind = "a whole number, " if integer else ""
    return f"{label} must be {kind}{range_text(lo, hi, lo_open, unit)} ({typed})"


KEPT = "_kept_inputs"


def keep(*keys: str) -> None:
    """Register value widgets (number, select, radio, checkbox, toggle) whose
    values must survive a visit to another page. Never buttons, uploaders or
    data editors: Streamlit refuses a value written to those."""
    st.session_state.setdefault(KEPT, set()).update(keys)


def keep_inputs() -> None:
    """At the top of every run: write each registered input's value back, so a
    page the user left keeps what they typed. Streamlit deletes a widget's value
    at the end of a run that does not draw it; a value written in the run is the
    app's, not the widget's, and stays (Streamlit's documented multipage pattern)."""
    for k in st.session_state.get(KEPT, ()):
        if k in st.session_state:
            st.session_state[k] = st.session_state[k]


#: from this size a number box's value is repeated under it with separators
ECHO_FROM = 10_000


def number(
    container,
    label: str,
    key: str,
    bounds: tuple[float | None, float | None, bool],
    *,
    unit: str = "",
    integer: bool = False,
    step=None,
    format: str | None = None,
    help: str | None = None,
    default=None,
    disabled: bool = False,
    blank: str | None = None,
):
    """A number input without widget bounds; returns (value, error message or None).

    ``bounds`` is (low, high, low_exclusive), e.g. from :func:`model_bounds`;
    ``default`` seeds the widget's state the first time. Its value survives a
    visit to another page (:func:`keep`). ``disabled``: shown greyed, for a figure that does not apply
    now (its value is kept for when it does). ``container`` None: the box is not drawn (a closed
    section holds nothing); its value, kept or seeded, is read and checked as the box's would be.
    ``blank``: the box may be left empty (it starts empty), for a figure that follows from others unless
    typed; the text shown in it then (the value is None, no error).
    """
    keep(key)
    if blank is not None and key not in st.session_state:
        st.session_state[key] = None
    if default is not None and key not in st.session_state:
        st.session_state[key] = default
    if container is None:
        value = st.session_state.get(key)
    else:
        if integer:
            # a whole-number box is a float box that shows what was typed: Streamlit's integer box is bounded by
            # JavaScript's safe integers and parses with parseInt, so 99999999999999999999999 turned it red with
            # the reason on hover only (the page kept the old 4 nodes) and "1e308" or "1e-300" became 1 without a
            # word (hostile-input walk). Typed as a float, the value reaches check(), which says it under the box
            step = float(step if step is not None else 1)
            format = format or "%g"
        value = container.number_input(
            label,
            min_value=None,
            max_value=None,
            step=step,
            format=format,
            key=key,
            help=help,
            disabled=disabled,
            # value=None once the box has a value in the session: an emptied box then reads None, said as "the
            # box is empty"; with Streamlit's default ("min", 0 without a min_value) it read 0 and the page said
            # "(you typed 0)" of a box holding nothing (verification walk, stop 53)
            **(
                {"value": None, "placeholder": blank}
                if blank is not None
                else {"value": None}
                if key in st.session_state
                else {}
            ),
        )
        if value is None and blank is None:
            # 0, what the box gave before, so a page's arithmetic on it is unchanged; the message stops the page
            return 0, check(label, None, *bounds, unit=unit, integer=integer)
        # not past a double's exact integers: 1e23 was echoed "99,999,999,999,999,991,611,392" (verification walk)
        if isinstance(value, (int, float)) and math.isfinite(value) and ECHO_FROM <= abs(value) < 2**53:
            # a browser's number box has no thousands separators: 1000000 is read back as 1,000,000
            container.caption(fmt.num(value, 0, unit))
    if value is None and blank is not None:
        return None, None
    return _whole(value, integer), check(label, value, *bounds, unit=unit, integer=integer)


def _whole(value, integer: bool):
    """A whole-number box's value as an int where it is one (the box is a float box: 4.0 is 4)."""
    if integer and isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def show(container, message: str | None) -> None:
    """The message under its field (markdown-escaped: it quotes what the user typed); none under a
    field that is not drawn (``container`` None: the page says it elsewhere)."""
    if message and container is not None:
        container.error(fmt.md(message), icon=":material/error:")


#: the CPU cap sliders' step, and their lowest value: the model refuses a cap of 0 (no IO at all)
CAP_STEP = 0.05


def cap_slider(container, label: str, key: str, help: str | None = None) -> float:
    """A CPU utilisation cap slider from one step above 0 to 1 (a slider from 0 let 0.00 through, and
    the model refused it with its own field name); a loaded design's lower cap stays reachable."""
    low = min(CAP_STEP, float(st.session_state.get(key, 1.0)))
    return container.slider(label, low, 1.0, step=CAP_STEP, key=key, help=help)


def file_box(
    container,
    label: str,
    key: str,
    max_mb: int,
    kinds: str | None = None,
    types: list[str] | None = None,
    help: str | None = None,
    multiple: bool = False,
):
    """A file box that says its size limit before a file is chosen: in its label ("Load design (JSON, max
    1 MB)", from the same ``max_mb`` the box enforces) and its help. A larger file is refused in the browser,
    never sent: Streamlit tells the page nothing (the box holds no file), and marked it with a red icon whose
    reason showed only on hover ("File must be 1.0MB or smaller."; accessibility walk 2026-11-30); BASE_CSS
    shows that reason as a line under the file. ``kinds``: the formats in words ("CSV or XLSX")."""
    each = " each" if multiple else ""
    said = f"{label} ({kinds + ', ' if kinds else ''}max {max_mb} MB{each})"
    refused = f"A file over {max_mb} MB is refused before it is read, and the box says so under it."
    return container.file_uploader(
        said,
        type=types,
        key=key,
        max_upload_size=max_mb,
        accept_multiple_files=multiple,
        help=f"{help} {refused}" if help else refused,
    )
