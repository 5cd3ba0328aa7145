#!/usr/bin/env bash
# Install the app's dependencies and start it.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -r requirements.txt
# headless: no first-run e-mail prompt and no browser launch; open the URL it prints
exec python3 -m streamlit run app.py --server.headless true --browser.gatherUsageStats false "$@"
