"""Write tests/slow_tests.txt again from a run's JUnit XML: the tests that took half a second or more.

``make slow-tests`` runs the fast selection with ``--junitxml`` and calls this.
A test's time there is its set-up, call and tear-down together; the first
test to use the database on each worker also carries that worker's database
creation (a few seconds), so read the new list's diff and leave out a test
that is quick alone (``pytest --durations`` on it says).

Each line is ``<package>/<file>::<test>[<parameters>]``: the package under
tests/ and the file's name, not the folders between, so that a file moved
within its package keeps its entries.
"""

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
LIST = TESTS / "slow_tests.txt"
SECONDS = 0.5

HEADER = """\
# Tests that take half a second or more (set-up, call and tear-down; measured with 4 workers on 2 shared cores):
# `make test` runs them, `make test-fast` leaves them out (tests/conftest.py marks them `slow`).
# Written by `make slow-tests` (tests/support/slow_tests.py); one `<package>/<file>::<test>` a line.
"""


def key(path, name):
    """The list's key of the test ``name`` in ``path`` (relative to the repository, e.g. tests/x/y/test_z.py)."""
    parts = Path(path).parts[1:]  # without "tests"
    place = parts[0] if len(parts) == 1 else f"{parts[0]}/{parts[-1]}"
    return f"{place}::{name}"


def path_of(classname):
    """tests.x.test_y(.TestClass) to (tests/x/test_y.py, "TestClass::" or "")."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        path = Path(*parts[:cut]).with_suffix(".py")
        if (TESTS.parent / path).exists():
            return path, "".join(f"{part}::" for part in parts[cut:])
    raise ValueError(f"no file for {classname}")


def slow(junit):
    for case in ET.parse(junit).iter("testcase"):
        if float(case.get("time")) >= SECONDS and case.find("skipped") is None:
            path, within = path_of(case.get("classname"))
            yield key(path, within + case.get("name"))


if __name__ == "__main__":
    LIST.write_text(HEADER + "".join(f"{line}\n" for line in sorted(set(slow(sys.argv[1])))))
