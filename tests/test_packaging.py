"""The distribution as a user installs it: a wheel built from this tree, installed into a new
virtual environment, run from another directory.

The wheel is installed without its dependencies (they are the test environment's own, reached
through a .pth file), so the test needs no download beyond the build backend; what it checks
is the wheel's own content: the package data the library reads, the console command, the
version, and that numba stays an optional extra.
"""

from __future__ import annotations

import json
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dist")
    wheel_dir = tmp / "wheels"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "--disable-pip-version-check",
            "-w",
            str(wheel_dir),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        pytest.skip(f"the build backend could not be fetched or run: {build.stderr.strip()[-300:]}")
    wheel = next(wheel_dir.glob("hciplan-*.whl"))
    env = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    py = env / "bin" / "python"
    purelib = Path(
        subprocess.check_output(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    # the dependencies: the test environment's site-packages, after the new environment's own
    (purelib / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "--no-deps",
            "-q",
            "--disable-pip-version-check",
            str(wheel),
        ],
        check=True,
    )
    return {"wheel": wheel, "bin": env / "bin", "cwd": tmp}


def run(installed, *args):
    return subprocess.run(
        [str(installed["bin"] / "hciplan"), *args], cwd=installed["cwd"], capture_output=True, text=True, timeout=120
    )


def test_version_from_another_directory(installed):
    import planner

    r = run(installed, "--version")
    assert r.returncode == 0 and r.stdout.strip() == f"hciplan {planner.__version__}"


def test_evaluate_finds_its_catalog_calibration_and_profiles(installed):
    r = run(installed, "evaluate", str(ROOT / "examples" / "reference.json"), "--workload", "oltp-8k")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    import planner

    assert report["hciplan_version"] == planner.__version__
    assert report["usable_capacity_tb"] > 8.9 and report["iops"] > 0 and report["iops_low"] < report["iops"]
    # the library came from the wheel, not from this checkout
    where = subprocess.check_output(
        [str(installed["bin"] / "python"), "-c", "import planner; print(planner.__file__)"],
        cwd=installed["cwd"],
        text=True,
    )
    assert str(ROOT) not in where


def test_the_wheel_carries_the_data_and_not_numba(installed):
    with zipfile.ZipFile(installed["wheel"]) as z:
        names = set(z.namelist())
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    for needed in (
        "planner/data/calibration.json",
        "planner/data/workloads.json",
        "planner/data/examples/reference.json",
        "planner/data/benchmarks/s2d-3node-nvme-pmem-rocev2.json",
        "hardware_catalog/cpus.json",
        "hciplan_ui/streamlit_app.py",
        "planner/py.typed",  # PEP 561: its annotations reach the type checker of a project that imports it
    ):
        assert needed in names, needed
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert not any("numba" in r and "extra ==" not in r for r in requires)
    assert any("numba" in r and 'extra == "fast"' in r for r in requires)
