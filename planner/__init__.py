"""hciplan: capacity, performance and cost planner for hyperconverged clusters that host databases.

A pure library (it never imports streamlit). Its subpackages are layers; each imports only
the layers below it (an import-linter contract in ``pyproject.toml`` holds the order):

1. :mod:`planner.core`: errors, the one safe JSON reader, units, package resources.
2. :mod:`planner.models`: validated inputs (catalog, design, workload, database, demand, tiers, parameters).
3. :mod:`planner.physics`: small pure functions from datasheets and published rules.
4. :mod:`planner.engine`: the queueing engine and the chain that composes the physics.
5. :mod:`planner.results`: one design, one report, with bands and extrapolation flags.
6. :mod:`planner.commercial` (SLA, tiers, prices, licences, BOM) and
   :mod:`planner.calibration` (data, fit, refit, importers, published checks).
7. :mod:`planner.sizing`: rules on a design, the sizing search, what-ifs, proposals.
8. :mod:`planner.cli`: ``hciplan`` / ``python -m planner``.
"""

__version__ = "0.2.0"
