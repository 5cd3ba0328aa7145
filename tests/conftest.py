"""Test configuration: hypothesis runs derandomised, so CI and a developer see
the same examples (a property failure is a model bug to fix, not noise).
``HYPOTHESIS_PROFILE=explore`` searches harder with random examples."""

import os

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=400, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

# no test writes into the user's own scenario database (saved scenarios, long share links): every
# test process points HCIPLAN_DB at a file of its own, and a test that needs a clean one sets its own
if not os.environ.get("HCIPLAN_DB"):
    import tempfile

    os.environ["HCIPLAN_DB"] = os.path.join(tempfile.mkdtemp(prefix="hciplan-test-"), "scenarios.db")
