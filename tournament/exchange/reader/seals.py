"""``seals``: the tournament's chain of seals and the public key of the server that wrote the
document (issue 27, added fields other readers ignore). Every link must be signed by the key it
names and follow the one before it; the importer then checks each signed sheet against its
last seal (results/seals.py)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from ...results.models import Seal
from ...results.seals import Chain, link_problems
from ...sealkey import KEY_HEX, SIGNATURE_HEX
from .base import DIGEST, MAX_SMALL, _Reader

KEY = re.compile(rf"[0-9a-f]{{{KEY_HEX}}}")
SIGNATURE = re.compile(rf"[0-9a-f]{{{SIGNATURE_HEX}}}")


class SealsReader(_Reader):
    """The seals: one part of ``document._DocumentReader`` (after the matches)."""

    def seals(self) -> None:
        self.seal_links: list[Seal] = []
        seals = self.document.get("seals")
        if seals is None:
            return
        seals = self.obj(seals, "", "seals")
        if seals.get("key") is not None and not (
            isinstance(seals["key"], str) and KEY.fullmatch(seals["key"])
        ):
            self.error(_("Seals"), _("the public key must be 64 hexadecimal digits."))
        for index, item in enumerate(self.array(seals.get("chain"), "", "chain")):
            where = _("Seal %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "seal")
            errors = len(self.errors)
            link = Seal(
                sequence=self.integer(item.get("sequence"), where, _("The number of the seal")),
                match=self.integer(item.get("match"), where, _("The match"), 1, MAX_SMALL),
                draw=self.integer(item.get("draw", 1), where, _("The draw"), 1, MAX_SMALL),
                table=self.integer(item.get("table"), where, _("The table"), 1, MAX_SMALL),
                kind=self.choice(item.get("kind"), Seal.Kind.values, where, "kind"),
                digest=self._hex(item.get("digest"), DIGEST, where, "digest"),
                at=self.text(item.get("at"), where, _("The time of the seal"), 40),
                previous=self._hex(item.get("previous"), SIGNATURE, where, "previous", empty=True),
                key=self._hex(item.get("key"), KEY, where, "key"),
                signature=self._hex(item.get("signature"), SIGNATURE, where, "signature"),
            )
            if len(self.errors) == errors and link.sequence != index + 1:
                self.error(where, _("the seals are numbered 1, 2, 3, … in their order."))
            self.seal_links.append(link)
        if self.errors:
            return
        chain = Chain(self.seal_links)
        for link in self.seal_links:
            for text in link_problems(link, chain):
                self.error(_("Seals"), text)

    def _hex(self, value, pattern: re.Pattern, where: str, what: str, empty: bool = False) -> str:
        if empty and value == "":
            return ""
        if not isinstance(value, str) or not pattern.fullmatch(value):
            self.error(where, _("The field “%(what)s” must be hexadecimal digits.") % {"what": what})
            return ""
        return value
