"""What the statistics count (issue 30): per participant, match and table his seat's points and
tie-break counts as the scoresheet service keeps them for the standings (a struck game scores 0
and counts as no Solo, RULINGS 8; a sanction scores its points and counts as no game of its
contract, RULINGS 9, 13), and the games he played there: every game entered on the sheet, but
at a table of five not the one he dealt and sat out (README readings). A void sheet and a
discarded draw count for nothing (5.3.6), as in the standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, F
from django.db.models.functions import Mod

from ..draw.models import Seat
from ..participants.models import Substitution
from ..results.models import GameEntry, Scoresheet
from ..tournaments.models import Tournament

COUNTED = (Scoresheet.Status.OPEN, Scoresheet.Status.COMPLETE, Scoresheet.Status.SIGNED)
TALLIES = ("sie", "tout_won", "tout_played", "solo_won", "solo_played")


@dataclass(frozen=True)
class Sitting:
    """One start number at one table in one match."""

    tournament: int
    match: int
    table: int  # the table's number
    size: int  # four, or five
    position: int
    participant: int
    number: int
    person: int | None
    points: int
    games: int
    sie: int
    tout_won: int
    tout_played: int
    solo_won: int
    solo_played: int
    # A substitute played this start number in this match or from an earlier one on (5.2.11):
    # the table and match is left out of the rating.
    substituted: bool


def _games(tournaments: Sequence[int]) -> dict[int, list[int]]:
    """Per table (its id) the games entered, by the seat whose deal it was at a table of five:
    ``[dealer 1, …, dealer 5]`` (game n is dealt by seat ((n − 1) mod 5) + 1, README readings)."""
    rows = (
        GameEntry.objects.filter(
            scoresheet__match__tournament__in=tournaments, scoresheet__match__discarded_at__isnull=True
        )
        .annotate(dealer=Mod(F("number") - 1, 5))
        .values("scoresheet__table_id", "dealer")
        .annotate(n=Count("pk"))
        .order_by()
    )
    found: dict[int, list[int]] = {}
    for row in rows:
        found.setdefault(row["scoresheet__table_id"], [0] * 5)[int(row["dealer"])] += row["n"]
    return found


def read(tournaments: Sequence[Tournament]) -> list[Sitting]:
    """Every sitting of the tournaments' current draws on a sheet that counts, in the order the
    rating takes them: the tournaments as given, then match, table and seat."""
    ids = [t.pk for t in tournaments]
    order = {pk: index for index, pk in enumerate(ids)}
    games = _games(ids)
    first_substitute: dict[int, int] = {}
    for participant, from_match in Substitution.objects.filter(participant__tournament__in=ids).values_list(
        "participant_id", "from_match"
    ):
        first_substitute[participant] = min(from_match, first_substitute.get(participant, from_match))
    rows = (
        Seat.objects.filter(
            match__tournament__in=ids,
            match__discarded_at__isnull=True,
            table__scoresheet__status__in=COUNTED,
        )
        .order_by()
        .values_list(
            "match__tournament_id",
            "match__number",
            "table_id",
            "table__number",
            "table__size",
            "position",
            "participant_id",
            "participant__number",
            "participant__person_id",
            "points",
            *TALLIES,
        )
    )
    found = []
    for (
        tournament,
        match,
        table_id,
        table,
        size,
        position,
        participant,
        number,
        person,
        points,
        *tally,
    ) in rows:
        entered = games.get(table_id, [0] * 5)
        played = sum(entered) - (entered[position - 1] if size == 5 else 0)
        substitute = first_substitute.get(participant)
        found.append(
            Sitting(
                tournament,
                match,
                table,
                size,
                position,
                participant,
                number,
                person,
                points,
                played,
                *tally,
                substituted=substitute is not None and substitute <= match,
            )
        )
    found.sort(key=lambda s: (order[s.tournament], s.match, s.table, s.position))
    return found
