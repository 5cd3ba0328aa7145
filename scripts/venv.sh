# Sourced by scripts/app.sh and scripts/test.sh: a project-local virtual
# environment (.venv, ignored by git) so a user's other Python work is untouched,
# and Debian packages installed only when missing, as root, with apt-get.

# apt_install PKG...: install the missing Debian packages, or say why not.
apt_install() {
  [ "$#" -gt 0 ] || return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@") >/dev/null 2>&1 \
      || echo "warning: could not install $*" >&2
  else
    echo "warning: $* not installed (needs root and apt-get); the parts that use them are skipped" >&2
  fi
}

# ensure_venv REQUIREMENTS: .venv created if missing (or broken), then the requirements installed into it.
ensure_venv() {
  if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    rm -rf .venv
    if ! python3 -m venv .venv 2>/dev/null; then
      apt_install python3-venv  # Debian splits ensurepip out of python3
      rm -rf .venv
      python3 -m venv .venv
    fi
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$1"
  # the project itself, editable: the `hciplan` command, and planner/hardware_catalog/hciplan_ui
  # importable from any directory (pip fetches setuptools to build it, as for any package)
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
}
