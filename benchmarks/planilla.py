"""How long the Planilla de Juego takes to print.

    /work/venv/bin/python benchmarks/planilla.py [--batch 64]

Prints, on a throw-away in-memory database filled through the real claim
log (the planilla tests' factories):

- the time to build and render one planilla (a one-page zapatería mesa and
  a two-page mesa of three long chicas), the median of several runs;
- the ratio of each to WeasyPrint rendering a trivial one-page A4 document
  in the same run (target: under 3x);
- the time to print N planillas (default 64, a mix of both) as one PDF with
  the background job's code, run in this thread (target: under 30 s).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment  # noqa: E402


def median_time(function, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64, help="planillas in the one-PDF job")
    parser.add_argument("--runs", type=int, default=7, help="runs for each median")
    args = parser.parse_args()

    setup_test_environment()
    setup_databases(verbosity=0, interactive=False)
    from django.conf import settings
    from weasyprint import HTML

    from refereeing import planilla, planilla_batch
    from tests.planilla import factories

    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="planilla-bench-")
    short, _log = factories.zapateria_mesa()
    long, _log = factories.long_mesa(factories.mesa(short.championship, position=4))

    trivial = "<html><body><h1>Planilla</h1><p>Hola.</p></body></html>"
    HTML(string=trivial).write_pdf()  # warm up fonts and caches
    planilla.pdf(planilla.build(short, "https://mesa.example"))
    base = median_time(lambda: HTML(string=trivial).write_pdf(), args.runs)
    print(f"trivial one-page A4 (WeasyPrint):  {base * 1000:8.1f} ms")
    for name, mesa in (("one-page planilla (zapatería)", short), ("two-page planilla (3 chicas)", long)):
        seconds = median_time(lambda: planilla.pdf(planilla.build(mesa, "https://mesa.example")), args.runs)
        print(f"{name:34s} {seconds * 1000:8.1f} ms   {seconds / base:5.2f}x the trivial document")

    ids = []
    position = 5
    while len(ids) < args.batch:
        maker = factories.long_mesa if len(ids) % 2 else factories.short_mesa
        mesa, _log = maker(factories.mesa(short.championship, position=position))
        ids.append(mesa.pk)
        position += 1
    record = {"id": "0" * 32, "user": 0, "title": "bench", "language": "es-ec",
              "total": len(ids), "done": 0, "status": "queued", "error": ""}
    start = time.perf_counter()
    planilla_batch.run(record, ids, "https://mesa.example")
    seconds = time.perf_counter() - start
    pages = len(__import__("pypdf").PdfReader(planilla_batch.pdf_path(record["id"])).pages)
    print(f"{len(ids)} planillas as one PDF ({pages} pages): {seconds:6.1f} s "
          f"({seconds / len(ids) * 1000:.0f} ms each)")


if __name__ == "__main__":
    main()
