"""The seals of signed scoresheets (issue 27, item 5): each digest a sheet is signed, corrected
or anonymised with is signed with the server's Ed25519 key (tournament/sealkey.py) as one link
of the tournament's chain: the link names the sheet, the digest, the time and the signature of
the link before it, so that rewriting a sheet, or a seal, breaks its own seal and every later
one. Anyone can check a chain with the public key, ``json`` and ``cryptography`` (README, "The
digest of a signed scoresheet"); ``verify``, the sheet page and the board check it here."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from ..sealkey import public_key, sign, valid
from ..tournaments.models import Tournament
from .models import Scoresheet, Seal

logger = logging.getLogger(__name__)


def message(link: dict) -> bytes:
    """The bytes a seal's signature covers: its link as canonical JSON."""
    return json.dumps(link, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(sheet: Scoresheet, kind: str) -> Seal:
    """Seal the sheet's stored digest as the next link of its tournament's chain (inside the
    caller's transaction; the tournament's row is locked so that links follow one another).
    FOR NO KEY UPDATE: it waits for another sealer, not for the other writes of the tournament
    whose rows reference it (their key-share locks when they commit)."""
    tournament = Tournament.objects.select_for_update(no_key=True).get(pk=sheet.match.tournament_id)
    last = Seal.objects.filter(tournament=tournament).order_by("-sequence").first()
    link = Seal(
        tournament=tournament,
        scoresheet=sheet,
        sequence=last.sequence + 1 if last else 1,
        match=sheet.match.number,
        draw=sheet.match.draw,
        table=sheet.table.number,
        kind=kind,
        digest=sheet.digest,
        at=timezone.now().isoformat(),
        previous=last.signature if last else "",
        key=public_key(),
    )
    if last is not None and last.key != link.key:
        # Valid still (each seal names its key), but no longer one key for the site: with several
        # machines, one without the shared seal key made its own (README "Several machines").
        logger.error(
            "Seal %s of %s is made with the key %s…, seal %s before it with %s…: is SEAL_KEY_FILE "
            "the same on every machine?",
            link.sequence, tournament.slug, link.key[:16], last.sequence, last.key[:16],
        )  # fmt: skip
    link.signature = sign(message(link.link()))
    link.save()
    return link


@dataclass
class Chain:
    """A tournament's seals, read once: by sequence, and each sheet's last one."""

    links: list[Seal]
    by_sequence: dict[int, Seal] = field(default_factory=dict)
    current: dict[int, Seal] = field(default_factory=dict)  # scoresheet id → its last seal

    def __post_init__(self) -> None:
        for link in self.links:
            self.by_sequence[link.sequence] = link
            if link.scoresheet_id is not None:
                self.current[link.scoresheet_id] = link

    @classmethod
    def of(cls, tournament_id: int) -> Chain:
        return cls(list(Seal.objects.filter(tournament_id=tournament_id).order_by("sequence")))


def link_problems(link: Seal, chain: Chain) -> list[str]:
    """What is wrong with one link: its signature, and whether it follows the link before it."""
    found = []
    values = {"seal": link.sequence, "before": link.sequence - 1}
    if not valid(link.key, link.signature, message(link.link())):
        found.append(
            _(
                "Seal %(seal)s: its signature does not fit what it seals: the seal (its digest, "
                "sheet, time or predecessor) was changed after it was made."
            )
            % values
        )
    before = chain.by_sequence.get(link.sequence - 1)
    if link.sequence > 1 and before is None:
        found.append(_("Seal %(seal)s: seal %(before)s before it is missing: it was removed.") % values)
    elif (before.signature if before else "") != link.previous:
        found.append(
            _("Seal %(seal)s does not follow seal %(before)s: seal %(before)s was changed after it.") % values
        )
    return found


def sheet_seal_problems(sheet: Scoresheet, recomputed: str, chain: Chain) -> list[str]:
    """What is wrong with a signed sheet's seal: missing where it must be, not the digest of
    the content, broken itself or in the chain before it."""
    link = chain.current.get(sheet.pk)
    if link is None:
        if not old_digest_only(sheet, chain):
            return [_("The sheet is signed, but its seal is missing: it was removed.")]
        return []
    found = []
    if link.digest != sheet.digest or recomputed != link.digest:
        found.append(
            _("The content differs from what seal %(seal)s sealed: the sheet was changed after it.")
            % {"seal": link.sequence}
        )
    return found + link_problems(link, chain)


def old_digest_only(sheet: Scoresheet, chain: Chain) -> bool:
    """A sheet signed before seals existed: its digest, in an earlier form, and no seal; not so
    when its digest is of the sealed form or it was locked after its tournament's first seal."""
    return bool(
        sheet.digest
        and sheet.pk not in chain.current
        and sheet.digest_version < 3
        and not (chain.links and _locked_after(sheet, chain.links[0]))
    )


def _locked_after(sheet: Scoresheet, link: Seal) -> bool:
    """Whether a sheet without a seal was locked after a seal of its tournament was made: then
    it was sealed too, and its seal went."""
    return bool(sheet.locked_at and link.at and sheet.locked_at.isoformat() > link.at)


def chain_problems(chain: Chain) -> list[tuple[Seal, str]]:
    """The problems of the links no sheet holds as its current seal (superseded by a correction
    or an anonymisation, or of a sheet gone): the current ones are checked with their sheets."""
    current = {link.pk for link in chain.current.values()}
    found = []
    for link in chain.links:
        if link.pk not in current:
            found.extend((link, text) for text in link_problems(link, chain))
    return found


def keys_used(links: Iterable[Seal]) -> dict[str, list[int]]:
    """The public keys of the links, each with the sequence numbers it sealed."""
    keys: dict[str, list[int]] = {}
    for link in links:
        keys.setdefault(link.key, []).append(link.sequence)
    return keys
