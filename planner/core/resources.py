"""Where the package's own data lives, found through :mod:`importlib.resources`.

Everything the library reads at run time ships inside the installed distribution:
``planner/data`` (the fitted calibration, workload profiles, tiers, licensing, the measured
benchmarks and published results, the example files) and the ``hardware_catalog``
package (device records). A ``pip install`` therefore finds them from any directory.
The paths are file-system paths: the package is installed unpacked, as pip does.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _path(package: str, *parts: str) -> Path:
    return Path(str(files(package).joinpath(*parts)))


def data_path(*parts: str) -> Path:
    """A path under ``planner/data`` (e.g. ``data_path("calibration.json")``)."""
    return _path("planner", "data", *parts)


def catalog_dir() -> Path:
    """The shipped hardware catalog: one JSON file per device class."""
    return _path("hardware_catalog")


#: the shipped data folder and its parts the library reads
DATA_DIR = data_path()
CALIBRATION_FILE = data_path("calibration.json")
CEPH_CALIBRATION_FILE = data_path("calibration-ceph.json")
BENCH_DIR = data_path("benchmarks")
EXAMPLES_DIR = data_path("examples")
CATALOG_DIR = catalog_dir()
