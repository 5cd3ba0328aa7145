"""Fuzz the app: random sequences of widget changes, uploads and share links,
through Streamlit's AppTest; no run may raise (a traceback on the page).
Hypothesis drives the choices (derandomized, bounded)."""

from __future__ import annotations

import random

import fuzzcases as fc
import pytest
from apptest import APP, PAGES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

PART_PICKERS = {
    "d_chassis": "chassis",
    "d_cpu": "cpu",
    "d_drive": "capacity_drive",
    "d_cache": "cache_device",
    "d_nic": "nic",
}
NUMBERS = [0, 1, 2, 3, 4, 16, 17, -3, 1000, 10**6, 10**12]
FLOATS = [0.0, -1.0, 1e-9, 0.05, 0.5, 0.99, 1.0, 2.5, 32.0, 1e6, 1e12]


DEFAULTS = {
    "d_ram": 768.0,
    "d_oversub": 4.0,
    "d_volume_servers": 0,
    "d_nodes": 3,
    "d_drives": 10,
    "d_sockets": 2,
    "sla_size": 4.0,
    "sla_target": 1.0,
    "cost_months": 36,
    "cost_kwh": 0.12,
    "cost_pue": 1.5,
    "cost_ru": 30.0,
    "cost_lic": 384.6875,
    "cost_sup": 0.1,
    "cost_margin": 0.3,
    "cost_fill": 0.7,
    "size_iops": 500_000.0,
    "size_tb": 20.0,
    "size_lat": 1.0,
    "size_growth_year": 6.27,
    "size_budget": 0.0,
    "size_max_nodes": 16,
    "size_top": 5,
    "wi_nodes": 4,
    "wi_drives": 10,
    "imp_per_node": 1,
    "imp_vcpus": 4,
    "c_bs": 8.0,
}


#: sections the pages draw only while open (a keyed expander each)
SECTIONS = (
    "design_loader",
    "size_estate_open",
    "size_prices_open",
    "size_files",
    "sla_costs_open",
    "sla_by_size",
    "sla_capacity",
    "p_exports",
)


def _number(rnd: random.Random, current):
    return rnd.choice(NUMBERS) if isinstance(current, int) else rnd.choice(FLOATS)


def _step(rnd: random.Random, at: AppTest) -> str:
    """One random user action on the current page (the caller reruns the app)."""
    k = rnd.randrange(8)
    if k == 0:
        page = rnd.choice(PAGES)
        at.switch_page(page)
        return f"page {page}"
    if k == 1 and at.number_input:
        w = rnd.choice(list(at.number_input))
        v = _number(rnd, w.value)
        w.set_value(v)
        return f"number {w.key}={v}"
    if k == 2 and at.selectbox:
        w = rnd.choice(list(at.selectbox))
        if w.key in PART_PICKERS:  # AppTest cannot format these options outside the script: set the state
            from planner.models.catalog import load_catalog

            cls = PART_PICKERS[w.key]
            at.session_state[w.key] = rnd.choice(
                list(load_catalog().of(cls)) + (["(none)"] if cls in ("chassis", "cache_device") else [])
            )
        elif w.key == "d_resiliency":  # its options are said in words: set the state to an id they stand for
            from planner.models.stacks import CEPH_EXAMPLES, S2D_RESILIENCIES, VSAN_RESILIENCIES
            from planner.sizing.words import resiliency_words

            shown = {resiliency_words(r): r for r in (*S2D_RESILIENCIES, *CEPH_EXAMPLES, *VSAN_RESILIENCIES)}
            choices = [shown[o] for o in w.options if o in shown]
            if choices:
                at.session_state[w.key] = rnd.choice(choices)
        elif w.options:
            w.select_index(rnd.randrange(len(w.options)))  # by position: the options are the shown labels
        return f"select {w.key}"
    if k == 3 and at.toggle:
        w = rnd.choice(list(at.toggle))
        w.set_value(not w.value)
        return f"toggle {w.key}"
    if k == 4 and at.text_input:
        w = rnd.choice(list(at.text_input))
        w.set_value(rnd.choice(fc.WEIRD))
        return f"text {w.key}"
    if k == 5:
        uploaders = {u.key for u in at.file_uploader}
        if "uploader" in uploaders:
            at.file_uploader(key="uploader").set_value(("d.json", fc.upload_case(rnd, "design"), "application/json"))
            return "upload design"
        if "parts_uploader" in uploaders:
            at.file_uploader(key="parts_uploader").set_value(
                ("p.json", fc.upload_case(rnd, "catalog"), "application/json")
            )
            return "upload parts"
        if any(e.label == "Load or save a design file" for e in at.expander):  # the Design page, loader closed
            at.session_state["design_loader"] = True
            return "open the design loader"
    if k == 6 and at.slider:
        w = rnd.choice(list(at.slider))
        ends = [v for v in (w.min, w.max) if v is not None]
        if ends:
            w.set_value(rnd.choice(ends))
        return f"slider {w.key}"
    if k == 7:
        names = {b.key for b in at.button if not b.disabled}
        for key in ("imp_load", "size_use_best"):
            if key in names:
                at.button(key=key).click()
                return f"click {key}"
        if any(b.label == "Size it" and not b.disabled for b in at.button):
            next(b for b in at.button if b.label == "Size it").click()
            return "click Size it"
    return "nothing"


@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rnd=st.randoms(use_true_random=False))
def test_random_use_of_the_app_never_raises(rnd):
    at = AppTest.from_file(APP, default_timeout=120)
    if rnd.random() < 0.3:
        at.query_params["s"] = fc.upload_case(rnd, "link")
    # sections drawn only while open (their inputs and file boxes too): some open from the start, each on the
    # first visit of its page
    opened = [key for key in SECTIONS if rnd.random() < 0.5]
    for key in opened:
        at.session_state[key] = True
    at.run()
    done = ["open", *opened]
    assert not at.exception, (done, [e.value for e in at.exception])
    for _ in range(rnd.randint(2, 6)):
        done.append(_step(rnd, at))
        at.run()
        assert not at.exception, (done, [e.value for e in at.exception])


@pytest.mark.parametrize("page", PAGES)
def test_every_number_input_takes_any_number(page):
    """Each number input of each page, set to values far outside its range: a message, no exception."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["sla_costs_open"] = True  # the SLA page's cost inputs: drawn while their section is open
    at.switch_page(page).run()
    keys = [w.key for w in at.number_input]
    for key in keys:
        for v in (-3, 0, 10**9):
            shown = {w.key: w for w in at.number_input}
            if key not in shown:  # an earlier bad value hides the inputs that depend on it (tier mix)
                break
            w = shown[key]
            w.set_value(v if isinstance(w.value, int) else float(v))
            at.run()
            assert not at.exception, (page, key, v, [e.value for e in at.exception])
            if v == -3 and not key.startswith("size_"):  # no input takes -3; the sizing form says so on submit
                assert at.error, (page, key, v)
        shown = {w.key: w for w in at.number_input}
        if key in shown:  # back to a valid value, so the next input is judged alone
            shown[key].set_value(DEFAULTS.get(key, 1))
            at.run()
