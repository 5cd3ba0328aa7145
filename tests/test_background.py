"""The UI shows progress only when a planner call outlasts a second."""

import time

from hciplan_ui.background import run_with_progress


def test_fast_call_shows_no_progress():
    shown = []
    res, was = run_with_progress(lambda x, progress: x * 2, 21, show=lambda: shown.append(1) or (lambda f: None))
    assert res == 42 and not was and not shown


def test_slow_call_shows_progress_until_done():
    seen = []

    def slow(progress):
        for f in (0.25, 0.5, 1.0):
            progress(f)
            time.sleep(0.15)
        return "done"

    res, was = run_with_progress(slow, show=lambda: seen.append, delay_s=0.1, poll_s=0.02)
    assert res == "done" and was and seen[-1] is None and any(isinstance(f, float) and f > 0 for f in seen)


def test_errors_reach_the_page():
    def bad(progress):
        raise ValueError("named field: reason")

    try:
        run_with_progress(bad)
    except ValueError as exc:
        assert "named field" in str(exc)
    else:
        raise AssertionError("the error was swallowed")
