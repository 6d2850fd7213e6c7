"""The project installs like a library, and the image carries runtime dependencies only.

* ``pip install .`` (from a built wheel) and ``pip install -e .`` into a throwaway venv give an
  importable, working ``referee.rules`` that needs no Django (the venv has none), plus the apps'
  modules and data files. Everything runs offline: the wheel is built with this environment's
  setuptools (pinned in requirements-dev.lock) and installed with ``--no-index --no-deps``.
* requirements.lock pins the runtime dependencies (the Dockerfile installs it, nothing else);
  requirements-dev.lock adds the development tools on top of it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
#: Development tools that no runtime dependency needs: never in the image.
TOOLS = {
    "pytest", "pytest-django", "hypothesis", "factory-boy", "ruff", "mypy", "django-stubs",
    "djangorestframework-stubs", "celery-types", "check-jsonschema", "types-pyyaml", "setuptools",
}  # fmt: skip
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^=\s]+)$")
#: Files a distribution needs: the project's metadata and the installed packages' sources.
SOURCES = ("pyproject.toml", "README.md", "referee", "tournaments")
#: Run inside the installed venv, from outside the repository.
USE_THE_LIBRARY = """
import importlib.util, sys
import referee.rules as rules
from referee.rules import HandState, classify, deal_from_seed, handle_request, legal_plays
assert classify("666777AA").kind.value == "airplane_singles"
assert handle_request({"op": "classify", "cards": "大王J"}) == {"legal": False}
state = HandState(deal_from_seed(7))
assert state.legal_actions()
assert not any(m == "django" or m.startswith("django.") for m in sys.modules), "django imported"
assert importlib.util.find_spec("django") is None, "django is installed in the throwaway venv"
print(rules.__file__)
"""


def _name(requirement: str) -> str:
    """Canonical project name (PEP 503) of a requirement such as ``psycopg[binary]>=3.2``."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def _pins(path: Path) -> tuple[dict[str, str], list[str]]:
    """``name -> version`` of a lock file, and its ``-r`` include lines."""
    pins: dict[str, str] = {}
    includes: list[str] = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("-r "):
            includes.append(line[3:].strip())
            continue
        match = PIN.match(line)
        assert match, f"{path.name}: not a name==version line: {line!r}"
        name = _name(match.group(1))
        assert name not in pins, f"{path.name}: {name} pinned twice"
        pins[name] = match.group(2)
    return pins, includes


def test_the_runtime_lock_pins_every_runtime_dependency_and_no_development_tool() -> None:
    runtime, includes = _pins(ROOT / "requirements.lock")
    assert includes == []
    for requirement in PYPROJECT["project"]["dependencies"]:
        assert _name(requirement) in runtime, requirement
    # the solver's compiled search is optional for the library, carried by the image
    for requirement in PYPROJECT["project"]["optional-dependencies"]["fast"]:
        assert _name(requirement) in runtime, requirement
    assert not TOOLS & set(runtime), TOOLS & set(runtime)


def test_the_development_lock_adds_the_tools_on_top_of_the_runtime_lock() -> None:
    runtime, _ = _pins(ROOT / "requirements.lock")
    dev, includes = _pins(ROOT / "requirements-dev.lock")
    assert includes == ["requirements.lock"]
    assert set(dev).isdisjoint(runtime), set(dev) & set(runtime)
    for requirement in PYPROJECT["project"]["optional-dependencies"]["dev"]:
        assert _name(requirement) in dev or _name(requirement) in runtime, requirement
    assert set(dev) >= TOOLS, TOOLS - set(dev)
    assert setuptools.__version__ == dev["setuptools"], "run make install"


def test_the_image_installs_the_runtime_lock_only() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text("utf-8")
    installs = [line for line in dockerfile.splitlines() if "pip install" in line]
    assert installs == ["RUN pip install -r requirements.lock"]
    assert "[dev]" not in dockerfile
    ignored = (ROOT / ".dockerignore").read_text("utf-8").split()
    assert {"requirements-dev.lock", "tests", "bench"} <= set(ignored)


def test_make_install_uses_the_development_lock() -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "pip install --disable-pip-version-check -r requirements-dev.lock" in makefile
    assert "$(STAMP): requirements.lock requirements-dev.lock" in makefile


def _run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, f"{argv}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _source_copy(tmp: Path) -> Path:
    """The distribution's sources in a scratch directory (a build writes build/ and egg-info)."""
    src = tmp / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    return src


def _venv(path: Path) -> Path:
    """A throwaway venv (none of this environment's packages). It gets no pip of its own, to
    stay quick: this environment's pip installs into it (``pip --python``)."""
    _run(sys.executable, "-m", "venv", "--without-pip", path, cwd=path.parent)
    return path / "bin" / "python"


PIP_INTO = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--python")


def _setuptools_files() -> list[Path]:
    """setuptools as installed here: its packages, its metadata (where its commands are
    registered) and its distutils-precedence hook."""
    site = Path(setuptools.__file__).parent.parent
    names = ("setuptools", "pkg_resources", "_distutils_hack", "distutils-precedence.pth")
    found = [site / name for name in names if (site / name).exists()]
    return found + list(site.glob(f"setuptools-{setuptools.__version__}.dist-info"))


def _clean_env(**extra: str) -> dict[str, str]:
    drop = ("PYTHONPATH", "DJANGO_SETTINGS_MODULE", "VIRTUAL_ENV", "PYTHONHOME")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, **extra}


def test_a_built_wheel_installs_a_working_rules_library_without_django(tmp_path: Path) -> None:
    src = _source_copy(tmp_path)
    dist = tmp_path / "dist"
    _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
        "--disable-pip-version-check", "-w", dist, src, cwd=tmp_path, env=_clean_env(),
    )  # fmt: skip
    wheels = list(dist.glob("doudizhu_referee-*.whl"))
    assert len(wheels) == 1, wheels
    python = _venv(tmp_path / "venv")
    _run(*PIP_INTO, python, "install", "--no-deps", "--no-index", wheels[0], cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(python, "-c", USE_THE_LIBRARY, cwd=elsewhere, env=_clean_env()).strip()
    site = Path(where).parents[2]
    assert site.name == "site-packages" and site.is_relative_to(tmp_path / "venv"), where
    for installed in (
        "referee/rules/__main__.py",
        "referee/api/views.py",
        "tournaments/hands/write.py",
        "tournaments/migrations/0001_initial.py",
        "tournaments/locale/zh_Hans/LC_MESSAGES/django.mo",
    ):
        assert (site / installed).is_file(), installed
    assert not (site / "tests").exists() and not (site / "config").exists()
    cli = subprocess.run(
        [python, "-m", "referee.rules", "check", "XD"],
        cwd=elsewhere,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert cli.returncode == 0 and "rocket" in cli.stdout, cli.stdout + cli.stderr


def test_an_editable_install_imports_the_rules_library_from_the_source_tree(
    tmp_path: Path,
) -> None:
    src = _source_copy(tmp_path)
    python = _venv(tmp_path / "venv")
    # The build backend is this environment's setuptools, lent to the venv for the install only
    # (linked into its site-packages, then unlinked): no download, and never any Django.
    site = next((tmp_path / "venv" / "lib").glob("python3*/site-packages"))
    lent = [site / p.name for p in _setuptools_files()]
    for link, target in zip(lent, _setuptools_files(), strict=True):
        link.symlink_to(target)
    _run(*PIP_INTO, python, "install", "--no-deps", "--no-build-isolation", "--no-index", "-e", src,
         cwd=tmp_path)  # fmt: skip
    for link in lent:
        link.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(python, "-c", USE_THE_LIBRARY, cwd=elsewhere, env=_clean_env()).strip()
    assert Path(where) == src / "referee" / "rules" / "__init__.py"
