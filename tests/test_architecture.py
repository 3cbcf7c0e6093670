"""Issue #25 part 3: ARCHITECTURE.md is a true map. Every top-level package of the project is named
in its table of parts, is checked by import-linter, and has its place in the contract that orders
the packages (so no two of them import each other), and every contract is kept."""

import re
import tomllib
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
# Not parts of the running project: what tests it, measures it, and describes it.
NOT_PARTS = {"tests", "benchmarks", "docs"}
ORDER = "The top-level packages depend on each other only downwards: no cycle"


def top_level_packages():
    return sorted(
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_PARTS and not path.parent.name.startswith(".")
    )


def linter():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def parts_table():
    """The packages the "where" column of ARCHITECTURE.md's table of parts names (``audit/``, ``config/urls.py``...)."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    table = text.split("## The parts", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("|")][2:]
    return {match for row in rows for match in re.findall(r"`([a-z_]+)/", row[2])}


def test_there_are_packages_to_check():
    assert {"tournament", "refereeing", "config", "audit"} <= set(top_level_packages())


@pytest.mark.parametrize("package", top_level_packages())
def test_every_top_level_package_is_on_the_map(package):
    assert package in parts_table(), f"{package}/ has no row in ARCHITECTURE.md's table of parts"
    assert package in linter()["root_packages"], f"{package} is outside import-linter's root_packages"
    [order] = [c for c in linter()["contracts"] if c["name"] == ORDER]
    layers = {name.strip() for layer in order["layers"] for name in layer.split("|")}
    # A package whose parts sit at two heights (live: its signals at the bottom, its streams on top)
    # has each part in the order instead.
    parts = {f"{package}.{p.stem}" for p in (ROOT / package).glob("*.py") if p.stem != "__init__"} | {
        f"{package}.{p.parent.name}" for p in (ROOT / package).glob("*/__init__.py")
    }
    assert package in layers or parts <= layers, f"{package} has no place in the order of the top-level packages"


def test_the_map_names_no_folder_that_is_gone():
    assert all((ROOT / name).is_dir() for name in parts_table()), parts_table()


@pytest.mark.slow
def test_every_import_contract_is_kept(monkeypatch):
    """A cycle between two top-level packages breaks the order's contract, as any other broken contract."""
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename="pyproject.toml", no_cache=True, no_logo=True) == 0
