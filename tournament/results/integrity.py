"""Whether the stored totals are still those the services wrote (issue 27, item 9).

The standings add up the seats' stored points and tie-break counts (``store.store_scored``
writes them with the games' points); a change made in the database behind the services' back
(an SQL UPDATE) raises no results version. ``read`` finds such a change cheaply, in two grouped
queries over the tournament's seats and games (no game is scored again for a sheet that holds):

- a sheet whose seats' points are not the sums of its games' stored points differs (the seat
  half of verify's ``check``, in SQL): found whenever it is read, by every process;
- a sheet whose stored values changed (their fingerprint) while its version stayed was changed
  behind the app's back: verify's ``check`` is run on it, and it differs if that finds anything;
- a sheet whose version changed was written by the services, which store every value that
  differs from what the rules engine gives (``store_scored``): it holds.

Each process keeps what it saw of each sheet (``_SEEN``; with Redis shared by all processes,
``standings.stored``), so the fingerprint comparison finds changes made while it runs;
``python manage.py verify`` checks everything, always."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from django.db.models import Count, F, IntegerField, Q, Sum
from django.db.models.functions import Cast

from ..draw.models import Seat
from .load import load_sheets
from .models import GameEntry, Scoresheet
from .verify import check

SEATS = range(1, 6)  # a table of five has a fifth seat


@dataclass(frozen=True)
class Stored:
    """What one read found: a fingerprint of every sheet's stored values (equal while nothing
    stored changed) and the sheets whose stored totals differ from their games, as (match,
    table) in that order."""

    fingerprint: tuple
    differing: tuple[tuple[int, int], ...]


# What this process saw of each sheet, by tournament (the least recently read goes first):
# sheet id -> (version, its stored values, whether they differ from its games).
_SEEN: OrderedDict[int, dict[int, tuple[int, tuple, bool]]] = OrderedDict()
TOURNAMENTS_SEEN = 200


def seen(tournament: int) -> dict[int, tuple[int, tuple, bool]] | None:
    """What the last ``read`` of the tournament in this process saw of each sheet (to be shared
    with other processes: ``standings.stored``)."""
    return _SEEN.get(tournament)


def remember(tournament: int, sheets: dict[int, tuple[int, tuple, bool]] | None) -> None:
    """Keep what a read saw of each sheet (this process's, or another's: ``standings.stored``)
    as this process's own, the newest: the next ``read`` compares with it."""
    if sheets is None:
        return
    _SEEN[tournament] = sheets
    _SEEN.move_to_end(tournament)
    while len(_SEEN) > TOURNAMENTS_SEEN:
        _SEEN.popitem(last=False)


def _flag(name: str):
    return Cast(name, output_field=IntegerField())  # a boolean as 0 or 1 (PostgreSQL too)


def _entries(tournament: int) -> dict[int, dict]:
    """Per sheet: its games' stored points summed per seat, and a fingerprint of their points
    and marks by game number."""
    # Small weights: PostgreSQL multiplies its integers in 32 bits (the sums are 64).
    weighted = (
        sum((F(f"points_{seat}") * (3**seat) for seat in SEATS[1:]), F("points_1") * 3)
        + _flag("struck") * 1000
        + _flag("downgraded") * 2000
        + _flag("approved") * 4000
    )
    rows = (
        GameEntry.objects.filter(
            scoresheet__match__tournament_id=tournament, scoresheet__match__discarded_at=None
        )
        .values("scoresheet_id")
        .annotate(
            games=Count("pk"),
            marks=Sum(F("number") * weighted),
            **{f"p{seat}": Sum(f"points_{seat}") for seat in SEATS},
        )
        .order_by()
    )
    return {row.pop("scoresheet_id"): row for row in rows}


def _seats(tournament: int) -> list[dict]:
    """Per sheet: its version, match and table, and its seats' stored points and counts."""
    counts = F("sie") + F("tout_won") * 41 + F("tout_played") * 41**2 + F("solo_won") * 41**3  # each <= 40
    return list(
        Seat.objects.filter(match__tournament_id=tournament, match__discarded_at=None)
        .values("table__scoresheet__id", "table__scoresheet__version", "match__number", "table__number")
        .annotate(
            seats=Count("pk"),
            counts=Sum((counts + F("solo_played") * 41**4) * F("position")),
            **{f"s{seat}": Sum("points", filter=Q(position=seat)) for seat in SEATS},
        )
        .order_by()
    )


def read(tournament: int) -> Stored:
    """The stored totals of the tournament (its id) as they are now (two queries; verify's check
    only on a sheet changed behind the app's back since this process last read it)."""
    before = _SEEN.pop(tournament, {})
    seen_now: dict[int, tuple[int, tuple, bool]] = {}
    entries = _entries(tournament)
    found: dict[int, tuple] = {}
    differing: dict[int, tuple[int, int]] = {}
    suspect: list[int] = []
    for row in _seats(tournament):
        sheet = row["table__scoresheet__id"]
        if sheet is None:
            continue
        games = entries.get(sheet, {})
        sums = tuple(games.get(f"p{seat}") or 0 for seat in SEATS)
        seated = tuple(row[f"s{seat}"] or 0 for seat in SEATS)
        version = row["table__scoresheet__version"]
        values = (seated, row["counts"], sums, games.get("games", 0), games.get("marks") or 0)
        found[sheet] = values
        seen = before.get(sheet)
        place = (row["match__number"], row["table__number"])
        if seated != sums:
            differing[sheet] = place
            seen_now[sheet] = (version, values, True)
        elif seen is not None and seen[0] == version and seen[1] != values:
            suspect.append(sheet)
            seen_now[sheet] = (version, values, True)
            differing[sheet] = place  # until verify's check says otherwise
        elif seen is not None and seen[0] == version and seen[2]:
            seen_now[sheet] = seen
            differing[sheet] = place  # as found before: nothing changed since
        else:
            seen_now[sheet] = (version, values, False)
    if suspect:
        for loaded in load_sheets(Scoresheet.objects.filter(pk__in=suspect)):
            sheet = loaded.sheet.pk
            differs = bool(check(loaded))
            seen_now[sheet] = (loaded.sheet.version, found[sheet], differs)
            if not differs:
                differing.pop(sheet, None)
    remember(tournament, seen_now)
    # Integers only: their hash is the same in every process (no PYTHONHASHSEED).
    fingerprint = tuple(sorted(found.items()))
    return Stored(
        (len(fingerprint), hash(fingerprint)),
        tuple(sorted(differing.values())),
    )
