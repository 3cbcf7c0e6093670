"""A championship with one mesa ready to play, and the people around it, for refereeing's tests."""

from tests.support.one_mesa import *  # noqa: F403  (the fixtures)
