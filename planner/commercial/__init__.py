"""What a design can promise and what it costs: the per-database guarantee (SLA), how many
databases of each tier fit, prices (the dated price list and the customer's quotes),
licences that follow the platform, the network, the bill of materials and the whole cost
with its 3- and 5-year TCO (:func:`planner.commercial.tco.whole_cost`, the one function
behind every cost figure).

Imports :mod:`planner.results` and below.
"""

__all__ = ["bom", "database", "licensing", "network", "prices", "pricing", "sla", "tco", "tiers"]
