"""The tests mirror the code (issue #36 item 5; ARCHITECTURE.md, "Where the tests are"): a test module sits in
``tests/`` itself when it tests the project as a whole, in the folder that mirrors the package it tests
(``tests/engines/rules/`` for ``engines/rules/``), or in one of the suites across the whole site that
ARCHITECTURE.md names. A folder that mirrors no package is where a test is lost."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
# The suites that test the whole site rather than one package (ARCHITECTURE.md says why each).
ACROSS = {"input", "server", "browser"}


def modules_of_the_suite():
    return [module for module in TESTS.rglob("test_*.py") if "__pycache__" not in module.parts]


def test_every_test_module_sits_in_the_folder_of_a_package_or_of_a_suite_across_the_site():
    misplaced = []
    for module in modules_of_the_suite():
        folder = module.parent.relative_to(TESTS)
        mirrors_a_package = (ROOT / folder / "__init__.py").exists()
        if folder != Path(".") and folder.parts[0] not in ACROSS and not mirrors_a_package:
            misplaced.append(str(module.relative_to(ROOT)))
    assert misplaced == []


def test_every_folder_of_tests_is_a_package():
    """Two test modules of one name in two folders (``test_views.py``) are told apart by their packages."""
    folders = {folder for module in modules_of_the_suite() for folder in module.relative_to(TESTS).parents}
    assert sorted(str(f) for f in folders if not (TESTS / f / "__init__.py").exists()) == []


def test_the_suites_across_the_site_are_the_ones_architecture_names():
    text = (ROOT / "ARCHITECTURE.md").read_text()
    assert [name for name in sorted(ACROSS) if f"`tests/{name}/`" not in text] == []
