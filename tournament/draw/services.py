"""Drawing tables and seats by lot (5.2.2), for all matches or one: tables of four, and as few
tables of five as the field needs where the rule profile allows them (README readings)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.draw import draw_matches, draw_problems, repeated_pairs, table_sizes
from scoring.ranking import new_seed

from ..errors import ServiceError
from ..participants.models import Participant
from ..tournaments.audit import record
from ..tournaments.models import LogEntry, Tournament
from ..tournaments.permissions import Perm, has_perm, require
from . import sheets
from .models import Match, Seat, Table


def sync_matches(tournament: Tournament) -> None:
    """One Match per match of the profile; matches past the profile go only while undrawn."""
    wanted = tournament.rules.matches
    existing = {m.number: m for m in tournament.matches.all()}
    for number in range(1, wanted + 1):
        if number not in existing:
            Match.objects.create(tournament=tournament, number=number)
    surplus = [m for n, m in existing.items() if n > wanted]
    if any(m.is_drawn for m in surplus):
        raise ServiceError(
            _("Match %(number)s is already drawn: the profile cannot have fewer matches.")
            % {"number": min(m.number for m in surplus if m.is_drawn)}
        )
    for match in surplus:
        match.delete()


def drawn(tournament: Tournament) -> bool:
    """Whether any match of the tournament was drawn, a discarded draw too: its rules are fixed."""
    return Match.all_draws.filter(tournament=tournament, drawn_at__isnull=False).exists()


def drawn_participants(tournament: Tournament):
    """Who the draw takes: the playing participants, and with check-in only those checked in."""
    found = tournament.participants.filter(status=Participant.Status.ACTIVE)
    if tournament.check_in:
        found = found.filter(checked_in_at__isnull=False)
    return found


def allows_five(tournament: Tournament | None) -> bool:
    """Whether the draw seats tables of five where four do not fill: the rule profile's
    option, on by default (tables of five, README readings)."""
    return tournament is None or tournament.rules.tables_of_five


def off_by(count: int, tournament: Tournament | None = None) -> tuple[int, int]:
    """(missing, too many): how many participants from ``count`` to the nearest counts a draw
    seats, above and below (0 below four participants)."""
    five = allows_five(tournament)
    missing = next(m for m in range(1, 5) if table_sizes(count + m, five))
    extra = next((e for e in range(1, 5) if count - e >= 4 and table_sizes(count - e, five)), 0)
    return missing, extra


def tables_text(count: int, tournament: Tournament | None = None) -> str | None:
    """How many tables of four and of five the draw makes of ``count`` participants (5.2.2;
    tables of five, README readings), or None when it cannot seat them."""
    sizes = table_sizes(count, allows_five(tournament))
    if sizes is None:
        return None
    fours, fives = sizes
    values = {
        "fours": ngettext("%(n)s table of four", "%(n)s tables of four", fours) % {"n": fours},
        "fives": ngettext("%(n)s table of five", "%(n)s tables of five", fives) % {"n": fives},
    }
    if not fives:
        return _("The draw makes %(fours)s.") % values
    if not fours:
        return (
            _("The draw makes %(fives)s: at a table of five the dealer sits out the game he dealt.") % values
        )
    return (
        _("The draw makes %(fours)s and %(fives)s: at a table of five the dealer sits out the game he dealt.")
        % values
    )


def tables_message(count: int, tournament: Tournament | None = None) -> str | None:
    """Why ``count`` active participants cannot be drawn, with what to do about it; with the
    tournament's check-in at the door (issue 17) said of those checked in."""
    five = allows_five(tournament)
    if not draw_problems(count, five):
        return None
    if count < 4:
        problem = _("A draw needs at least four active participants; there are %(count)s.") % {"count": count}
    else:
        missing, extra = off_by(count, tournament)
        values = {
            "count": count,
            "missing": ngettext("%(n)s player is missing", "%(n)s players are missing", missing)
            % {"n": missing},
            "extra": ngettext("%(n)s is too many", "%(n)s are too many", extra) % {"n": extra},
        }
        if five:  # only 6, 7 and 11: every other count from four on fills tables of four and five
            template = _(
                "%(count)s active participants do not fill tables of four and five: %(missing)s, "
                "or %(extra)s. Take reserve players (Ersatzspieler) into the draw or set "
                "participants to reserve."
            )
        else:
            template = _(
                "%(count)s active participants do not fill tables of four: %(missing)s, or "
                "%(extra)s. Take reserve players (Ersatzspieler) into the draw or set participants "
                "to reserve."
            )
        problem = template % values
    if tournament is not None and tournament.check_in:
        return _("Checked in: %(count)s. %(problem)s") % {"count": count, "problem": problem}
    return problem


def _has_history(match: Match) -> bool:
    """Anything ever written on its sheets: games, approvals, or their history."""
    return bool(sheets.results_count(match)) or LogEntry.objects.filter(scoresheet__match=match).exists()


def _snapshot(match: Match) -> list[dict]:
    """The tables of a match with their seats and entries, kept in the history when the match
    is drawn again. Two flat queries, whatever the size of the field."""
    tables: dict[int, dict] = {}
    seats = Seat.objects.filter(match=match).order_by("table__number", "position")
    for table, number in seats.values_list("table__number", "participant__number"):
        tables.setdefault(table, {"table": table, "seats": [], "entries": []})["seats"].append(number)
    for table, entry in sheets.entries(match):
        tables[table]["entries"].append(entry)
    return list(tables.values())


def _archive(match: Match) -> Match:
    """Keep the match's draw whole as a discarded draw: its tables, seats and sheets with their
    entries, approvals and history move to a row of its own, which pages and backups show."""
    draw = match.draw
    match.draw += 1
    match.save(update_fields=["draw"])
    archived = Match.all_draws.create(
        tournament=match.tournament,
        number=match.number,
        draw=draw,
        seed=match.seed,
        drawn_at=match.drawn_at,
        drawn_by=match.drawn_by,
        discarded_at=timezone.now(),
    )
    Table.objects.filter(match=match).update(match=archived)
    Seat.objects.filter(match=match).update(match=archived)
    sheets.move(match, archived)
    return archived


def _store(match: Match, tables, seed: str, user) -> None:
    if _has_history(match):
        _archive(match)
    else:
        match.tables.all().delete()
    participants = {p.pk: p for p in Participant.objects.filter(tournament=match.tournament)}
    created_tables = Table.objects.bulk_create(
        [Table(match=match, number=index, size=len(seats)) for index, seats in enumerate(tables, start=1)]
    )
    sheets.create(match, created_tables)
    Seat.objects.bulk_create(
        [
            Seat(table=table, match=match, position=position, participant=participants[pk])
            for table, seats in zip(created_tables, tables, strict=True)
            for position, pk in enumerate(seats, start=1)
        ]
    )
    match.seed = seed
    match.drawn_at = timezone.now()
    match.drawn_by = user if getattr(user, "pk", None) else None
    match.save(update_fields=["seed", "drawn_at", "drawn_by"])


def _active(tournament: Tournament) -> list[int]:
    """The participants the draw takes: playing, and checked in where the tournament checks in
    at the door (issue 17)."""
    active = list(drawn_participants(tournament).values_list("pk", flat=True))
    message = tables_message(len(active), tournament)
    if message:
        raise ServiceError(message)
    return active


def _fixed_tables(matches) -> list[list[list[int]]]:
    return [
        [[seat.participant_id for seat in table.seats.all()] for table in match.tables.all()]
        for match in matches
    ]


def locked(tournament: Tournament, matches) -> Tournament:
    """The tournament locked for the draw, after the sheets of the matches it draws: in the order
    an entry takes them (its sheet, then the tournament's results version), so that a draw and
    an entry at a table wait for each other instead of deadlocking (PostgreSQL). With the sheets
    locked, no entry is saved between counting the results and the redraw, which would discard
    it without the supervisor's confirmation."""
    sheets.lock(matches)
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def refuse_documents(matches) -> None:
    """Refuse a draw of matches holding a signed or void sheet, naming the tables (5.3.5)."""
    documents = sheets.closed(matches)
    if documents:
        # 5.3.5: signed and void sheets are documents; no draw replaces them.
        match = documents[0][0]
        tables = [str(table) for number, table in documents if number == match]
        raise ServiceError(
            ngettext(
                "Match %(match)s cannot be drawn again: the scoresheet of table %(tables)s is "
                "signed or declared void (5.3.5).",
                "Match %(match)s cannot be drawn again: the scoresheets of tables %(tables)s are "
                "signed or declared void (5.3.5).",
                len(tables),
            )
            % {"match": match, "tables": ", ".join(tables)}
        )


def _check_results(user, tournament: Tournament, matches, discard_results: bool) -> dict:
    # The sheets are locked (locked): no entry comes between this count and the redraw.
    refuse_documents(matches)
    with_results = {m.number: n for m in matches if (n := sheets.results_count(m))}
    if with_results and not discard_results:
        raise ServiceError(
            _(
                "Match %(match)s already has results: only the supervisor can confirm that they "
                "are discarded for a new draw."
            )
            % {"match": min(with_results)}
        )
    if with_results and not has_perm(user, tournament, Perm.DISCARD_RESULTS):
        raise ServiceError(
            _(
                "Only the supervisor can discard entered results: ask for the redraw of the match "
                "on the draw page, and the supervisor confirms it there."
            )
        )
    return with_results


@transaction.atomic
def draw_all(
    user, tournament: Tournament, seed: str | None = None, discard_results: bool = False
) -> list[Match]:
    """Draw every match of the tournament at once."""
    require(user, tournament, Perm.DRAW)
    tournament = locked(tournament, Match.objects.filter(tournament=tournament.pk))
    matches = list(tournament.matches.order_by("number"))
    discarded = _check_results(user, tournament, matches, discard_results)
    seed = (seed or "").strip() or new_seed()
    active = _active(tournament)
    previous = {m.number: _snapshot(m) for m in matches if m.is_drawn}
    result = draw_matches(active, len(matches), seed, tables_of_five=allows_five(tournament))
    for match, tables in zip(matches, result.matches, strict=True):
        _store(match, tables, seed, user)
    record(
        tournament,
        user,
        "draw.all",
        seed=seed,
        repeats=result.repeats,
        replaced=previous,
        discarded_results=discarded,
    )
    return matches


@transaction.atomic
def draw_one(
    user, tournament: Tournament, number: int, seed: str | None = None, discard_results: bool = False
) -> Match:
    """Draw (or redraw) one match, keeping the other drawn matches as they are: their
    table-mates count as already met."""
    require(user, tournament, Perm.DRAW)
    return redraw_one(user, tournament, number, seed, discard_results)


def redraw_one(
    user, tournament: Tournament, number: int, seed: str | None, discard_results: bool, **log
) -> Match:
    """``draw_one`` without its permission check: for the redraw the organiser asked for and
    the supervisor confirms (``draw.redraw``), whose service checks both. ``log``: what the
    history says besides (who asked)."""
    tournament = locked(tournament, Match.objects.filter(tournament=tournament.pk, number=number))
    match = tournament.matches.filter(number=number).first()
    if match is None:
        raise ServiceError(
            _("Match %(match)s does not exist: the tournament has %(count)s matches.")
            % {"match": number, "count": tournament.matches.count()}
        )
    discarded = _check_results(user, tournament, [match], discard_results)
    seed = (seed or "").strip() or new_seed()
    active = _active(tournament)
    others = tournament.matches.exclude(pk=match.pk).filter(drawn_at__isnull=False)
    fixed = _fixed_tables(others.prefetch_related("tables__seats"))
    previous = _snapshot(match) if match.is_drawn else None
    result = draw_matches(active, 1, seed, fixed=fixed, tables_of_five=allows_five(tournament))
    _store(match, result.matches[0], seed, user)
    record(
        tournament,
        user,
        "draw.match",
        match=number,
        seed=seed,
        repeats=result.repeats,
        replaced=previous,
        discarded_results=discarded,
        **log,
    )
    return match


def repeated_table_mates(tournament: Tournament) -> int:
    matches = tournament.matches.filter(drawn_at__isnull=False).prefetch_related("tables__seats")
    return repeated_pairs(_fixed_tables(matches))
