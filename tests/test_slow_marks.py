"""The slow marks' judge (``make slow-tests``, ``tests.support.slow_tests.stale``): a mark is stale when a test marked
slow measures fast or an unmarked one measures slow; in between either is right, so that noise flips nothing."""

from tests.support.slow_tests import FAST, SLOW, stale


def measured(**tests):
    return {f"tests/test_x.py::{name}": {"seconds": seconds, "slow": slow} for name, (seconds, slow) in tests.items()}


def test_a_mark_that_tells_the_truth_is_not_stale():
    assert stale(measured(test_slow=(SLOW + 1, True), test_fast=(FAST / 2, False))) == {}


def test_a_slow_test_left_unmarked_and_a_fast_one_marked_slow_are_stale():
    found = stale(measured(test_slow=(SLOW, False), test_fast=(FAST - 0.01, True)))
    assert found == {"tests/test_x.py::test_slow": (SLOW, False), "tests/test_x.py::test_fast": (FAST - 0.01, True)}


def test_between_the_bounds_either_is_right():
    between = (FAST + SLOW) / 2
    assert stale(measured(test_marked=(between, True), test_unmarked=(between, False))) == {}


def test_a_parametrized_test_is_judged_by_its_typical_case():
    cases = {"tests/test_x.py::test_p[a]": 2.0, "tests/test_x.py::test_p[b]": 0.1, "tests/test_x.py::test_p[c]": 0.1}
    assert stale({nodeid: {"seconds": s, "slow": False} for nodeid, s in cases.items()}) == {}
    assert stale({nodeid: {"seconds": s, "slow": True} for nodeid, s in cases.items()}) == {
        "tests/test_x.py::test_p": (0.1, True)
    }


def test_cases_marked_apart_are_judged_apart():
    found = stale(
        {
            "tests/test_x.py::test_p[slow]": {"seconds": 3.0, "slow": True},
            "tests/test_x.py::test_p[quick]": {"seconds": 0.01, "slow": False},
        }
    )
    assert found == {}
