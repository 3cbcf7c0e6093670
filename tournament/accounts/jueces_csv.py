"""Jueces in bulk: their accounts from a CSV file, checked row by row before anything is saved, as the pairs'.

The file
--------
One juez a row, under a header naming the columns (Spanish, any case,
accents optional; ``,`` or ``;`` as separator; read as every import reads,
``tournament.csv_files``):

``nombre`` (required), ``apellido`` (required), ``usuario`` (required: the
username the juez signs in with), ``clave`` (optional: the password, at
least as long as the site asks; empty, the account has none until the
organiser sets one on the jueces page, and the juez referees at the tables
opened with their PIN).

Bounds, stated on the page: at most :data:`MAX_JUECES` rows and
:data:`MAX_CSV_BYTES` in all, checked before the rows are. A pool of
jueces is a few dozen; each password given is hashed as the site hashes
every password (PBKDF2, deliberately slow: about a third of a second each
on a quiet machine), so a file of the largest size with every password
takes about a minute, which is why the bound is low.

Every name is clean text of its kind (``engines.text``) and fits
its column; every username passes the account's own validators (Django's
characters, and none that people would read as another account's:
``tournament.validators.UsernameValidator``), and two rows of the file may
not name one account either. Every bad row is reported with its line and
why; the confirmation imports the good ones, re-read and re-checked under
the lock of the jueces' group, so that two confirmations at once give one
import. Each new juez is in the pool and available today, as one made by
the form (``accounts.make_juez``), each account audited as a save.

The template to fill in is the header row in either style (:func:`template`).
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from audit.context import acting
from engines.lookalikes import key as name_key
from engines.text import TextError, check_text
from tournament import csv_files
from tournament.csv_files import Preview
from tournament.language import speak
from tournament.locking import locked

from .accounts import JUECES_GROUP, make_juez

COLUMNS = ("nombre", "apellido", "usuario", "clave")
REQUIRED = ("nombre", "apellido", "usuario")
MAX_JUECES = 200
MAX_CSV_BYTES = 64 * 1024
FIELDS = {"nombre": "first_name", "apellido": "last_name", "usuario": "username"}


@dataclass
class JuezRow:
    line: int
    values: dict


def read(data: bytes) -> Preview:
    """Check a CSV file of jueces; see the module docstring."""
    text, notice = csv_files.decode(data)
    return check(text, notice)


def check(text, notice=""):
    preview = Preview(text=text, notice=notice)
    found = csv_files.records(
        preview,
        COLUMNS,
        REQUIRED,
        MAX_JUECES,
        lambda rows: (
            _("The file has %(n)d rows; a file of jueces has at most %(max)d.") % {"n": rows, "max": MAX_JUECES}
        ),
    )
    if found is None:
        return preview
    taken = {}
    for line, values in found:
        row = JuezRow(line, values)
        reasons = _reasons(row)
        key = name_key(values["usuario"])
        if values["usuario"] and key in taken:
            reasons.append(_("usuario repeats line %(line)d's") % {"line": taken[key]})
        taken.setdefault(key, line)
        if reasons:
            preview.errors.append((line, "; ".join(reasons)))
        else:
            preview.rows.append(row)
    if not found and not preview.errors:
        preview.errors.append((1, _("The file has no jueces.")))
    return preview


def _reasons(row):
    """What is wrong with the row on its own (another row's username is the caller's to compare)."""
    values, reasons = row.values, []
    User = get_user_model()
    for column, name in FIELDS.items():
        try:
            values[column] = check_text(
                values[column],
                "name",
                field=column,
                required=False,
                max_length=User._meta.get_field(name).max_length,
            )
        except TextError as error:
            reasons.append(speak(error))
    for column in REQUIRED:
        if not values[column]:
            reasons.append(_("%(column)s is empty") % {"column": column})
    if reasons:
        return reasons
    values["usuario"] = User.normalize_username(values["usuario"])
    account = User(username=values["usuario"], first_name=values["nombre"], last_name=values["apellido"])
    try:
        # The account's own validators, the model's unique username among them.
        account.full_clean(exclude=["password"])
    except ValidationError as error:
        reasons += [f"{column}: {message}" for column, message in _messages(error)]
    if values["clave"]:
        try:
            password_validation.validate_password(values["clave"], account)
        except ValidationError as error:
            reasons += [f"clave: {message}" for message in error.messages]
    return reasons


def _messages(error):
    columns = {name: column for column, name in FIELDS.items()}
    for name, messages in error.message_dict.items():
        for message in messages:
            yield columns.get(name, name), message


def save(text, *, by, address=None):
    """Make the accounts of the good rows of ``text`` (a previewed file): ``(preview, jueces made)``; the lines
    with errors are left out, listed in the preview, to be fixed and imported again.

    The passwords are hashed first, outside the lock; then the file is checked again under the lock of the
    jueces' group, against the accounts made by then: of two confirmations at once, one imports and the other
    gets the rows it would repeat as errors, never a failure. ``by`` (from ``address``) is named in each entry.
    """
    hashed = {}
    for row in check(text).rows:
        if row.values["clave"]:
            account = get_user_model()(username=row.values["usuario"])
            account.set_password(row.values["clave"])
            hashed[row.values["usuario"]] = account.password
    try:
        with transaction.atomic(), acting(by, address):
            group, _created = Group.objects.get_or_create(name=JUECES_GROUP)
            list(locked(Group.objects.filter(pk=group.pk)).values_list("pk", flat=True))
            preview = check(text)
            made = [_make(row, hashed) for row in preview.rows]
    except IntegrityError:
        # An account saved meanwhile by a form, which takes no lock: the import is refused whole; the new
        # preview says why.
        return check(text), []
    return preview, made


def _make(row, hashed):
    values = row.values
    User = get_user_model()
    juez = User(username=values["usuario"], first_name=values["nombre"], last_name=values["apellido"])
    if values["usuario"] in hashed:
        juez.password = hashed[values["usuario"]]
    else:
        juez.set_unusable_password()
    juez.save()
    make_juez(juez)
    return juez


def template(style="excel") -> bytes:
    """The file to fill in: the header row alone, in ``style``."""
    return csv_files.write(style, COLUMNS, [])
