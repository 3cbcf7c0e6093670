"""``make slow-tests``: measure the suite and fail on a stale ``slow`` mark.

A test says it is slow where it is written (``@pytest.mark.slow``, or a
module's ``pytestmark``), and ``make test-fast`` leaves it out. This
measures every test of the fast selection with the slow tests in, and fails
when a mark no longer tells the truth: a test marked slow that measures
fast, or an unmarked one that measures slow. Between the two bounds either
is right, so that noise does not flip a test back and forth.

Run as ``python -m tests.support.slow_tests [pytest's arguments]``; it runs
pytest with this module as a plugin (``-p tests.support.slow_tests``), which
times each test's set-up, call and tear-down. What a test pays once for the
whole session (the test database's creation on each worker, a session
fixture's set-up and, for a worker's last test, the session's tear-down) is
not the test's, and is left out. The tests found stale are measured again in
one process, one at a time and each twice (the second measure kept, so that
none pays for the process's first request), and only those stale again are
reported. Wall time: measure on an idle machine, as the marks are for one.

A function is judged as a whole, by the median of its cases (a parametrized
test's typical case): the mark is on the function, and one case that paid
for a cache no more makes the function slow than one quick case makes it
fast. Cases marked apart (``pytest.param(..., marks=pytest.mark.slow)``)
are judged apart.
"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

SLOW = 0.5  # seconds: a test this slow or slower must be marked ``slow``
FAST = 0.25  # seconds: a test marked ``slow`` must not be faster than this
# What is measured: everything ``make test`` runs but the kinds ``make test-fast`` leaves out for what they are.
SELECTION = "not browser and not fuzz and not production_server"
REPORT = "--slow-tests-report"
# Run every test twice and keep the second measure: a process's first test pays for what every later one finds
# ready (the URLs, the views' imports, the templates compiled), which is not that test's.
TWICE = "--slow-tests-twice"
PLUGIN = "tests.support.slow_tests"  # this module, by the name pytest imports it by (not __main__)


def pytest_addoption(parser):
    parser.addoption(REPORT, help="where to write each test's seconds and whether it is marked slow (JSON)")
    parser.addoption(TWICE, action="store_true", help="run each test twice, the second measure kept")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if config.getoption(TWICE):
        items[:] = items + items


def pytest_configure(config):
    if config.getoption(REPORT):
        config.pluginmanager.register(Timer(), "slow_tests_timer")
        if not hasattr(config, "workerinput"):  # the controller, or pytest alone
            config.pluginmanager.register(Recorder(config.getoption(REPORT)), "slow_tests_recorder")


class Timer:
    """Where the tests run: each test's seconds, less what the session pays once, on its last report."""

    def __init__(self):
        self.seconds = 0.0  # the running test's, so far
        self.skipped = False
        self.last = False  # the last test of this process: the session's fixtures are torn down in its tear-down
        self.paid_once = 0.0  # the session fixtures' set-up within the running phase
        self.opening = False  # a session fixture is being set up (it may ask for another)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.seconds, self.skipped, self.last = 0.0, False, nextitem is None
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef):
        outermost = fixturedef.scope == "session" and not self.opening
        self.opening, start = self.opening or outermost, time.perf_counter()
        yield
        if outermost:
            self.opening = False
            self.paid_once += time.perf_counter() - start

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = (yield).get_result()
        if not (call.when == "teardown" and self.last):
            self.seconds += max(report.duration - self.paid_once, 0.0)
        self.skipped = self.skipped or report.skipped
        self.paid_once = 0.0
        if call.when == "teardown" and not self.skipped:
            marked = item.get_closest_marker("slow") is not None
            report.user_properties.append(("slow_tests", {"seconds": self.seconds, "slow": marked}))


class Recorder:
    """On the controller (or pytest alone), every test's measure from its reports, written at the end."""

    def __init__(self, path):
        self.path = path
        self.measures = {}

    def pytest_runtest_logreport(self, report):
        for name, value in report.user_properties:
            if name == "slow_tests":
                self.measures[report.nodeid] = value

    def pytest_sessionfinish(self):
        Path(self.path).write_text(json.dumps(self.measures))


def stale(measures):
    """The test functions (``path::name``) whose mark is wrong, each with its cases' median seconds and whether it
    is marked: ``{function: (seconds, marked)}``."""
    groups = {}
    for nodeid, measure in measures.items():
        function = nodeid.split("[", 1)[0]
        groups.setdefault((function, measure["slow"]), []).append(measure["seconds"])
    found = {}
    for (function, marked), seconds in groups.items():
        median = statistics.median(seconds)
        if (marked and median < FAST) or (not marked and median >= SLOW):
            found[function] = (median, marked)
    return found


def measure(arguments):
    """Run pytest with ``arguments`` and this plugin; its exit code and every test's measure."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "measures.json"
        command = [sys.executable, "-m", "pytest", "-p", PLUGIN, REPORT, str(report), "-m", SELECTION]
        code = subprocess.call([*command, *arguments])
        return code, json.loads(report.read_text()) if report.exists() else {}


def main(arguments):
    code, measures = measure(["-q", "--dist", "loadfile", *arguments])
    if code != 0:
        print(f"pytest exited {code}: the measure is not judged")
        return 1
    suspects = stale(measures)
    if suspects:
        print(f"{len(suspects)} tests look stale; measuring them again, one at a time")
        code, again = measure(["-q", "-n", "0", TWICE, *sorted(suspects)])
        suspects = {function: found for function, found in stale(again).items() if function in suspects}
    for function, (seconds, marked) in sorted(suspects.items()):
        fix = "remove its @pytest.mark.slow" if marked else "mark it @pytest.mark.slow"
        print(f"STALE {function}: {seconds:.2f} s, {fix}")
    print(f"{len(measures)} tests measured; {len(suspects)} stale marks (slow ≥ {SLOW} s, fast < {FAST} s)")
    return 1 if suspects else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
