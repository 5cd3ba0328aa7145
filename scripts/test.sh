#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run the whole suite:
# Debian's chromium (browser tests, PDF) and fio (real fio runs in the import tests) when
# missing, then the Python test dependencies and the project (editable) into a project-local
# .venv (created if missing); lint, format and the import-layer contracts before the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v fio >/dev/null 2>&1 || missing+=(fio)
apt_install "${missing[@]+"${missing[@]}"}"
ensure_venv requirements-dev.txt
# lint, format, the layer contracts, then every test
.venv/bin/python scripts/lint.py
# on every core, each test file on one worker (its module fixtures, a browser or a server, started once)
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n auto --dist loadfile "$@"
