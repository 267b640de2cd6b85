"""What this project's writer adds to a table about signing (5.3.2-5.3.6): what was signed,
the digest, the lock, signatures, corrections, the scan of the paper original."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.utils.translation import gettext as _

from ...results.document import DIGEST_VERSION, canonical, digest_of
from ...results.models import Scoresheet
from ...storage import MAX_SCAN_BYTES, scan_suffix
from .base import DIGEST, IMAGE_PREFIX, MAX_IMAGE, _Reader
from .plan import TablePlan


class SigningReader(_Reader):
    """A table's signing: one part of ``document._DocumentReader``, called for each table."""

    def read_signing(self, m: int, table: dict, where: str, size: int, last: int) -> dict:
        """What this project's writer adds to a table about signing (5.3.2-5.3.6), at a table of
        ``size`` seats whose match has ``last`` games."""
        found: dict[str, Any] = {}
        if table.get("signed_as") is not None:
            found["signed_as"] = self.read_signed_as(table["signed_as"], where, size)
        if table.get("digest") is not None:
            digest = table["digest"]
            if not isinstance(digest, str) or not DIGEST.fullmatch(digest):
                self.error(where, _("the digest must be 64 hexadecimal digits."))
            else:
                found["digest"] = digest
            found["digest_version"] = self.integer(
                table.get("digest_version", 1), where, _("The digest version"), 1, DIGEST_VERSION
            )
        if table.get("locked_at") is not None:
            found["locked_at"] = self.moment(table["locked_at"], where, _("The time of the lock"))
        found["void_reason"] = self.text(
            table.get("void_reason"), where, _("The reason"), 2000, required=False
        )
        found["signatures"], signed = [], set()
        for index, item in enumerate(self.array(table.get("signatures"), where, "signatures")):
            place = f"{where}, " + _("signature %(n)s") % {"n": index + 1}
            item = self.obj(item, place, "signature")
            position = self.integer(item.get("position"), place, _("The seat"), 1, size)
            if position is not None and position in signed:
                self.error(place, _("seat %(seat)s has signed twice.") % {"seat": position})
            signed.add(position)
            image = self.text(item.get("image"), place, _("The signature"), MAX_IMAGE, required=False)
            found["signatures"].append(
                {
                    "position": position,
                    "name": self.text(item.get("name"), place, _("The name"), 200, required=False),
                    "method": self.choice(item.get("method"), ["pad", "paper"], place, "method"),
                    "signed_at": self.moment(item.get("signed_at"), place, _("The time of the signature")),
                    "image": image if image.startswith(IMAGE_PREFIX) else "",
                    "recorded_by": self.text(
                        item.get("recorded_by"), place, _("The user name"), 150, required=False
                    ),
                }
            )
        found["corrections"] = []
        for index, item in enumerate(self.array(table.get("corrections"), where, "corrections")):
            place = f"{where}, " + _("correction %(n)s") % {"n": index + 1}
            item = self.obj(item, place, "correction")
            before, after = item.get("before"), item.get("after")
            found["corrections"].append(
                {
                    "game": self.integer(item.get("game"), place, _("The game number"), 1, last),
                    "before": self.free(before if isinstance(before, dict) else {}, place, "before"),
                    "after": self.free(after if isinstance(after, dict) else None, place, "after"),
                    "reason": self.text(item.get("reason"), place, _("The reason"), 2000, required=False),
                    "initials": self.text(item.get("initials"), place, _("The initials"), 10, required=False),
                    "at": self.moment(item.get("at"), place, _("The time of the correction")),
                    "by": self.text(item.get("by"), place, _("Who corrected"), 150, required=False),
                    "digest_before": self.text(
                        item.get("digest_before"), place, "digest_before", 64, required=False
                    ),
                    "digest_after": self.text(
                        item.get("digest_after"), place, "digest_after", 64, required=False
                    ),
                }
            )
        return found

    def read_signed_as(self, value: Any, where: str, size: int) -> dict | None:
        value = self.obj(value, where, "signed_as")
        head = self.obj(value.get("tournament"), where, "signed_as.tournament")
        seats = self.array(value.get("seats"), where, "signed_as.seats")
        errors = len(self.errors)
        read = {
            "tournament": {
                "name": self.text(head.get("name"), where, _("The name"), 200),
                "date": self.text(head.get("date"), where, _("The date"), 10),
            },
            "seats": [
                {
                    "seat": self.integer(s.get("seat"), where, _("The seat"), 1, size),
                    "number": self.integer(s.get("number"), where, _("The start number")),
                    "name": self.text(s.get("name"), where, _("The name"), 200),
                }
                for s in (self.obj(s, where, "seat") for s in seats)
            ],
        }
        return read if len(self.errors) == errors else None

    def read_scan(self, value: Any, where: str) -> tuple[str, bytes] | None:
        """The photo or scan of the signed paper original, carried in the document (base64)."""
        if value is None:
            return None
        value = self.obj(value, where, "scan")
        if value.get("missing"):
            self.notes.append(f"{where}: " + _("the document says the scan was missing when it was written."))
            return None
        data = value.get("base64")
        if not isinstance(data, str) or len(data) > MAX_SCAN_BYTES * 4 // 3 + 4:
            self.error(
                where, _("The scan is missing or larger than %(mb)s MB.") % {"mb": MAX_SCAN_BYTES >> 20}
            )
            return None
        try:
            content = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            self.error(where, _("The scan is not valid base64."))
            return None
        suffix = scan_suffix(content[:16])
        if suffix is None:
            self.error(where, _("The scan must be a photo (JPEG, PNG, HEIC or WebP) or a PDF."))
            return None
        return suffix, content

    def check_signed(self, m: int, table: dict, plan: TablePlan, sheet, where: str) -> None:
        """A signed sheet is complete, has the signatures of all its seats (four, or five at a
        table of five) and gives its digest (5.3.2)."""
        signing = plan.signing
        if plan.status != Scoresheet.Status.SIGNED and not signing.get("digest"):
            return
        if plan.status == Scoresheet.Status.SIGNED and not sheet.complete:
            self.error(where, _("the scoresheet is marked signed but is not complete."))
        size = len(plan.seats)
        if sorted(s["position"] for s in signing["signatures"] if s["position"]) != list(range(1, size + 1)):
            if size == 5:
                self.error(where, _("a signed scoresheet has the five signatures of its seats (5.3.2)."))
            else:
                self.error(where, _("a signed scoresheet has the four signatures of its seats (5.3.2)."))
        if not signing.get("digest"):
            self.error(where, _("a signed scoresheet has its digest."))
            return
        header = signing.get("signed_as")
        if header and [seat["number"] for seat in header["seats"]] != plan.seats:
            self.error(where, _("the players on the seats differ from those who signed."))
        if signing.get("digest_version") in (2, DIGEST_VERSION):
            if not signing.get("signed_as"):
                self.error(where, _("a signed scoresheet says what was signed (signed_as)."))
            elif digest_of(canonical(m, table, signing["digest_version"])) != signing["digest"]:
                self.error(
                    where,
                    _(
                        "the content of the signed scoresheet does not give its digest: "
                        "it was changed after signing."
                    ),
                )
        # A sheet signed in the earlier form (digest version 1) is checked once it is written.
