"""A storage architect's review of the Ceph and vSAN stacks: each finding as a test that
failed before its fix (the vendors' rules the sizer must obey, what a host loss does, the SLA's
cluster headroom)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from planner.models.catalog import load_catalog
from planner.models.design import parse_design, resolve

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
CEPH = json.loads((EX / "ceph-6node-reef.json").read_text())
VSAN = json.loads((EX / "vsan-esa-6node.json").read_text())
DEMAND = json.loads((EX / "demand-200dbs-ceph.json").read_text())
#: the reviewer's Ultra-shaped database (the Ultra tier's IO shape, size and VM)
ULTRA = {
    "name": "ultra-like",
    "size_tb": 4,
    "vcpus": 16,
    "block_size_kib": 8,
    "read_fraction": 0.7,
    "latency_target_ms": 3,
    "latency_statistic": "p99",
}


def _rd(base: dict, **changes):
    return resolve(parse_design({**base, **changes}), load_catalog())


# ------------------------------------------------------------------ 5. the SLA's cluster headroom
@pytest.mark.parametrize("design", ["ceph-6node-reef", "reference", "vsan-esa-6node"])
def test_sla_guarantee_does_not_fall_as_nodes_are_added(design):
    """Ceph's headroom was one VM's (its RBD client) divided by the hosts: 71.7K, 35.9K, 17.9K IOPS on
    3, 6 and 12 nodes. The cluster's headroom grows with its nodes, and the guarantee never falls."""
    from planner.commercial.sla import guarantee
    from planner.models.database import Database

    base = json.loads((EX / f"{design}.json").read_text())
    db = Database.model_validate(ULTRA)
    got = {n: guarantee(_rd(base, nodes=n), db, bootstrap=[]) for n in (3, 6, 12)}
    g = [got[n].guaranteed_iops for n in (3, 6, 12)]
    assert g[0] > 0 and all(b >= a * (1 - 1e-6) for a, b in itertools.pairwise(g)), (design, g)
    heads = [got[n].bounds_iops["cluster_headroom"] for n in (3, 6, 12)]
    assert all(b > a * 1.3 for a, b in itertools.pairwise(heads)), (design, heads)


def test_price_and_sla_agree_on_an_ultra_database_on_twelve_ceph_nodes():
    """`price` fits 24 Ultra databases (25,000 IOPS each) on 12 Ceph nodes; `sla` guaranteed one of
    them 17,927 IOPS (node headroom)."""
    from planner.commercial.pricing import tier_prices
    from planner.commercial.sla import guarantee
    from planner.models.database import Database
    from planner.models.tiers import default_tiers

    rd = _rd(CEPH, nodes=12)
    tiers = default_tiers()
    ultra = tiers.by_name()["Ultra"]
    price = tier_prices(rd, tiers)["tiers"]["Ultra"]
    g = guarantee(rd, Database.model_validate(ULTRA), bootstrap=[])
    assert price["max_dbs"] >= 1
    assert g.guaranteed_iops >= ultra.guaranteed_iops, (g.guaranteed_iops, g.binding_constraint)
