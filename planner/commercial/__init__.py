"""What a design can promise and what it costs: the per-database guarantee (SLA), how many
databases of each tier fit, prices, licences and the bill of materials.

Imports :mod:`planner.results` and below.
"""

__all__ = ["bom", "database", "licensing", "pricing", "sla", "tiers"]
