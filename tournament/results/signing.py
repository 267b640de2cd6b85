"""Signing, locking, correcting and voiding scoresheets (5.3.2, 5.3.4, 5.3.6).

A complete sheet is signed by its players (four, or five at a table of five), on the signature
pad or on the paper original the referee records. With the last signature it is locked and a
SHA-256 digest of its canonical content is stored and sealed with the server's key as the next
link of the tournament's chain (results/seals.py). After that only a supervisor changes it, with
a reason; the old value stays visible and the new digest is recorded and sealed."""

from __future__ import annotations

import base64
import binascii
import io
import warnings

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageOps

from scoring.entries import Entry

from ..errors import ServiceError
from ..storage import MAX_SCAN_BYTES, PNG_MAGIC, scan_suffix
from ..tournaments.audit import record_sheet
from ..tournaments.permissions import Perm, require, within_scope
from .document import DIGEST_VERSION, sheet_digest, signed_as
from .effects import Cause
from .models import Correction, Scoresheet, Seal, Signature
from .seals import seal
from .services import StaleSheet, check_version, enter, locked_sheet, score
from .store import entries_of
from .writing import rewrite

MAX_SIGNATURE_BYTES = 300_000
MAX_SIGNATURE_SIZE = (2000, 1000)  # pixels: the pad draws 480 x 160


def _signable(sheet: Scoresheet, expected_version: int | None) -> Scoresheet:
    """The sheet locked for a signature, refused unless it is still the one the players read
    (5.3.2: they sign what they checked). The version is required: a signature sent without it
    (an old page, a hand-made request) could sign a sheet another write changed meanwhile."""
    sheet = locked_sheet(sheet)
    if expected_version is None or expected_version != sheet.version:
        raise StaleSheet(
            _(
                "The scoresheet was changed meanwhile (or the page is out of date): please "
                "check the sheet again, then sign."
            )
        )
    if sheet.status == Scoresheet.Status.SIGNED:
        raise ServiceError(_("This scoresheet is already signed and locked."))
    if sheet.status != Scoresheet.Status.COMPLETE:
        raise ServiceError(
            _(
                "Only a complete scoresheet is signed: every game entered and "
                "every checksum zero (5.3.2, 5.3.3)."
            )
        )
    return sheet


def _player(sheet: Scoresheet, position: int) -> str:
    seat = sheet.table.seats.select_related("participant").filter(position=position).first()
    if seat is None:
        raise ServiceError(_("Seat %(seat)s does not exist.") % {"seat": position})
    rules = sheet.match.tournament.rules
    return seat.participant.player_name(sheet.match.number, rules.games_for(sheet.size))


def _lock_when_signed(sheet: Scoresheet, user) -> None:
    if sheet.signatures.count() == sheet.size:  # all four, or all five at a table of five
        sheet.status = Scoresheet.Status.SIGNED
        sheet.locked_at = timezone.now()
        sheet.signed_as = signed_as(sheet)
        sheet.digest_version = DIGEST_VERSION
        sheet.digest = sheet_digest(sheet)
        sheet.version += 1
        sheet.save(update_fields=["status", "locked_at", "signed_as", "digest_version", "digest", "version"])
        link = seal(sheet, Seal.Kind.SIGNED)
        record_sheet(user, sheet, "sheet.lock", digest=sheet.digest, seal=link.sequence)


def _png(image: str) -> bytes:
    """The pad's drawing: a PNG data URL of reasonable size with something drawn on it."""
    prefix = "data:image/png;base64,"
    if not isinstance(image, str) or not image.startswith(prefix):
        raise ServiceError(_("The signature is missing."))
    try:
        data = base64.b64decode(image[len(prefix) :], validate=True)
    except (binascii.Error, ValueError):
        raise ServiceError(_("The signature could not be read.")) from None
    if not data.startswith(PNG_MAGIC) or len(data) > MAX_SIGNATURE_BYTES:
        raise ServiceError(_("The signature could not be read."))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            drawing = Image.open(io.BytesIO(data))
        if drawing.width > MAX_SIGNATURE_SIZE[0] or drawing.height > MAX_SIGNATURE_SIZE[1]:
            raise ServiceError(_("The signature could not be read."))  # before decoding it
        drawing.load()
    except ServiceError:
        raise
    except Exception:  # Pillow raises many kinds for a broken image
        raise ServiceError(_("The signature could not be read.")) from None
    # Ink: what stands out from white paper once laid on it (a blank transparent or white
    # image is no signature).
    paper = Image.new("RGBA", drawing.size, (255, 255, 255, 255))
    laid = Image.alpha_composite(paper, drawing.convert("RGBA")).convert("L")
    if ImageOps.invert(laid).point(lambda value: 255 if value > 48 else 0).getbbox() is None:
        raise ServiceError(_("The signature is empty: please sign in the box."))
    return data


@transaction.atomic
def sign_with_pad(
    user, sheet: Scoresheet, position: int, image: str, expected_version: int | None
) -> Signature:
    """A player signs on the referee's device or the table's phone (5.3.2), on the sheet at
    ``expected_version`` (the one the page showed; required, see ``_signable``)."""
    require(user, sheet.match.tournament, Perm.ENTER_RESULTS)
    within_scope(user, sheet)
    sheet = _signable(sheet, expected_version)
    _png(image)
    name = _player(sheet, position)
    if sheet.signatures.filter(position=position).exists():
        raise ServiceError(
            _("%(name)s (seat %(seat)s) has already signed.") % {"name": name, "seat": position}
        )
    signature = Signature.objects.create(
        scoresheet=sheet,
        position=position,
        name=name,
        method=Signature.Method.PAD,
        image=image,
        recorded_by=user if getattr(user, "pk", None) else None,
    )
    record_sheet(
        user,
        sheet,
        "sheet.sign",
        seat=position,
        name=name,
        method=Signature.Method.PAD,
    )
    _lock_when_signed(sheet, user)
    return signature


@transaction.atomic
def record_paper_signatures(user, sheet: Scoresheet, scan, expected_version: int | None) -> None:
    """The referee records that all players (four or five) signed the paper original, with its
    photo or scan, on the sheet at ``expected_version`` (required, as for the pad)."""
    require(user, sheet.match.tournament, Perm.ENTER_RESULTS)
    if getattr(user, "sheet_scope", None) is not None:
        raise PermissionDenied("paper signatures are recorded at the desk")
    sheet = _signable(sheet, expected_version)
    if scan is None:
        raise ServiceError(_("Attach a photo or scan of the signed paper list."))
    if sheet.signatures.exists():
        raise ServiceError(_("Some players have already signed on the pad: the others sign there too."))
    suffix = _scan_suffix(scan)
    sheet.paper_scan.save(
        f"scan{suffix}",  # stored under an unguessable name with this suffix
        scan,
        save=True,
    )
    signatures = Signature.objects.bulk_create(
        Signature(
            scoresheet=sheet,
            position=position,
            name=_player(sheet, position),
            method=Signature.Method.PAPER,
            recorded_by=user if getattr(user, "pk", None) else None,
        )
        for position in range(1, sheet.size + 1)
    )
    record_sheet(
        user,
        sheet,
        "sheet.scan",
        suffix=suffix,
        bytes=scan.size,
        names=[s.name for s in signatures],
    )
    _lock_when_signed(sheet, user)


def _scan_suffix(scan) -> str:
    """The file suffix of a photo or scan, known by its content, not its name: anything else
    (a text or web page, say, which would then be served from this site) is refused."""
    if scan.size > MAX_SCAN_BYTES:
        raise ServiceError(
            _("The scan %(name)s is larger than %(mb)s MB.") % {"name": scan.name, "mb": MAX_SCAN_BYTES >> 20}
        )
    scan.seek(0)
    head = scan.read(16)
    scan.seek(0)
    suffix = scan_suffix(head)
    if suffix:
        return suffix
    raise ServiceError(
        _("The scan must be a photo (JPEG, PNG, HEIC or WebP) or a PDF; %(name)s is none of these.")
        % {"name": scan.name}
    )


def initials_of(user) -> str:
    parts = [p for p in (user.first_name, user.last_name) if p] if hasattr(user, "first_name") else []
    if parts:
        return "".join(p[0].upper() for p in parts)
    return user.get_username()[:3].upper()


@transaction.atomic
def correct(
    user, sheet: Scoresheet, entry: Entry, reason: str, expected_version: int | None = None
) -> Correction:
    """A supervisor changes a game of a signed sheet, with a reason (5.3.4). The correction
    carries ``written``: what it changed, the later games it struck or restored too."""
    require(user, sheet.match.tournament, Perm.CORRECT)
    sheet = locked_sheet(sheet)
    check_version(sheet, expected_version)
    if sheet.status != Scoresheet.Status.SIGNED:
        raise ServiceError(
            _("Only a signed scoresheet is corrected; before signing the game is simply changed.")
        )
    if not reason.strip():
        raise ServiceError(_("A correction needs its reason (5.3.4)."))
    stored = sheet.entries.filter(number=entry.number).first()
    if stored is None:
        raise ServiceError(
            _("Game %(game)s is not entered: there is nothing to correct.") % {"game": entry.number}
        )
    before = stored.as_record()
    digest_before = sheet.digest
    entered = enter(user, sheet, entry, None, replace=True, correction=True)
    saved = entered.saved
    sheet.refresh_from_db()
    logged = record_sheet(
        user,
        sheet,
        "sheet.correct",
        game=entry.number,
        before=before,
        after=saved.as_record(),
        reason=reason.strip(),
        initials=initials_of(user),
        digest_before=digest_before,
        digest_after="",
    )
    sheet.digest_version = DIGEST_VERSION  # a sheet signed in an earlier form is sealed now
    sheet.digest = sheet_digest(sheet)  # covers the correction just recorded
    sheet.save(update_fields=["digest_version", "digest"])
    seal(sheet, Seal.Kind.CORRECTED)
    logged.data["digest_after"] = sheet.digest
    logged.save(update_fields=["data"])
    correction = Correction.objects.get(pk=logged.pk)
    correction.written = entered.written
    return correction


@transaction.atomic
def declare_void(user, sheet: Scoresheet, reason: str, expected_version: int | None = None) -> Scoresheet:
    """Management declares an illegible or incorrect sheet void (5.3.6): its games count for
    nothing, visibly."""
    require(user, sheet.match.tournament, Perm.CORRECT)
    sheet = locked_sheet(sheet)
    check_version(sheet, expected_version)
    if not reason.strip():
        raise ServiceError(_("Say why the scoresheet is void (5.3.6)."))
    if sheet.status == Scoresheet.Status.VOID:
        raise ServiceError(_("This scoresheet is already void."))
    sheet.status = Scoresheet.Status.VOID
    sheet.void_reason = reason.strip()
    sheet.save(update_fields=["status", "void_reason"])
    # Through the one writer as every write (issue 26): its games keep their points on the
    # sheet (the standings count a void sheet for nothing), so it changes no game; the writer
    # stores the new version, the void is recorded as before (record_sheet's match and table),
    # and the answer (``sheet.written``) says what changed: no other game.
    entries = entries_of(sheet)
    scored = score(sheet, entries)
    sheet.written = rewrite(
        user,
        sheet,
        scored,
        scored,
        cause=Cause.VOID,
        game=None,
        action="sheet.void",
        data={"match": sheet.match.number, "table": sheet.table.number, "reason": sheet.void_reason},
        withdraw=False,
        stored_entries=entries,
    )
    return sheet
