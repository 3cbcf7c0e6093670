"""What collectstatic ships to production: the site's own files, never the tests' (axe-core, 654 KB)."""

import pytest

pytestmark = pytest.mark.production_server


def test_collectstatic_ships_the_vendored_libraries_but_not_the_tests_axe(production_static):
    shipped = {path.relative_to(production_static).as_posix() for path in production_static.rglob("*.js")}
    assert any(name.startswith("vendor/brackets-viewer/") for name in shipped)
    assert not [name for name in shipped if "axe" in name]
