"""tests/slow_tests.txt names tests that exist: an entry left behind by a renamed test would quietly put that test
back in ``make test-fast``'s loop, and one for a moved file would mark nothing."""

import re
from pathlib import Path

from tests.support.slow_tests import LIST

TESTS = Path(__file__).resolve().parent


def test_every_entry_of_the_slow_list_names_a_test_of_its_file():
    entries = [line for line in LIST.read_text().splitlines() if line and not line.startswith("#")]
    assert entries == sorted(set(entries))
    missing = []
    for entry in entries:
        place, _, test = entry.partition("::")
        package, _, name = place.rpartition("/")
        files = list((TESTS / package).rglob(name)) if package else [TESTS / name]
        function = re.split(r"[\[:]", test.split("::")[-1])[0]
        if not any(f.exists() and re.search(rf"^\s*def {function}\(", f.read_text(), re.M) for f in files):
            missing.append(entry)
    assert missing == []
