"""Printing many planillas as one PDF, without blocking the web server.

A round of a big championship is dozens of planillas; WeasyPrint takes a
fraction of a second for each, so a request that rendered them all would
hold a gunicorn worker (and the browser) for many seconds. Instead:

- the request writes a *job record* (``MEDIA_ROOT/planillas/<job>.json``)
  and starts a background thread in the same process, then redirects to a
  page that polls the record and shows the progress;
- the thread renders each planilla, rewrites the record after each one, and
  joins them into ``MEDIA_ROOT/planillas/<job>.pdf`` (written to a temporary
  name first, then renamed, so a half-written PDF is never served).

The record is a file, not a table: any worker of a single gunicorn box can
read it, it needs no migration, and it behaves the same on SQLite and
PostgreSQL (the thread only reads the database). Each planilla keeps its own
page numbers ("Página 1 de 2") because each is laid out on its own before
the pages are joined. One lock per process runs the jobs one at a time: on
a small box two renders at once are slower than one after the other. If the
process dies mid-job the record stops changing; after ``STALE_SECONDS`` the
page says so and the user starts again. Old jobs are deleted after a day.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections

from refereeing import planilla

STALE_SECONDS = 120
KEEP_SECONDS = 24 * 3600
_JOB_ID = re.compile(r"[0-9a-f]{32}")
_LOCK = threading.Lock()


def folder() -> Path:
    path = Path(settings.MEDIA_ROOT) / "planillas"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write(record: dict) -> None:
    record["updated"] = time.time()
    target = folder() / f"{record['id']}.json"
    temporary = target.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(record))
    os.replace(temporary, target)


def read(job: str) -> dict | None:
    """The job's record, or None for an unknown or malformed id."""
    if not _JOB_ID.fullmatch(job or ""):
        return None
    try:
        record = json.loads((folder() / f"{job}.json").read_text())
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


def start(mesa_ids: list[int], *, user_id: int, title: str, language: str, base_url: str) -> str:
    """Queues the planillas of ``mesa_ids`` as one PDF; returns the job id."""
    _clean_old()
    record = {"id": uuid.uuid4().hex, "user": user_id, "title": title, "language": language,
              "total": len(mesa_ids), "done": 0, "status": "queued", "error": ""}
    _write(record)
    thread = threading.Thread(target=run, args=(record, mesa_ids, base_url), daemon=True,
                              name=f"planillas-{record['id'][:8]}")
    thread.start()
    return record["id"]


def run(record: dict, mesa_ids: list[int], base_url: str) -> None:
    """Renders the job (in its thread): one planilla after the other."""
    with _LOCK:
        try:
            close_old_connections()
            record["status"] = "running"
            _write(record)
            mesas = planilla.mesas_for_print().in_bulk(mesa_ids)
            documents = []
            for mesa_id in mesa_ids:
                if mesa_id in mesas:
                    sheet = planilla.build(mesas[mesa_id], base_url, record["language"])
                    documents.append(planilla.document(sheet))
                record["done"] += 1
                _write(record)
            target = pdf_path(record["id"])
            temporary = target.with_suffix(".pdf.tmp")
            pages = [page for document in documents for page in document.pages]
            if pages:
                documents[0].copy(pages).write_pdf(temporary)
                os.replace(temporary, target)
            record["status"] = "done"
        except Exception as error:  # the page must say the job failed, not spin forever
            record["status"] = "failed"
            record["error"] = type(error).__name__
            raise
        finally:
            _write(record)
            connections.close_all()
