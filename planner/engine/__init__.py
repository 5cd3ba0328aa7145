"""The queueing engine: closed and open networks (:mod:`~planner.engine.queueing`; small
closed ones exactly by their Markov chain, :mod:`~planner.engine.markov`), the
chain that composes the physics into per-station demands and solves them for many designs
at once (:mod:`~planner.engine.performance`, pvlib's ModelChain in spirit), one node down
(:mod:`~planner.engine.degraded`), a sizing demand as a load (:mod:`~planner.engine.loads`),
the compiled kernel (optional, numba) and the other architectures' networks
(:mod:`~planner.engine.architectures`).

Imports :mod:`planner.physics` and below.
"""

__all__ = [
    "architectures",
    "ceph_terms",
    "degraded",
    "kernels",
    "loads",
    "markov",
    "performance",
    "queueing",
    "targets",
]
