"""Fuzz: generated inputs for every CLI command and every upload keep the
contract (tests/fuzzcases.py): exit 0 with strict JSON in which every null is
explained, or exit 2 with exactly one 'error: <field>: <reason>' line; an
upload is accepted or refused with one PlannerError; never a traceback, never
a hang. Hypothesis drives the random choices (derandomized, bounded); most
runs call planner.cli.main in-process, a handful run the real command.
benchmarks/fuzz.py runs the same cases as a 10,000-input campaign."""

from __future__ import annotations

import json
import subprocess
import sys

import fuzzcases as fc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def fuzz(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module", autouse=True)
def calibration_untouched():
    before = fc.calibration_digest()
    yield
    assert fc.calibration_digest() == before, "a fuzz case wrote planner/data/calibration.json"


EXAMPLES = {
    "evaluate": 150,
    "catalog": 60,
    "schema": 20,
    "validate": 10,
    "sla": 100,
    "price": 100,
    "size": 60,
    "import": 60,
    "calibrate": 10,
    "bom": 60,
    "compare": 60,
}


@pytest.mark.parametrize("command", list(EXAMPLES))
def test_every_command_keeps_the_contract(command, scratch):
    @fuzz(EXAMPLES[command])
    @given(rnd=st.randoms(use_true_random=False))
    def check(rnd):
        result, shown = fc.run_case(rnd, command, scratch)
        assert result in ("ok", "error"), f"{result}: {shown}"

    check()


@pytest.mark.parametrize("kind", fc.HOSTILE)
def test_every_hostile_file_kind_keeps_the_contract(kind, scratch):
    """Issue 23's generators: deep JSON into every reader, oversize CSV fields, symlink loops,
    out-of-bound calibration sets, formula cells, many-job fio, measured values, DiskSpd edits."""

    @fuzz(25)
    @given(rnd=st.randoms(use_true_random=False))
    def check(rnd):
        result, shown = fc.run_case(rnd, f"hostile:{kind}", scratch)
        assert result in ("ok", "error"), f"{result}: {shown}"

    check()


@pytest.mark.parametrize("kind", fc.UPLOADS)
def test_every_upload_is_accepted_or_one_error(kind):
    @fuzz(150)
    @given(rnd=st.randoms(use_true_random=False))
    def check(rnd):
        result, shown = fc.run_case(rnd, f"upload:{kind}", fc.ROOT)
        assert result in ("ok", "error"), f"{result}: {shown}"

    check()


def test_a_real_calibrate_dry_run_is_strict_json():
    # the one valid calibrate case: seconds, so once; --dry-run never writes the calibration
    argv = ["calibrate", "--dry-run", "--no-cv", "--bootstrap", "0"]
    code, out, err, exc = fc.run_cli(argv)
    assert fc.outcome(argv, code, out, err, exc) == "ok", (err, exc)
    assert "params" in json.loads(out)


@pytest.mark.parametrize("seed", range(6))
def test_the_real_command_in_a_subprocess(seed, scratch):
    """The same contract through `python -m planner` (interpreter start-up, real
    streams, a wall-clock limit for hangs)."""
    import random

    rnd = random.Random(seed)
    command = ["evaluate", "sla", "price", "catalog", "size", "compare"][seed]
    case = scratch / f"sub{seed}"
    case.mkdir()
    argv = fc.argv_for(rnd, command, fc.Files(case))
    r = subprocess.run(
        [sys.executable, "-m", "planner", *argv], cwd=fc.ROOT, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in r.stderr
    assert fc.outcome(argv, r.returncode, r.stdout, r.stderr, None) in ("ok", "error"), (argv, r.stderr[-500:])
