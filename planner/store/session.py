"""The session a user works in, as one JSON document with a schema version: what every
page of the app reads and writes, what a share link carries and what a saved scenario
keeps (:mod:`planner.store.scenarios` stores it). Apart from the database module, so the
app reads and writes sessions without loading SQLAlchemy."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner.core.errors import PlannerError, format_validation_error, shown
from planner.sizing.document import MAX_COMPANY_CHARS, MAX_NAME_CHARS

#: the session's JSON layout; a row written by a newer hciplan is refused, an older one migrated.
#: 2: the workload's choice and the sized demand's workload, the Size page's choices and the
#: document's names (a version-1 session is a version-2 one without them)
SCHEMA_VERSION = 2
MAX_SESSION_BYTES = 2_000_000
#: a link id: the first characters of the session's SHA-256, URL-safe base 64 (126 bits)
LINK_ID_CHARS = 21


def clean_name(text: str | None) -> str:
    """A customer's or a scenario's name as the store keeps it: unprintable characters (controls, zero-width and
    direction marks) as spaces, runs of spaces as one. The app's panel reads names by this one rule (it had kept a
    zero-width space, and said "No saved scenario for Fabrikam" just below "Saved ... for Fabrikam")."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in (text or "")).split())


class StoreError(PlannerError):
    pass


class NoScenarioError(StoreError):
    """No scenario of that name for that customer. ``saved_for`` lists the customers (``""``: none) under whom
    the name is saved, so a command line can name the option that finds it (``proposal --scenario plan`` said
    "no scenario 'plan'; ... saved for customer 'Acme'" without saying ``--customer``: review 2026-11-30)."""

    def __init__(self, message: str, field: str | None, saved_for: list[str]) -> None:
        super().__init__(message, field)
        self.saved_for = saved_for


class ScenarioSession(BaseModel):
    """The whole session: what every page reads and writes. The model parts are
    validated by their own models (:meth:`validated`); the page choices (what-if,
    SLA) are kept as the app wrote them, bounded by the JSON reader's limits."""

    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA_VERSION
    demand: dict | None = None
    design: dict | None = None
    workload: dict | None = None
    tiers: dict | None = None
    costs: dict | None = None
    existing: dict | None = None
    whatif: dict = Field(default_factory=dict, description="the what-if choices (design edits, held databases)")
    sla: dict = Field(default_factory=dict, description="the SLA page's choices (N+1, other tenants, database)")
    tier_counts: dict | None = None
    notes: str = Field(default="", max_length=10_000)
    # schema 2
    workload_name: str | None = Field(
        default=None, max_length=MAX_NAME_CHARS, description="the workload's choice: a profile, custom, sized demand"
    )
    sized_workload: dict | None = Field(
        default=None, description="the sized demand's own workload, a choice kept when another replaces it"
    )
    size: dict = Field(default_factory=dict, description="the Size page's choices (the form, the design picked)")
    company: str = Field(default="", max_length=MAX_COMPANY_CHARS, description="the company preparing the document")
    customer: str = Field(default="", max_length=MAX_NAME_CHARS, description="the customer named in the document")
    prepared_by: str = Field(default="", max_length=MAX_NAME_CHARS, description="who prepared the document")

    def validated(self) -> ScenarioSession:
        """Check each model part against its model (one-line error naming the part)."""
        from planner.commercial.pricing import CostAssumptions
        from planner.models.demand import Demand
        from planner.models.design import Design
        from planner.models.tiers import TierSet
        from planner.models.workload import Workload

        for key, model in (
            ("demand", Demand),
            ("design", Design),
            ("existing", Design),
            ("tiers", TierSet),
            ("costs", CostAssumptions),
            ("workload", Workload),
            ("sized_workload", Workload),
        ):
            v = getattr(self, key)
            if v is not None:
                try:
                    model.model_validate(v)
                except ValidationError as exc:
                    raise StoreError(format_validation_error(exc, key)) from None
        return self


def migrate(doc: dict) -> dict:
    """A stored session brought to :data:`SCHEMA_VERSION`. Version 1 is the first layout;
    version 2 adds fields with defaults (the workload's choice, the sized demand's workload,
    the Size page's choices, the document's names), so a version-1 session reads as is."""
    if not isinstance(doc, dict):
        raise StoreError("a session is a JSON object", "session")
    v = doc.get("schema_version", 1)
    if not isinstance(v, int) or v < 1:
        raise StoreError(f"unknown schema version {shown(v)}", "schema_version")
    if v > SCHEMA_VERSION:
        raise StoreError(
            f"written by a newer hciplan (schema {v}; this one reads up to {SCHEMA_VERSION})", "schema_version"
        )
    return {**doc, "schema_version": SCHEMA_VERSION}
