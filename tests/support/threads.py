"""Threads in tests: several writers released at once, and the backups' threads waited for."""

import threading

from django.db import connection

from backup import auto


def run_at_once(jobs):
    """Run every job in its own thread, released together; return their results."""
    barrier = threading.Barrier(len(jobs))
    results, errors = [None] * len(jobs), []

    def run(i, job):
        try:
            barrier.wait()
            results[i] = job()
        except BaseException as error:  # noqa: BLE001 — reported to the test below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return results


def backups_done():
    """Wait for the round starts' backups, each written by a thread of its own (``backup.auto``)."""
    for thread in threading.enumerate():
        if thread.name == auto.THREAD_NAME:
            thread.join(timeout=60)
