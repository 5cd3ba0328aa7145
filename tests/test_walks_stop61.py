"""Stop 61 (2026-12-02): a browser walk through every page of the 12-node NVMe + persistent-memory example and
the two-node edge example. No traceback, no page error, no NaN; what read wrong is fixed here."""

from __future__ import annotations

from apptest import app, open_loader, said


def _loaded(example: str):
    at = open_loader(app())
    at.selectbox(key="example_pick").set_value(example).run()
    next(b for b in at.button if b.label == "Load example").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_cpu_cap_above_the_smt_ceiling_is_said_as_such_not_past_the_capacity():
    """The 12-node example (cap 80 %) read "the CPU cap (3,385,841 IOPS) lies past the IOPS capacity, so it never
    binds" beside "IOPS capacity 3,385,841 IOPS": the same figure, since the cap is clipped to the fitted SMT
    ceiling (69 %) and then admits what the hardware does. The caption says that now."""
    at = _loaded("nvme-pmem-12node")
    at.switch_page("hciplan_ui/performance_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = said(at)
    assert "the CPU cap (80 %) is above the share of logical processors IO can keep busy" in text, text
    assert "lies past the IOPS capacity" not in text
    assert "the CPU cap stops admitting load" not in text
