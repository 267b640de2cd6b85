"""Series standings (issue 17): per person of the register his results in the series' tournaments
(the points of the participant linked to him), summed over all or over the best k; at least
``min_attendances`` to be ranked; the top N or the top X % qualify.

Order: the counted points, then more attendances, then the better best single result; persons
still equal share the rank. An attendance is a tournament in which the person's participant sat
at a table of a current draw. ``qualify_percent`` gives X % of the ranked persons, rounded up;
with both a number and a percentage the fewer places count. Persons sharing the last qualifying
rank all qualify. One definition for the page, the PDF, the workbook and the command."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from ..draw.models import Seat
from ..names import sort_key
from ..participants.models import Participant
from ..standings import standings
from ..tournaments.models import Tournament
from .models import Person, Series, SeriesNumber


@dataclass(frozen=True)
class Result:
    tournament: int
    slug: str
    date: datetime.date
    points: int
    counted: bool = True


@dataclass
class SeriesRow:
    person: int
    name: str
    club: str
    number: int | None  # the season start number, with fixed numbers
    results: list[Result]
    rank: int | None = None  # None: below the minimum attendances
    shared: bool = False
    qualified: bool = False
    cells: list[Result | None] = field(default_factory=list)  # one per tournament of the series

    @property
    def attendances(self) -> int:
        return len(self.results)

    @property
    def counted(self) -> int:
        return sum(r.points for r in self.results if r.counted)

    @property
    def total(self) -> int:
        return sum(r.points for r in self.results)

    @property
    def best(self) -> int:
        return max(r.points for r in self.results)

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.counted, self.attendances, self.best)


@dataclass
class SeriesStandings:
    series: Series
    tournaments: list[Tournament]
    ranked: list[SeriesRow]
    unranked: list[SeriesRow]  # not yet enough attendances
    places: int | None  # how many qualify; None: no qualification declared
    provisional: int = 0  # tournaments not finished yet
    rule: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[SeriesRow]:
        return [*self.ranked, *self.unranked]


COLUMNS = (
    ("rank", _("Rank")),
    ("number", _("No.")),
    ("name", _("Name")),
    ("club", _("Club")),
    ("attendances", _("Attendances")),
    ("counted", _("Counted points")),
    ("total", _("Total points")),
    ("qualified", _("Qualified")),
)


def as_record(row: SeriesRow) -> dict:
    """One row as the command and the workbook write it."""
    return {
        "rank": row.rank,
        "number": row.number,
        "name": row.name,
        "club": row.club,
        "attendances": row.attendances,
        "counted": row.counted,
        "total": row.total,
        "qualified": row.qualified,
    }


def qualifying_places(series: Series, ranked: int) -> int | None:
    """How many of the ``ranked`` persons qualify: the top N, or X % of them rounded up; the
    fewer when both are declared."""
    places = []
    if series.qualify_top:
        places.append(series.qualify_top)
    if series.qualify_percent is not None:
        places.append(math.ceil(ranked * series.qualify_percent / 100))
    return min(places) if places else None


def _results(series: Series, tournaments: list[Tournament]) -> dict[int, list[Result]]:
    """Each linked, seated participant's points in each tournament, by person."""
    seated = Seat.objects.filter(participant=OuterRef("pk"), match__discarded_at__isnull=True)
    participants = (
        Participant.objects.filter(tournament__in=tournaments, person__organisation_id=series.organisation_id)
        .filter(Exists(seated))
        .values_list("tournament_id", "number", "person_id")
    )
    person_of = {(tournament, number): person for tournament, number, person in participants}
    found: dict[int, list[Result]] = {}
    for tournament in tournaments:
        for row in standings.compute(tournament).rows:
            person = person_of.get((tournament.pk, row.number))
            if person is None:
                continue
            results = found.setdefault(person, [])
            if any(r.tournament == tournament.pk for r in results):
                continue  # one person twice in a tournament: the first start number counts
            results.append(Result(tournament.pk, tournament.slug, tournament.date, row.values["points"]))
    return found


def unregistered(tournaments) -> dict[int, list[Participant]]:
    """Each tournament's players who are not in the register, by tournament: they play but the
    series cannot count them until they are added (playing, or seated in a current draw)."""
    seated = Seat.objects.filter(participant=OuterRef("pk"), match__discarded_at__isnull=True)
    missing = Participant.objects.filter(tournament__in=list(tournaments), person__isnull=True).filter(
        Q(status=Participant.Status.ACTIVE) | Exists(seated)
    )
    found: dict[int, list[Participant]] = {}
    for participant in sorted(missing, key=lambda p: (sort_key(p.name), p.number)):
        found.setdefault(participant.tournament_id, []).append(participant)
    return found


def _counted(series: Series, results: list[Result]) -> list[Result]:
    """The best ``best_of`` count (an earlier tournament before a later one with equal points)."""
    ordered = sorted(results, key=lambda r: (r.date, r.tournament))
    if series.counting != Series.Counting.BEST or not series.best_of:
        return ordered
    best = sorted(ordered, key=lambda r: -r.points)[: series.best_of]
    keep = {r.tournament for r in best}
    return [Result(r.tournament, r.slug, r.date, r.points, r.tournament in keep) for r in ordered]


def _rank(rows: list[SeriesRow]) -> None:
    """Competition ranking (1, 2, 2, 4) by the key; equal keys share the rank."""
    previous = None
    for position, row in enumerate(rows, start=1):
        if previous is not None and row.key == previous.key:
            row.rank = previous.rank
            row.shared = previous.shared = True
        else:
            row.rank = position
        previous = row


def compute(series: Series) -> SeriesStandings:
    # Only the organisation's own tournaments and persons count (issue 29; attaching refuses others).
    own = series.tournaments.filter(organisation_id=series.organisation_id)
    tournaments = list(own.order_by("date", "pk"))
    results = _results(series, tournaments)
    persons = Person.objects.in_bulk(list(results))
    season = dict(SeriesNumber.objects.filter(series=series).values_list("person_id", "number"))
    rows = [
        SeriesRow(
            person=pk,
            name=persons[pk].name,
            club=persons[pk].club,
            number=season.get(pk) if series.fixed_numbers else None,
            results=_counted(series, found),
        )
        for pk, found in results.items()
    ]
    rows.sort(key=lambda row: (tuple(-value for value in row.key), sort_key(row.name), row.person))
    for row in rows:
        by_tournament = {r.tournament: r for r in row.results}
        row.cells = [by_tournament.get(t.pk) for t in tournaments]
    ranked = [row for row in rows if row.attendances >= series.min_attendances]
    unranked = [row for row in rows if row.attendances < series.min_attendances]
    _rank(ranked)
    places = qualifying_places(series, len(ranked))
    if places is not None:
        for row in ranked:
            row.qualified = row.rank <= places
    provisional = sum(1 for t in tournaments if t.current_status != Tournament.Status.FINISHED)
    return SeriesStandings(series, tournaments, ranked, unranked, places, provisional, rule(series))


def _percent(value: Decimal) -> str:
    return format(value.normalize(), "f")  # 10, 12.5: not 1E+1


def rule(series: Series) -> list[str]:
    """The series' rule in words, for every page and document."""
    lines = []
    if series.counting == Series.Counting.BEST and series.best_of:
        lines.append(_("The best %(k)s results count.") % {"k": series.best_of})
    else:
        lines.append(_("Every result counts."))
    if series.min_attendances:
        lines.append(
            _("Ranked from %(n)s attendances on; the others are listed below, not yet ranked.")
            % {"n": series.min_attendances}
        )
    lines.append(
        _(
            "Equal points: more attendances first, then the better best single result; "
            "players still equal share the rank."
        )
    )
    if series.qualify_top and series.qualify_percent is not None:
        lines.append(
            _("The top %(n)s, at most the top %(p)s %%, qualify for the final.")
            % {"n": series.qualify_top, "p": _percent(series.qualify_percent)}
        )
    elif series.qualify_top:
        lines.append(_("The top %(n)s qualify for the final.") % {"n": series.qualify_top})
    elif series.qualify_percent is not None:
        lines.append(
            _("The top %(p)s %% qualify for the final (rounded up).")
            % {"p": _percent(series.qualify_percent)}
        )
    return [str(line) for line in lines]
