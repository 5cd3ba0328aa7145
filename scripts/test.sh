#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 || echo "warning: could not install chromium; browser tests will be skipped"
  fi
fi
python3 -m pip install -q --disable-pip-version-check -r requirements-dev.txt
python3 -m pytest -q -p no:cacheprovider "$@"
