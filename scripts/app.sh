#!/usr/bin/env bash
# Install the app's dependencies into a project-local .venv (created if missing) and start it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv requirements.txt
# headless: no first-run e-mail prompt and no browser launch; open the URL it prints
exec .venv/bin/python -m streamlit run app.py --server.headless true --browser.gatherUsageStats false "$@"
