"""Retention of signed scoresheets (5.3.5): kept for 6 months after the tournament, until the
tournament's retention date; after it, personal data goes: names (also those a signed sheet
keeps as signed, ``signed_as``), clubs, dates of birth (substitutes' too), signatures and their
images, scans, who did what.

A signed sheet changes with it, so its digest would no longer hold: it is sealed again (issue
27, item 8), as a link of kind ``anonymised`` chained on to the tournament's seals, over the
anonymised content, in which every player is the stable pseudonym of his start number
("Teilnehmer 12", as the participant). ``verify`` then checks the anonymised sheet against that
seal; the earlier seals keep their place in the chain and are still checked there, but their
content is gone, as retention wants. Whether the sheets held before is recorded in the log
entry of the anonymisation (``differences``), so that the new seal launders nothing unseen."""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import CharField, Q, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..i18n import stored_text
from ..jobs.models import Job
from ..participants.models import Participant, Substitution
from ..results.document import DIGEST_VERSION, sheet_digest, signed_as
from ..results.models import CORRECTED, Approval, Correction, Scoresheet, Seal, Signature
from ..results.seals import seal
from ..results.verify import findings
from ..series.models import Person
from ..tablephone.models import ApprovalCall, PhoneReceipt
from ..tournaments.audit import record
from ..tournaments.models import GAME_ACTIONS, LogEntry, Tournament


@dataclass
class Purged:
    tournament: str
    retention_until: datetime.date
    deleted: bool = False
    participants: int = 0
    signatures: int = 0
    scans: int = 0
    persons: int = 0  # of the player register, gone with the last of their tournaments


def expired(today: datetime.date | None = None):
    """Tournaments whose retention date has passed; today's and later ones are kept."""
    today = today or timezone.localdate()
    return Tournament.objects.filter(retention_until__lt=today).order_by("retention_until")


def anonymous_name():
    """What an anonymised participant is called: "Teilnehmer 12" for start number 12."""
    prefix = stored_text(_("Participant %(n)s")).split("%(n)s")[0]
    return Concat(Value(prefix), Cast("number", CharField()))


def anonymous_person_name():
    """What an anonymised person of the register is called: "Spieler 7" for the 7th entered."""
    prefix = stored_text(_("Player %(n)s")).split("%(n)s")[0]
    return Concat(Value(prefix), Cast("id", CharField()))


def _persons_due(person_ids, today: datetime.date):
    """Persons of the register, still holding personal data, whose every tournament is past its
    retention date (or deleted): they are anonymised with the last of them."""
    kept = Participant.objects.filter(person__in=person_ids, tournament__retention_until__gte=today)
    return (
        Person.objects.filter(pk__in=person_ids)
        .exclude(pk__in=kept.values("person_id"))
        .exclude(Q(name=anonymous_person_name()) & Q(club="") & Q(birth_date__isnull=True))
    )


def _identifiable(participants):
    """Participants still holding personal data: a second purge has nothing left to report."""
    return participants.exclude(Q(name=anonymous_name()) & Q(club="") & Q(birth_date__isnull=True))


@transaction.atomic
def purge(tournament: Tournament, delete: bool = False, dry_run: bool = False) -> Purged:
    """Anonymise a tournament past retention (names, clubs, dates of birth, signatures, scans,
    names in histories), keeping its results; or delete it whole."""
    today = timezone.localdate()
    if tournament.retention_until >= today:
        raise ValueError(f"{tournament.slug} is kept until {tournament.retention_until}")
    sheets = Scoresheet.objects.filter(match__tournament=tournament)
    report = Purged(
        tournament=tournament.name,
        retention_until=tournament.retention_until,
        deleted=delete,
        participants=_identifiable(tournament.participants.all()).count(),
        signatures=Signature.objects.filter(scoresheet__in=sheets).exclude(name="").count(),
        scans=sheets.exclude(paper_scan="").count(),
    )
    person_ids = list(
        tournament.participants.filter(person__isnull=False).values_list("person_id", flat=True).distinct()
    )
    report.persons = _persons_due(person_ids, today).count()
    if dry_run:
        return report
    scans = [sheet.paper_scan for sheet in sheets.exclude(paper_scan="")]
    # The files of background jobs (scoresheets, workbooks) hold the names too: they go.
    jobs = Job.objects.filter(tournament=tournament)
    scans += [job.file for job in jobs.exclude(file="")]
    jobs.delete()
    if delete:
        tournament.delete()
    else:
        differences = len(findings(sheets.filter(digest__gt="")))  # before anything changes
        tournament.participants.update(name=anonymous_name(), club="", birth_date=None)
        Substitution.objects.filter(participant__tournament=tournament).update(
            name=stored_text(_("Substitute")), club="", birth_date=None
        )
        Signature.objects.filter(scoresheet__in=sheets).update(name="", image="", recorded_by=None)
        Approval.objects.filter(scoresheet__in=sheets).update(approved_by=None, approved_by_name="")
        # The phones' receipts repeat the messages (with names); the calls name the supervisor.
        PhoneReceipt.objects.filter(scoresheet__in=sheets).delete()
        ApprovalCall.objects.filter(scoresheet__in=sheets).update(answered_by=None, answered_by_name="")
        _anonymise_log(tournament)
        sheets.update(paper_scan="", void_reason="")
        resealed = _seal_anonymised(sheets)
        # The names on the standings change: recorded without a name of its own (5.3.5).
        record(
            tournament,
            None,
            "tournament.anonymise",
            participants=report.participants,
            resealed=resealed,
            differences=differences,
        )
    _persons_due(person_ids, today).update(name=anonymous_person_name(), club="", birth_date=None)
    transaction.on_commit(lambda: [scan.storage.delete(scan.name) for scan in scans])
    return report


def anonymous_signed_as(signed_as: dict) -> dict:
    """What a sheet keeps as signed, each player the pseudonym of his start number."""
    prefix = stored_text(_("Participant %(n)s")).split("%(n)s")[0]
    return {
        **signed_as,
        "seats": [{**seat, "name": f"{prefix}{seat['number']}"} for seat in signed_as.get("seats", [])],
    }


def _seal_anonymised(sheets) -> int:
    """Each signed sheet whose content the anonymisation changed, or which has no seal yet,
    gets the digest of its anonymised content and a seal of kind ``anonymised``; a second run
    changes nothing and seals nothing."""
    resealed = 0
    for sheet in (
        sheets.filter(digest__gt="")
        .select_related("match", "table")
        .order_by("match__number", "match__draw", "table__number")
    ):
        # (a sheet signed before signed_as was kept: its players as they stand, anonymised)
        sheet.signed_as = anonymous_signed_as(sheet.signed_as or signed_as(sheet))
        version, sheet.digest_version = sheet.digest_version, DIGEST_VERSION
        digest = sheet_digest(sheet)
        if digest == sheet.digest and version == DIGEST_VERSION and sheet.seals.exists():
            continue
        sheet.digest = digest
        sheet.save(update_fields=["signed_as", "digest_version", "digest"])
        seal(sheet, Seal.Kind.ANONYMISED)
        resealed += 1
    return resealed


def _anonymise_log(tournament: Tournament) -> None:
    """Who did what goes; what a game was before and after stays (no personal data in it), and
    of a correction only the reason and the supervisor's initials go."""
    log = LogEntry.objects.filter(tournament=tournament)
    log.update(user=None, user_name="")
    log.exclude(action__in=(*GAME_ACTIONS, CORRECTED)).update(data={})
    corrections = list(Correction.objects.filter(tournament=tournament))
    for correction in corrections:
        correction.data = {**correction.data, "reason": "", "initials": ""}
    LogEntry.objects.bulk_update(corrections, ["data"])


UPLOAD_HOURS = 24


def forget_uploads(folder: Path, hours: int = UPLOAD_HOURS) -> int:
    """Uploaded tournament documents nobody imported: they hold names and dates of birth."""
    if not folder.exists():
        return 0
    limit = time.time() - hours * 3600
    old = [path for path in folder.glob("*.json") if path.stat().st_mtime < limit]
    for path in old:
        path.unlink(missing_ok=True)
    return len(old)
