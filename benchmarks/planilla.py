"""How long the Planilla de Juego takes to print.

    .venv/bin/python benchmarks/planilla.py [--batch 64] [--runs 7] [--smoke]

Prints, on a throw-away in-memory database filled through the real claim
log (the planilla tests' factories):

- the time to build and render one planilla (a one-page zapatería mesa and
  a two-page mesa of three long chicas), the median of several runs;
- the ratio of each to WeasyPrint rendering a trivial one-page A4 document
  in the same run (target: under 3x);
- the time to print a round of N finished, signed mesas (default 64) as one
  PDF with the background job's code (``planilla_batch.run``, called in
  this thread; it renders in a pool of processes, one per CPU): first with
  nothing stored (each planilla rendered, then stored under its
  verification code, ``planilla.store``), then again, from the store; each
  against rendering two planillas from scratch in the same run (target: the
  reprint takes no longer than those two).

Wall times follow the machine's load; CPU times (this process and its
children) much less, so both are printed.

It also renders the one-page planilla's text alone (read back from its
PDF), as one unstyled ``<pre>`` and as a paragraph per line: the floor of
any planilla that shows that content.

Figures, and what they showed: ``benchmarks/RESULTS.md`` ("The planilla").
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from html import escape
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment  # noqa: E402


def cpu_seconds():
    """CPU time of this process (``process_time``: ``os.times`` counts in
    10 ms ticks, as coarse as the trivial document) and of its finished
    children (the batch's rendering processes)."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def timed(function):
    """(wall seconds, CPU seconds) for one call: on a shared box the wall
    time follows the load, the CPU time much less."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    function()
    return time.perf_counter() - wall, cpu_seconds() - cpu


def median_time(function, runs):
    times = [timed(function) for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64, help="planillas in the one-PDF job")
    parser.add_argument("--runs", type=int, default=7, help="runs for each median")
    parser.add_argument("--smoke", action="store_true", help="a round of two, one run each, for the test suite")
    args = parser.parse_args()
    if args.smoke:
        args.batch, args.runs = 2, 1

    setup_test_environment()
    setup_databases(verbosity=0, interactive=False)
    from django.conf import settings
    from pypdf import PdfReader
    from weasyprint import HTML

    from refereeing.planilla import batch as planilla_batch
    from refereeing.planilla import printed
    from refereeing.planilla import sheet as planilla
    from tests.support import planilla_factories as factories

    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="planilla-bench-")
    short, _log = factories.zapateria_mesa()
    long, _log = factories.long_mesa(factories.mesa(short.championship, position=4))

    trivial = "<html><body><h1>Planilla</h1><p>Hola.</p></body></html>"
    HTML(string=trivial).write_pdf()  # warm up fonts and caches
    printed.pdf(planilla.build(short, "https://mesa.example"))
    base = median_time(lambda: HTML(string=trivial).write_pdf(), args.runs)
    print(f"{'':34s} {'wall':>9s} {'CPU':>9s}   ratio (wall, CPU) to the trivial document")
    print(f"{'trivial one-page A4 (WeasyPrint)':34s} {base[0] * 1000:6.0f} ms {base[1] * 1000:6.0f} ms")

    def row(name, render):
        wall, cpu = median_time(render, args.runs)
        print(f"{name:34s} {wall * 1000:6.0f} ms {cpu * 1000:6.0f} ms   {wall / base[0]:5.1f}x {cpu / base[1]:5.1f}x")

    for name, mesa in (("one-page planilla (zapatería)", short), ("two-page planilla (3 chicas)", long)):
        row(name, lambda: printed.pdf(planilla.build(mesa, "https://mesa.example")))

    # The floor under the 3x target: the one-page planilla's own text with
    # none of the form around it (no table, border, colour or image).
    text = "\n".join(
        page.extract_text()
        for page in PdfReader(BytesIO(printed.pdf(planilla.build(short, "https://mesa.example")))).pages
    )
    lines = [escape(line) for line in text.splitlines() if line.strip()]
    pre = f"<html><body><pre>{chr(10).join(lines)}</pre></body></html>"
    paragraphs = "<html><body>" + "".join(f"<p>{line}</p>" for line in lines) + "</body></html>"
    print(f"its text alone ({len(lines)} lines), no form around it:")
    row("  as one <pre>", lambda: HTML(string=pre).write_pdf())
    row("  as a paragraph per line", lambda: HTML(string=paragraphs).write_pdf())

    # A round of finished, signed mesas: printed once (each rendered and stored,
    # ``planilla.store``), then again (each read from the store).
    two = median_time(
        lambda: (
            printed.pdf(planilla.build(short, "https://mesa.example")),
            printed.pdf(planilla.build(long, "https://mesa.example")),
        ),
        args.runs,
    )
    print(f"{'two planillas from scratch':34s} {two[0] * 1000:6.0f} ms {two[1] * 1000:6.0f} ms")
    ids = [factories.zapateria_mesa()[0].pk for _ in range(args.batch)]
    for n, label in ((1, "first print, rendered and stored"), (2, "printed again, from the store")):
        record = {
            "id": f"{n:032d}",
            "user": 0,
            "title": "bench",
            "language": "es-ec",
            "total": len(ids),
            "done": 0,
            "status": "queued",
            "error": "",
        }
        wall, cpu = timed(lambda: planilla_batch.run(record, ids, "https://mesa.example"))
        pages = len(PdfReader(planilla_batch.pdf_path(record["id"])).pages)
        print(
            f"a round of {len(ids)} finished mesas as one PDF ({pages} pages), {label}: "
            f"{wall:6.2f} s wall, {cpu:6.2f} s CPU in all processes; "
            f"{wall / two[0]:.2f}x the two from scratch (wall), {cpu / two[1]:.2f}x (CPU)"
        )


if __name__ == "__main__":
    main()
