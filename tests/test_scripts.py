"""The README's two commands install into a project-local .venv (created if
missing), never into the system Python; test.sh installs the Debian packages
it needs (chromium, fio) when missing, as root with apt-get. Run against stub
python3/apt-get/id in a throw-away copy of the scripts: no network, no install."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOG = "calls.log"

# a python3 that logs its calls; '-m venv DIR' makes DIR/bin/python, a python that logs too
PYTHON3 = """#!/bin/bash
echo "python3 $*" >> "$STUB_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin"
  cat > "$3/bin/python" <<'EOS'
#!/bin/bash
echo "venv-python $*" >> "$STUB_LOG"
exit 0
EOS
  chmod +x "$3/bin/python"
fi
"""
APT = '#!/bin/bash\necho "apt-get $*" >> "$STUB_LOG"\n'


def _sandbox(tmp_path: Path, uid: int) -> tuple[Path, dict]:
    proj = tmp_path / "proj"
    (proj / "scripts").mkdir(parents=True)
    for f in ("app.sh", "test.sh", "venv.sh"):
        shutil.copy(ROOT / "scripts" / f, proj / "scripts" / f)
    (proj / "requirements.txt").write_text("numpy\n")
    (proj / "requirements-dev.txt").write_text("-r requirements.txt\npytest\n")
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("bash", "dirname", "rm", "mkdir", "cat", "chmod", "env"):  # no chromium, no fio
        os.symlink(shutil.which(tool), bin_ / tool)
    for name, body in (("python3", PYTHON3), ("apt-get", APT), ("id", f"#!/bin/bash\necho {uid}\n")):
        (bin_ / name).write_text(body)
        (bin_ / name).chmod(stat.S_IRWXU)
    env = {"PATH": str(bin_), "STUB_LOG": str(tmp_path / LOG), "HOME": str(tmp_path)}
    return proj, env


def _run(proj, env, script, *args):
    r = subprocess.run(
        ["bash", f"scripts/{script}", *args], cwd=proj, env=env, capture_output=True, text=True, timeout=60
    )
    calls = Path(env["STUB_LOG"]).read_text().splitlines() if Path(env["STUB_LOG"]).exists() else []
    Path(env["STUB_LOG"]).unlink(missing_ok=True)
    return r, calls


def test_test_sh_uses_a_project_venv_and_installs_missing_debian_packages(tmp_path):
    proj, env = _sandbox(tmp_path, uid=0)
    r, calls = _run(proj, env, "test.sh", "-k", "x")
    assert r.returncode == 0, r.stderr
    assert "apt-get install -y -qq chromium fio" in calls
    assert "python3 -m venv .venv" in calls
    assert "venv-python -m pip install -q --disable-pip-version-check -r requirements-dev.txt" in calls
    assert "venv-python -m pip install -q --disable-pip-version-check --no-deps -e ." in calls
    assert calls[-2:] == [
        "venv-python scripts/lint.py",
        "venv-python -m pytest -q -p no:cacheprovider -n auto --dist loadfile -k x",
    ]
    assert not any(c.startswith("python3 -m pip") for c in calls)  # the system Python is untouched
    # a second run reuses the venv
    r, calls = _run(proj, env, "test.sh")
    assert r.returncode == 0 and not any(c.startswith("python3") for c in calls)


def test_test_sh_without_root_only_warns(tmp_path):
    proj, env = _sandbox(tmp_path, uid=1000)
    r, calls = _run(proj, env, "test.sh")
    assert r.returncode == 0 and not any(c.startswith("apt-get") for c in calls)
    assert "chromium fio not installed (needs root and apt-get)" in r.stderr


def test_app_sh_uses_the_project_venv(tmp_path):
    proj, env = _sandbox(tmp_path, uid=0)
    r, calls = _run(proj, env, "app.sh", "--server.port", "8600")
    assert r.returncode == 0, r.stderr
    assert calls[0] == "python3 -m venv .venv"
    assert "venv-python -m pip install -q --disable-pip-version-check -r requirements.txt" in calls
    assert calls[-1] == (
        "venv-python -m streamlit run app.py --server.headless true --browser.gatherUsageStats false --server.port 8600"
    )
    assert not any(c.startswith("apt-get") or c.startswith("python3 -m pip") for c in calls)


def test_ci_runs_exactly_the_readme_test_command_and_the_venv_is_ignored():
    lines = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln and not ln.startswith("#")]
    assert lines[-1] == "bash scripts/test.sh"
    # ".venv", not ".venv/": the pattern with a slash ignores only a folder, and a worktree's .venv
    # that was a link to another checkout's was committed through it
    assert ".venv" in (ROOT / ".gitignore").read_text().split()
    readme = (ROOT / "README.md").read_text()
    blocks = [b.split("```")[0].strip() for b in readme.split("```bash")[1:3]]
    assert blocks[0].startswith("bash scripts/app.sh") and blocks[1] == "bash scripts/test.sh"


@pytest.mark.parametrize("script", ["app.sh", "test.sh"])
def test_scripts_never_pip_install_into_the_system_python(script):
    text = (ROOT / "scripts" / script).read_text() + (ROOT / "scripts" / "venv.sh").read_text()
    assert "python3 -m pip" not in text and ".venv/bin/python -m pip install" in text


def test_hciplan_app_passes_every_setting_of_the_repositorys_streamlit_config():
    """``hciplan app`` starts Streamlit outside the repository, where .streamlit/config.toml is not read,
    so it passes the same settings itself (planner.cli.main.APP_OPTIONS); the file watcher and "magic"
    were missing from it while the file had them."""
    import tomllib

    from planner.cli.main import APP_OPTIONS

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    passed = dict(zip(APP_OPTIONS[::2], APP_OPTIONS[1::2]))
    for section, options in config.items():
        for name, value in options.items():
            want = str(value).lower() if isinstance(value, bool) else str(value)
            assert passed.get(f"--{section}.{name}") == want, (section, name)
