"""The demo championship (``manage.py demo``, what ``make run`` serves) and the scripted play it shares with the
tests and the benchmarks. No product package imports it."""
