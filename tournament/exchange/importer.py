"""Writing a checked plan of the exchange format into the database, all or nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import score_sheet

from ..draw.models import Match, Seat, Table
from ..participants.models import Participant, Substitution
from ..prizes.exchange import restore_prizes
from ..results.document import sheet_digest, signed_as
from ..results.models import CORRECTED, Approval, Scoresheet, Seal, Signature
from ..results.seals import Chain, sheet_seal_problems
from ..results.store import store_scored, with_approval
from ..standings.models import LotDraw
from ..teams.exchange import restore_teams
from ..tournaments.audit import record
from ..tournaments.models import LogEntry, StaffRole, Tournament
from ..tournaments.organisations import Organisation
from ..tournaments.permissions import organisation_for
from .reader import DocumentError, Plan, TablePlan, _place

ORGANISER = StaffRole.Role.ORGANISER


def import_plan(user, plan: Plan, organisation: Organisation | None = None) -> Tournament:
    """Write a checked plan as a new tournament of ``organisation`` (issue 29; the user's only
    one when not named, ``organisation_for``): one transaction, bulk writes. The importing
    user must be allowed to create tournaments there; the staff come back where their users exist,
    and the importing user becomes organiser unless the document already makes him one. A
    refused import leaves nothing, its scan files neither (the rollback does not remove files:
    issue 27)."""
    organisation = organisation_for(user, organisation)  # PermissionDenied, or ServiceError: which?
    scans: list[Scoresheet] = []
    try:
        return _write(user, plan, scans, organisation)
    except BaseException:
        for sheet in scans:
            sheet.paper_scan.storage.delete(sheet.paper_scan.name)
        raise


@transaction.atomic
def _write(user, plan: Plan, scans: list[Scoresheet], organisation: Organisation) -> Tournament:
    tournament = Tournament.objects.create(
        organisation=organisation,
        name=plan.name,
        slug=plan.slug,
        date=plan.date,
        venue=plan.venue,
        organiser=plan.organiser,
        profile=plan.profile.name,
        rule_overrides=plan.profile.overrides(),
        status=plan.status,
        prize_places=plan.prize_places,
        retention_until=plan.retention_until,
        check_in=plan.check_in,
    )
    users = _users(plan)
    _staff(tournament, plan, users, user)
    people = {
        p.number: p
        for p in Participant.objects.bulk_create(
            Participant(tournament=tournament, **person) for person in plan.participants
        )
    }
    restore_teams(tournament, plan.teams, people)  # issue 17
    Substitution.objects.bulk_create(
        Substitution(
            participant=people[s["number"]],
            name=s["name"],
            club=s["club"],
            birth_date=s.get("birth_date"),
            from_match=s["from_match"],
            from_game=s["from_game"],
        )
        for s in plan.substitutions
    )
    drawn = {(t.match, t.draw) for t in plan.tables}
    draws = {(d.match, d.draw): d for d in plan.draws}
    current = {d.match: d for d in plan.draws if d.discarded_at is None}
    now = timezone.now()
    matches = {}
    for number in range(1, plan.profile.matches + 1):
        draw = current.get(number)
        matches[(number, draw.draw if draw else 1)] = Match(
            tournament=tournament,
            number=number,
            draw=draw.draw if draw else 1,
            seed=draw.seed if draw else "",
            drawn_at=(draw.drawn_at or now) if draw and (number, draw.draw) in drawn else None,
        )
    for key, draw in draws.items():
        if draw.discarded_at is not None:
            matches[key] = Match(
                tournament=tournament,
                number=draw.match,
                draw=draw.draw,
                seed=draw.seed,
                drawn_at=draw.drawn_at,
                discarded_at=draw.discarded_at,
            )
    Match.all_draws.bulk_create(matches.values())
    sheets = _tables(tournament, plan, matches, people, users, scans)
    _log(tournament, plan, sheets, users)
    for lot in plan.lots:
        LotDraw.objects.create(tournament=tournament, **lot)
    restore_prizes(tournament, plan.prizes)  # issue 17
    for table, sheet in zip(plan.tables, sheets.values(), strict=True):
        if sheet.digest and not sheet.signed_as:
            # written before signed_as was kept: sealed with the names as the document has them
            sheet.signed_as = signed_as(sheet)
            sheet.save(update_fields=["signed_as"])
        if sheet.digest and sheet_digest(sheet, plan.profile) != sheet.digest:
            raise DocumentError(  # nothing is imported: the transaction is rolled back
                [
                    _place(table.match, table.number)
                    + ": "
                    + _(
                        "the content of the signed scoresheet does not give its digest: "
                        "it was changed after signing."
                    )
                ]
            )
    _restore_seals(tournament, plan, sheets)
    record(tournament, user, "tournament.import", name=tournament.name, games=plan.games)
    return tournament


def _restore_seals(tournament: Tournament, plan: Plan, sheets: dict) -> None:
    """The chain of seals as it was (issue 27), each link with the key that made it (the reader
    checked signatures and order): every signed sheet's last seal must seal its digest, and a
    sheet signed in the sealed form must have one."""
    problems = []
    for link in plan.seals:
        link.tournament = tournament
        link.scoresheet = sheets.get((link.match, link.draw, link.table))
        if link.scoresheet is None:
            problems.append(
                _("Seal %(seal)s: the document has no table %(table)s in match %(match)s.")
                % {"seal": link.sequence, "table": link.table, "match": link.match}
            )
    Seal.objects.bulk_create(plan.seals)
    chain = Chain(plan.seals)
    for (match, _draw, number), sheet in sheets.items():
        if sheet.digest:
            problems += [
                f"{_place(match, number)}: {text}" for text in sheet_seal_problems(sheet, sheet.digest, chain)
            ]
    if problems:
        raise DocumentError(problems)  # nothing is imported: the transaction is rolled back


def _users(plan: Plan) -> dict:
    """The users the document names who exist here, by username."""
    names = {username for username, _role in plan.staff}
    for table in plan.tables:
        names |= {a["username"] for a in table.approvals if a.get("username")}
        names |= {s["recorded_by"] for s in table.signing.get("signatures", []) if s.get("recorded_by")}
    names |= {line["by"] for line in plan.log if line["by"]}
    names |= {c["by"] for t in plan.tables for c in t.signing.get("corrections", []) if c.get("by")}
    return {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}


def _staff(tournament: Tournament, plan: Plan, users: dict, importer) -> None:
    """The document's staff where their users exist, and the importer organiser. A copy that
    has results carries the rule "nobody changes his own roles once results exist"
    (``tournaments.services``) from its first moment: the importer gives himself no role the
    document names for him beyond organiser (supervisor, say, would let him discard and
    correct results); another organiser of the copy grants it, in the log (issue 27)."""
    roles = {(users[username], role) for username, role in plan.staff}
    if getattr(importer, "pk", None):
        if _has_results(plan):
            withheld = sorted(role for user, role in roles if user.pk == importer.pk and role != ORGANISER)
            roles = {(user, role) for user, role in roles if user.pk != importer.pk or role == ORGANISER}
            if withheld:
                record(
                    tournament, importer, "staff.withheld", username=importer.get_username(), roles=withheld
                )
        if (importer, ORGANISER) not in roles:
            roles.add((importer, ORGANISER))
    StaffRole.objects.bulk_create(StaffRole(tournament=tournament, user=u, role=role) for u, role in roles)


def _has_results(plan: Plan) -> bool:
    """Whether the document brings a game or an approval (a discarded draw's too), as
    ``results.keeper.has_results`` will find once it is written."""
    return any(table.entries or table.approvals for table in plan.tables)


def _tables(
    tournament: Tournament, plan: Plan, matches: dict, people: dict, users: dict, scans: list
) -> dict:
    """The tables, seats, sheets, approvals, games and signing of every draw."""
    tables = Table.objects.bulk_create(
        Table(match=matches[(t.match, t.draw)], number=t.number, scorekeeper=t.scorekeeper, size=len(t.seats))
        for t in plan.tables
    )
    sheets = Scoresheet.objects.bulk_create(
        Scoresheet(
            table=table,
            match=table.match,
            status=t.status,
            digest=t.signing.get("digest", ""),
            digest_version=t.signing.get("digest_version") or 2,
            signed_as=t.signing.get("signed_as"),
            void_reason=t.signing.get("void_reason", ""),
            locked_at=t.signing.get("locked_at"),
        )
        for table, t in zip(tables, plan.tables, strict=True)
    )
    Seat.objects.bulk_create(
        (
            Seat(table=table, match=table.match, position=position, participant=people[number])
            for table, t in zip(tables, plan.tables, strict=True)
            for position, number in enumerate(t.seats, start=1)
        ),
        batch_size=2000,
    )
    Approval.objects.bulk_create(
        (
            Approval(
                scoresheet=sheet,
                number=a["game"],
                contract=a["contract"],
                approved_by=users.get(a.get("username") or ""),
                approved_by_name=a.get("by") or "",
                created=a.get("at") or timezone.now(),
                hand=a.get("hand"),
                hand_check=a.get("hand_check"),
            )
            for sheet, t in zip(sheets, plan.tables, strict=True)
            for a in t.approvals
        ),
        batch_size=2000,
    )
    scored = []
    for sheet, t in zip(sheets, plan.tables, strict=True):
        seats = len(t.seats)  # four, or five where the dealer sits out (README readings)
        entries = [with_approval(entry, t.approved, plan.profile, seats) for entry in t.entries]
        scored.append((sheet, score_sheet(entries, plan.profile, seats=seats)))
    store_scored(scored)
    for sheet, t in zip(sheets, plan.tables, strict=True):
        _restore_signing(tournament, sheet, t, users, scans)
    return {(t.match, t.draw, t.number): sheet for t, sheet in zip(plan.tables, sheets, strict=True)}


def _restore_signing(
    tournament: Tournament, sheet: Scoresheet, table: TablePlan, users: dict, scans: list
) -> None:
    """Signatures, corrections and the scan as they were, with their times: the digest covers
    them. The sheets whose scan was saved go into ``scans``."""
    Signature.objects.bulk_create(
        Signature(
            scoresheet=sheet,
            position=item["position"],
            name=item["name"],
            method=item["method"],
            image=item["image"],
            signed_at=item["signed_at"],
            recorded_by=users.get(item.get("recorded_by") or ""),
        )
        for item in table.signing.get("signatures", [])
    )
    LogEntry.objects.bulk_create(
        LogEntry(
            tournament=tournament,
            scoresheet=sheet,
            game=item["game"],
            action=CORRECTED,
            created=item["at"],
            user=users.get(item.get("by") or ""),
            user_name=item.get("by") or "",
            data={
                "match": table.match,
                "table": table.number,
                **{
                    k: item[k]
                    for k in ("before", "after", "reason", "initials", "digest_before", "digest_after")
                },
            },
        )
        for item in table.signing.get("corrections", [])
    )
    if table.scan:
        suffix, content = table.scan
        sheet.paper_scan.save(f"scan{suffix}", ContentFile(content), save=False)
        scans.append(sheet)
        sheet.save(update_fields=["paper_scan"])


def _log(tournament: Tournament, plan: Plan, sheets: dict, users: dict) -> None:
    LogEntry.objects.bulk_create(
        (
            LogEntry(
                tournament=tournament,
                scoresheet=sheets[line["sheet"]] if line["sheet"] else None,
                game=line["game"],
                action=line["action"],
                created=line["at"],
                user=users.get(line["by"]),
                user_name=line["by"],
                data=line["data"] if line["data"] is not None else {},
            )
            for line in plan.log
        ),
        batch_size=2000,
    )
