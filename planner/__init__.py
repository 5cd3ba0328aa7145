"""hciplan: capacity and performance planner for hyperconverged database clusters.

A pure library: it never imports streamlit. Layers, one direction only:
``hardware_catalog/`` data -> domain models (:mod:`planner.catalog`,
:mod:`planner.design`, :mod:`planner.workload`) -> pure model functions
(:mod:`planner.capacity`, :mod:`planner.queueing`, ...) -> composition
(:mod:`planner.performance`) -> calibration, SLA, pricing and sizing.
"""
__version__ = "0.1.0"
