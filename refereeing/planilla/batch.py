"""Printing many planillas as one PDF, without blocking the web server.

A round of a big championship is dozens of planillas; WeasyPrint takes
about a fifth of a second of CPU for each page, so a request that rendered them
all would hold a gunicorn worker (and the browser) for a long time. Instead:

- the request writes a *job record* (``MEDIA_ROOT/planillas/<job>.json``)
  and starts a background thread in the same process, then redirects to a
  page that polls the record and shows the progress;
- a final mesa whose planilla is stored and current (``store``) is read,
  not rendered; the others are rendered and stored for the next print;
- the thread reads the database and writes each planilla's HTML (quick),
  and hands the HTML to a pool of separate processes, one per CPU, started
  fresh ("spawn", safe from a threaded server) and at a lower priority
  (``nice``): WeasyPrint's layout runs there, outside the web worker's GIL,
  on every core, and the site's requests go first;
- the thread rewrites the record as each planilla comes back, then joins
  the PDFs (pikepdf, qpdf underneath: ten times pypdf's speed) into
  ``MEDIA_ROOT/planillas/<job>.pdf``, written under a
  temporary name and then renamed, so a half-written PDF is never served.

The record is a file, not a table: any worker of a single gunicorn box can
read it, it needs no migration, and it behaves the same on SQLite and
PostgreSQL (only the thread reads the database; the processes never touch
it). Each planilla keeps its own page numbers ("Página 1 de 2"). One lock
per web process runs its jobs one at a time. If the process dies mid-job the
record stops changing; after ``STALE_SECONDS`` the page says so and the user
starts again. Old jobs are deleted after a day.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, as_completed
from io import BytesIO
from pathlib import Path
from typing import NotRequired, TypedDict

from django.conf import settings
from django.db import close_old_connections, connections

from refereeing.planilla import printed, store
from refereeing.planilla import sheet as planilla

STALE_SECONDS = 120
KEEP_SECONDS = 24 * 3600
_JOB_ID = re.compile(r"[0-9a-f]{32}")
_LOCK = threading.Lock()


def folder() -> Path:
    path = Path(settings.MEDIA_ROOT) / "planillas"
    path.mkdir(parents=True, exist_ok=True)
    return path


class Job(TypedDict):
    """A print job's record, kept as JSON beside its PDF."""

    id: str
    championship: int
    user: int
    title: str
    language: str
    total: int
    done: int
    status: str
    error: str
    updated: NotRequired[float]  # written by each save


def _write(record: Job) -> None:
    record["updated"] = time.time()
    target = folder() / f"{record['id']}.json"
    temporary = target.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(record))
    os.replace(temporary, target)


def read(job: str) -> Job | None:
    """The job's record, or None for an unknown or malformed id."""
    if not _JOB_ID.fullmatch(job or ""):
        return None
    try:
        record: Job = json.loads((folder() / f"{job}.json").read_text())
    except (OSError, ValueError):
        return None
    if record["status"] in ("queued", "running") and time.time() - record["updated"] > STALE_SECONDS:
        record["status"] = "failed"
        record["error"] = "stale"
    return record


def pdf_path(job: str) -> Path:
    return folder() / f"{job}.pdf"


def _clean_old() -> None:
    limit = time.time() - KEEP_SECONDS
    for path in folder().iterdir():
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
        except OSError:
            pass


def start(mesa_ids: list[int], *, championship_id: int, user_id: int, title: str, language: str, base_url: str) -> str:
    """Queues the planillas of ``mesa_ids`` (of one championship) as one PDF; returns the job id."""
    _clean_old()
    record: Job = {
        "id": uuid.uuid4().hex,
        "championship": championship_id,
        "user": user_id,
        "title": title,
        "language": language,
        "total": len(mesa_ids),
        "done": 0,
        "status": "queued",
        "error": "",
    }
    _write(record)
    thread = threading.Thread(
        target=run, args=(record, mesa_ids, base_url), daemon=True, name=f"planillas-{record['id'][:8]}"
    )
    thread.start()
    return record["id"]


def run(record: Job, mesa_ids: list[int], base_url: str) -> None:
    """Renders the job (in its thread): HTML here, PDFs in the processes."""
    # WeasyPrint and pikepdf take time to import: only a print job pays for them.
    import pikepdf

    from refereeing.planilla import pdf as planilla_pdf

    with _LOCK:
        try:
            close_old_connections()
            record["status"] = "running"
            _write(record)
            mesas = planilla.mesas_for_print().in_bulk(mesa_ids)
            pages = {}
            workers = max(1, min(os.cpu_count() or 1, len(mesa_ids)))
            with ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=planilla_pdf.lower_priority
            ) as pool:
                futures = {}
                for index, mesa_id in enumerate(mesa_ids):
                    mesa = mesas.get(mesa_id)
                    kept = None if mesa is None else store.stored(mesa, base_url, record["language"])
                    if kept is not None:  # ready and current: no rendering (``store``)
                        pages[index] = kept
                        record["done"] += 1
                    elif mesa is not None:
                        sheet = planilla.build(mesa, base_url, record["language"])
                        futures[pool.submit(planilla_pdf.render, printed.html(sheet))] = (index, mesa, sheet.code)
                    else:  # deleted since the job started: nothing to print
                        record["done"] += 1
                _write(record)
                for future in as_completed(futures):
                    index, mesa, code = futures[future]
                    pages[index] = future.result()
                    store.keep(mesa, code, base_url, record["language"], pages[index])
                    record["done"] += 1
                    _write(record)
            joined = pikepdf.Pdf.new()
            for index in sorted(pages):
                joined.pages.extend(pikepdf.Pdf.open(BytesIO(pages[index])).pages)
            target = pdf_path(record["id"])
            temporary = target.with_suffix(".pdf.tmp")
            joined.save(temporary)
            os.replace(temporary, target)
            record["status"] = "done"
        except Exception as error:  # the page must say the job failed, not spin forever
            record["status"] = "failed"
            record["error"] = type(error).__name__
            raise
        finally:
            _write(record)
            connections.close_all()
