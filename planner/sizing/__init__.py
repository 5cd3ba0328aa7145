"""Sizing: every rule checked on one design, the search for the cheapest designs that meet
a demand, what-if sensitivity, the comparison of designs, the proposal's data and the
document to send (customer language, HTML/PDF/DOCX/XLSX), the customer's estate
(database lists, SQL Server exports) as a demand, and a design against a demand per dimension
with its whole cost (what every what-if shows).

Imports :mod:`planner.commercial`, :mod:`planner.calibration` and below.
"""

__all__ = [
    "checks",
    "compare",
    "document",
    "estate",
    "formats",
    "proposal",
    "scenarios",
    "search",
    "stacks",
    "verdict",
]
