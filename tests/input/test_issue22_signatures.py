"""Issue 22 point 3: a signature is decoded whole whatever another library set.

WeasyPrint sets ``PIL.ImageFile.LOAD_TRUNCATED_IMAGES = True`` for the whole
process when it is imported, so once a worker had rendered a planilla Pillow
padded a truncated PNG with blank rows and the API stored it (201). An
animated PNG was stored as sent: a browser plays frames the ink check never
saw. Each case is posted with the global set, as in such a worker.
"""

import base64
import io
import struct
import zlib

import pytest
from PIL import Image, ImageFile

from refereeing.models import Signature
from tests.support.claims import api_client, data_url, png
from tests.support.planilla_factories import signature_png

from .test_issue11_input import finish, sign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def truncated_images_loaded(monkeypatch):
    """The process as WeasyPrint leaves it."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)


def chunks(data):
    """The PNG's chunks as (type, data), in order."""
    position, found = 8, []
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        found.append((data[position + 4 : position + 8], data[position + 8 : position + 8 + length]))
        position += 12 + length
    return found


def assembled(found):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return b"\x89PNG\r\n\x1a\n" + b"".join(chunk(kind, body) for kind, body in found)


def drawn():
    """The bytes of a real drawing, as the tablet sends it."""
    return base64.b64decode(signature_png().removeprefix("data:image/png;base64,"))


def pixel_data_cut(data, keep=0.3):
    """``data`` with its compressed pixel data cut to ``keep`` of it, every chunk still well-formed."""
    found = chunks(data)
    pixels = b"".join(body for kind, body in found if kind == b"IDAT")
    cut = pixels[: int(len(pixels) * keep)]
    rest = [(kind, body) for kind, body in found if kind != b"IDAT"]
    return assembled(rest[:-1] + [(b"IDAT", cut)] + rest[-1:])


def animated():
    """Two frames: the first a drawing, the second anything else."""
    first = Image.open(io.BytesIO(drawn())).convert("RGBA")
    second = Image.new("RGBA", first.size, (255, 0, 0, 255))
    buffer = io.BytesIO()
    first.save(buffer, "PNG", save_all=True, append_images=[second], duration=500, loop=0)
    return buffer.getvalue()


def refilled(data, recompress):
    """``data`` with its pixel data decompressed and recompressed as ``recompress`` says."""
    found = chunks(data)
    raw = zlib.decompress(b"".join(body for kind, body in found if kind == b"IDAT"))
    rest = [(kind, body) for kind, body in found if kind != b"IDAT"]
    return assembled(rest[:-1] + [(b"IDAT", recompress(raw))] + rest[-1:])


def interlaced(width=40, height=30, cut=0):
    """A greyscale Adam7 PNG, black, built by hand (Pillow writes no interlaced PNG); ``cut`` bytes short."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for column, row, column_step, row_step in passes:
        columns, rows = len(range(column, width, column_step)), len(range(row, height, row_step))
        if columns:
            raw += (b"\x00" + b"\x00" * columns) * rows
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 1)
    return assembled([(b"IHDR", header), (b"IDAT", zlib.compress(raw[: len(raw) - cut])), (b"IEND", b"")])


def test_pillow_reads_the_interlaced_file_as_built(monkeypatch):
    """The hand-built file is what Pillow expects: whole it decodes, a byte short it does not."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", False)
    assert Image.open(io.BytesIO(interlaced())).convert("L").getextrema() == (0, 0)
    with pytest.raises(OSError):
        Image.open(io.BytesIO(interlaced(cut=1))).load()


def test_the_global_is_what_weasyprint_leaves():
    import weasyprint  # noqa: F401  (its import is what sets the global)

    assert ImageFile.LOAD_TRUNCATED_IMAGES is True


@pytest.mark.parametrize(
    "image",
    [
        pixel_data_cut(drawn()),
        drawn()[: len(drawn()) * 3 // 10],
        pixel_data_cut(png(width=40, height=30)),
        refilled(drawn(), lambda raw: zlib.compress(raw[: len(raw) // 2])),
        refilled(drawn(), lambda raw: zlib.compress(raw + b"\x00" * 10)),
        refilled(drawn(), lambda raw: zlib.compress(b"\x07" + raw[1:])),
        interlaced(cut=1),
        drawn() + b"\x00",
    ],
    ids=[
        "pixel data cut to 30%",
        "file cut to 30%",
        "greyscale pixel data cut",
        "half the rows, stream complete",
        "rows beyond the last",
        "unknown row filter",
        "interlaced, a byte short",
        "a byte after IEND",
    ],
)
def test_a_truncated_signature_is_refused_whatever_the_process_set(mesa, people, image):
    """Issue 22 repro: with LOAD_TRUNCATED_IMAGES set, a PNG cut to 30% was stored (201)."""
    finish(mesa)
    response = sign(api_client(people["juez"]), mesa, image=data_url(image))
    assert response.status_code == 400, response.content
    assert "damaged or incomplete" in response.json()["detail"]
    assert not Signature.objects.exists()


def test_an_animated_signature_is_refused(mesa, people):
    """Issue 22 repro: an animated PNG was stored as sent, its later frames never checked."""
    finish(mesa)
    response = sign(api_client(people["juez"]), mesa, image=data_url(animated()))
    assert response.status_code == 400, response.content
    assert "single still image" in response.json()["detail"]
    assert not Signature.objects.exists()


def test_the_animation_refusal_speaks_spanish(mesa, people):
    finish(mesa)
    client = api_client(people["juez"])
    client.get("/cuenta/entrar/")
    response = client.post(
        f"/api/mesas/{mesa.pk}/signatures/",
        {"role": "A", "name": "Los Ases uno", "image": data_url(animated())},
        format="json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "La firma debe ser una sola imagen fija, no una animación."


@pytest.mark.parametrize(
    "image",
    [drawn(), png(), png(width=40, height=30), interlaced(), interlaced(width=3, height=1)],
    ids=["drawing", "tiny greyscale", "greyscale", "interlaced", "interlaced, passes without pixels"],
)
def test_a_whole_signature_still_signs(mesa, people, image):
    finish(mesa)
    response = sign(api_client(people["juez"]), mesa, image=data_url(image))
    assert response.status_code == 201, response.content
    assert Signature.objects.get().image == data_url(image)
