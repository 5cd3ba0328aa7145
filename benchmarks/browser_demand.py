"""What-ifs with a sized demand in the session, in a real browser: key press to settled page.

Starts the app and drives Debian's chromium (the helpers of ``browser_whatif.py``): the Size
page sizes ``examples/demand-200dbs-azure-local.json`` and uses its best design; then, each
timed from the press to the settled page, the Design page's node count and vCPU
oversubscription (each what-if judged against the demand, with its whole cost), page switches,
and the Compare page's what-if node count. Prints one line per action,
``action=NAME median_ms=X p95_ms=Y``; asserts nothing. ``--root`` runs another checkout of
the app (before/after: the actions do not depend on the new panels).

Usage: python benchmarks/browser_demand.py [--repeats N] [--root DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_whatif import ARGS, CHROMIUM, OBSERVE, ROOT, _settle, _timed, served_app, summary

DEMAND = ROOT / "examples" / "demand-200dbs-azure-local.json"


def run(root: Path = ROOT, repeats: int = 5) -> dict:
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    with served_app(root) as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(120_000)
        page.goto(f"{url}/size")
        _settle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(DEMAND))
        page.get_by_role("button", name="Use this design").wait_for()
        _settle(page)
        page.get_by_role("button", name="Use this design").click()
        _settle(page)
        page.get_by_role("link", name="Design").first.click()
        page.get_by_label("Nodes", exact=True).wait_for()
        _settle(page)
        page.evaluate(OBSERVE)

        def typed(field, value):
            def act():
                field.fill(value)
                field.press("Enter")

            return act

        nodes = page.get_by_label("Nodes", exact=True)
        oversub = page.get_by_label("vCPU oversubscription (vCPU per logical processor)")
        for _ in range(repeats):
            for v in ("5", "4", "6"):
                times.setdefault("design_whatif_nodes", []).append(_timed(page, typed(nodes, v)))
                _settle(page)
            for v in ("2", "1", "4"):
                times.setdefault("design_whatif_oversubscription", []).append(_timed(page, typed(oversub, v)))
                _settle(page)
        for _ in range(repeats):
            for link in ("Performance", "Capacity", "Compare / what-if", "Design"):
                go = page.get_by_role("link", name=link).first
                times.setdefault("page_switch", []).append(_timed(page, go.click))
                _settle(page)
                page.evaluate(OBSERVE)
        page.get_by_role("link", name="Compare / what-if").first.click()
        _settle(page)
        page.evaluate(OBSERVE)
        wi = page.get_by_label("Nodes", exact=True)
        for _ in range(repeats):
            for v in ("5", "8", "7"):
                times.setdefault("compare_whatif_nodes", []).append(_timed(page, typed(wi, v)))
                _settle(page)
        browser.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--root", default=str(ROOT), help="app checkout to run (for before/after)")
    a = ap.parse_args()
    for k, (med, p95) in summary(run(Path(a.root), a.repeats)).items():
        print(f"action={k} median_ms={med:.0f} p95_ms={p95:.0f}")


if __name__ == "__main__":
    main()
