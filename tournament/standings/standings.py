"""Standings: points, then the 5.4.2 tie-break, then lots (5.4.1, RULINGS 13).

One definition, the ordered list of metrics, feeds the pages, the ``standings`` command and the
exports. The numbers come from one aggregation over the seats, which the scoresheet service
keeps up to date; void scoresheets count for nothing."""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.ranking import CRITERIA, Key, rank

from ..names import forms_match, name_forms, query_words, search_key, sort_key
from ..participants.models import Participant, Substitution
from ..prepared import Prepared
from ..results import integrity
from ..results.models import Scoresheet
from ..tournaments.models import Tournament
from .models import LotDraw

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    short: str


# 5.4.1 and 5.4.2 a-e, in their order of precedence.
METRICS: tuple[Metric, ...] = (
    Metric("points", _("Points"), _("Pts.")),
    Metric("sie", _("Sie played"), _("Sie")),
    Metric("tout_won", _("Touts won"), _("Tout won")),
    Metric("tout_played", _("Touts played"), _("Tout pl.")),
    Metric("solo_won", _("Solos/Wenz won"), _("Solo won")),
    Metric("solo_played", _("Solos/Wenz played"), _("Solo pl.")),
)
assert tuple(m.key for m in METRICS) == CRITERIA


@dataclass(frozen=True)
class Substitute:
    name: str
    from_match: int
    from_game: int


@dataclass
class StandingRow:
    rank: int
    number: int
    name: str
    club: str
    values: dict[str, int]
    substitutes: tuple[Substitute, ...] = ()
    by_lot: bool = False

    @property
    def key(self) -> Key:
        return tuple(self.values[m.key] for m in METRICS)

    @cached_property
    def name_order(self) -> tuple[str, str, str]:
        """Where the name stands when the table is ordered by name (German order, names.sort_key)."""
        return sort_key(self.name)


@dataclass
class Standings:
    tournament: Tournament
    match: int | None
    rows: list[StandingRow]
    lot: LotDraw | None = None
    stale_lot: bool = False  # a lot was drawn, but the tie it decided has changed since
    ties: list[list[StandingRow]] = field(default_factory=list)
    results_key: tuple = ()  # the results they were computed from (``results_key``)
    computed_at: float = 0.0  # when (wall-clock seconds: pages drawn from them are kept by it)
    unsigned: int = 0  # the scoresheets (of the match) neither signed nor void: provisional
    # (match, table) of the sheets whose stored totals differ from their games (issue 27, item 9)
    differing: tuple[tuple[int, int], ...] = ()

    @property
    def differing_places(self) -> str:
        """The sheets whose stored totals differ from their games, in words: "table 3, match 2"."""
        return "; ".join(
            gettext("table %(table)s, match %(match)s") % {"table": table, "match": match}
            for match, table in self.differing
        )

    def row(self, number: int) -> StandingRow | None:
        return next((row for row in self.rows if row.number == number), None)

    @cached_property
    def _search_keys(self) -> list[tuple[StandingRow, str]]:
        # Folded once per results version (the standings are kept per process), not per search.
        return [
            (row, "\n".join(search_key(name) for name in (row.name, *(s.name for s in row.substitutes))))
            for row in self.rows
        ]

    @cached_property
    def _name_forms(self) -> list[tuple[StandingRow, list[tuple[str, str]]]]:
        # Both spellings of every name, once per results version (as ``_search_keys``).
        return [
            (row, [name_forms(name) for name in (row.name, *(s.name for s in row.substitutes))])
            for row in self.rows
        ]

    @cached_property
    def _by_number(self) -> dict[str, int]:
        return {str(row.number): index for index, row in enumerate(self.rows)}

    @cached_property
    def _with_digits(self) -> list[tuple[int, StandingRow, str]]:
        return [
            (index, row, keys)
            for index, (row, keys) in enumerate(self._search_keys)
            if any(c.isdigit() for c in keys)
        ]

    def search(self, query: str) -> list[StandingRow]:
        """The rows a phone's search finds: the start number exactly, or every word of the search
        part of the name of the participant or a substitute, umlauts either way (names.py);
        ranks stay as they are."""
        wanted = search_key(query)
        if query.isdigit():  # a player looking up his own line (every 30 s from every phone)
            found = {index: row for index, row, keys in self._with_digits if wanted in keys}
            number = self._by_number.get(query)
            if number is not None:
                found[number] = self.rows[number]
            return [found[index] for index in sorted(found)]
        words = query_words(query)  # "Huber, Sepp", "sepp huber", "Muller" for Müller
        return [
            row
            for row, forms in self._name_forms
            if str(row.number) == query or any(forms_match(words, name) for name in forms)
        ]


def _participants(tournament: Tournament, match: int | None) -> list[dict]:
    """One aggregation over the seats, as plain values: no model instances, so that the page
    does not grow with the field. Every sheet but a void one counts (5.3.6)."""
    counted = Q(
        seats__table__scoresheet__status__in=[
            Scoresheet.Status.OPEN,
            Scoresheet.Status.COMPLETE,
            Scoresheet.Status.SIGNED,
        ]
    )
    counted &= Q(seats__match__discarded_at__isnull=True)  # a discarded draw counts for nothing
    seated = Q(seats__isnull=False, seats__match__discarded_at__isnull=True)
    if match is not None:
        counted &= Q(seats__match__number=match)
        seated &= Q(seats__match__number=match)
    sums = {m.key: Coalesce(Sum(f"seats__{m.key}", filter=counted), 0) for m in METRICS}
    return list(
        tournament.participants.values("id", "number", "name", "club", "status")
        .annotate(**sums, seated=Count("seats", filter=seated))
        .order_by("number")
    )


def _substitutes(tournament: Tournament) -> dict[int, tuple[Substitute, ...]]:
    """Who played for a start number from which game on (5.2.11, RULINGS 14)."""
    found: dict[int, list[Substitute]] = {}
    rows = (
        Substitution.objects.filter(participant__tournament=tournament)
        .order_by("from_match", "from_game")
        .values_list("participant_id", "name", "from_match", "from_game")
    )
    for participant, name, from_match, from_game in rows:
        found.setdefault(participant, []).append(Substitute(name, from_match, from_game))
    return {participant: tuple(subs) for participant, subs in found.items()}


def tie_groups(rows: Sequence[StandingRow]) -> list[list[StandingRow]]:
    """Participants sharing a rank, in standings order."""
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.rank, []).append(row)
    return [group for group in groups.values() if len(group) > 1]


def lot_positions(groups: list[dict], keyed: dict) -> tuple[dict, bool]:
    """A lot's order (``groups`` as a lot draw stores them) for each group whose members, by
    their ident in ``keyed`` (start number, or team id), still tie exactly as they did when it
    was drawn; ``stale`` when any group no longer does."""
    positions: dict = {}
    stale = False
    members_by_key: dict[Key, list] = {}
    for ident, key in keyed.items():
        members_by_key.setdefault(key, []).append(ident)
    for group in groups:
        key, members = tuple(group["key"]), group["members"]
        if sorted(members_by_key.get(key, [])) != sorted(members):
            stale = True
            continue
        positions.update({ident: index for index, ident in enumerate(members)})
    return positions, stale


# The newest standings computed in this process for each tournament, match and lots or none:
# a page then costs the same for 16 or 2,000 participants. Bounded in keys (the least used goes).
_MEMO: OrderedDict[tuple, Standings] = OrderedDict()
MEMO_SIZE = 200


# What each tournament's stored totals were when this process last read them (``stored``), by
# its id and creation time (an id can come again after a rollback).
_STORED: dict[tuple, tuple[float, integrity.Stored]] = {}


def stored(pk: int, created) -> integrity.Stored:
    """The fingerprint of the tournament's stored totals and the sheets whose totals differ
    from their games (``results.integrity``), read at most every STANDINGS_FRESH_SECONDS per
    process, and with Redis at most that often by all processes and machines together: a change
    made in the database behind the services' back raises no results version, so the standings
    and the kept pages are kept by this fingerprint too.

    With Redis the read is shared with what it saw of each sheet (``integrity.seen``), so that
    the next read, by whichever process, compares with the newest: a cup's 100 tournaments were
    read by each of six processes every 10 s (5 ms and two grouped queries each, a fifth of the
    cores in ``make bench PART=cluster``)."""
    fresh = settings.STANDINGS_FRESH_SECONDS
    kept = _STORED.get((pk, created))
    if kept is not None and time.monotonic() - kept[0] < fresh:
        return kept[1]
    key = f"standings-stored:{pk}:{created.timestamp() if created else None}"
    shared = shared_cache()
    kept_there = cache_call(lambda: cache.get(key)) if shared else None
    if kept_there is not None and len(kept_there) == 3:
        read_at, found, seen = kept_there
        if 0 <= time.time() - read_at < fresh:  # as old as it is: kept until it is `fresh` old
            _STORED[(pk, created)] = (time.monotonic() - (time.time() - read_at), found)
            return found
        integrity.remember(pk, seen)  # what the newest read saw, by whichever process
    found = integrity.read(pk)
    _STORED[(pk, created)] = (time.monotonic(), found)
    if shared:
        cache_call(lambda: cache.set(key, (time.time(), found, integrity.seen(pk)), SHARED_SECONDS))
    return found


def results_key(tournament: Tournament, just_read: bool = False) -> tuple:
    """What the tournament's results are now, read afresh: its results version, which the record
    of every write that changes the standings raises (``audit.record``), its creation time,
    which tells a tournament from one that reused the id of a rolled-back one, and the
    fingerprint of its stored totals (``stored``: a change behind the app's back, at most
    STANDINGS_FRESH_SECONDS old). ``just_read``: the tournament was read by this request (a
    visitor's page looks it up first): its own values are as fresh."""
    if just_read:
        now = (tournament.results_version, tournament.created)
    else:
        found = _RESULTS_VERSION(tournament.pk)
        if not found:
            return (tournament.pk, None)
        now = found[0]
    return (tournament.pk, (*now, stored(tournament.pk, now[1]).fingerprint))


# Every visitor's request for the standings reads it: compiled once (tournament.prepared).
_RESULTS_VERSION = Prepared(
    lambda pk: Tournament.objects.filter(pk=pk).order_by().values_list("results_version", "created"), int
)


def identity(key: tuple) -> tuple:
    """The tournament a ``results_key`` is of, whatever its results: its id and creation time
    (an id can come again after a rollback)."""
    pk, now = key
    return (pk, now[1] if now else None)


# After a failure the cache is left alone this long: a Redis that is down is not asked again by
# every visitor (each asking would cost him the time it takes to fail), nor logged for each.
CACHE_RETRY_SECONDS = 30
_cache_failed_until = 0.0


def cache_call(call):
    """A call of the cache the processes share (a folder, or Redis): one that fails (Redis down,
    a full disk, a folder that cannot be written) costs the page its caching, never the page
    (the visitors' pages, ``views``, and the standings shared through Redis, below)."""
    global _cache_failed_until
    if time.monotonic() < _cache_failed_until:
        return None
    try:
        return call()
    except Exception as error:  # whatever the backend raises (OSError, redis' own errors)
        _cache_failed_until = time.monotonic() + CACHE_RETRY_SECONDS
        logger.warning(
            "The cache of the standings pages failed (%s), left alone for %s s: %s",
            settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
            CACHE_RETRY_SECONDS,
            error,
        )
        return None


# With Redis (several machines, or one server's processes) the standings computed by one process
# are kept there for all (issue 29.3): a cup's 100 tournaments were computed by each of a
# machine's processes every STANDINGS_FRESH_SECONDS (14 ms each for 80 players), six times the
# work of once. Kept by the same key as ``_MEMO``, given on the same terms, the newest only. Not
# with the hall's cache folder: a 2,000-player tournament's standings are 1 MB to write and read.
SHARED_SECONDS = 3600


def shared_cache() -> bool:
    """Whether the cache is Redis, shared by every process and machine (the cache folder is one
    machine's, and a large tournament's standings are too big for it): what one computes or
    reads is then kept there for all."""
    return settings.CACHES["default"]["BACKEND"].endswith(".RedisCache")


def _shared_key(which: tuple) -> str:
    return "standings:" + hashlib.sha256(repr(which).encode()).hexdigest()


def compute(
    tournament: Tournament,
    match: int | None = None,
    use_lots: bool = True,
    fresh: float = 0.0,
    current: tuple | None = None,
) -> Standings:
    """Overall standings, or those of one match (5.4.1): best first, with shared ranks until
    lots are drawn (RULINGS 13).

    The newest computed are kept per process (``_MEMO``) and given while the tournament's results
    version is still theirs; it is read afresh, so a stale tournament object never gives stale
    standings. With ``fresh`` (seconds; the visitors' pages), those computed that recently are
    good enough though results came since: while the tables' phones enter games every second,
    they are then computed at most that often per process (with Redis: for all processes and
    machines, ``SHARED_SECONDS``). ``current``: the ``results_key`` as the caller has just read
    it (a visitor's request reads it once)."""
    current = current or results_key(tournament)
    which = (*identity(current), match, use_lots)

    def good(kept: Standings | None) -> bool:
        return kept is not None and (kept.results_key == current or time.time() - kept.computed_at < fresh)

    kept = _MEMO.get(which)
    if good(kept):
        _MEMO.move_to_end(which)
        return kept  # type: ignore[return-value]
    shared = shared_cache()
    kept = cache_call(lambda: cache.get(_shared_key(which))) if shared else None
    if not good(kept):
        kept = _compute(tournament, match, use_lots)
        kept.differing = stored(tournament.pk, identity(current)[1]).differing if current[1] else ()
        kept.results_key = current
        kept.computed_at = time.time()
        if shared:
            cache_call(lambda: cache.set(_shared_key(which), kept, SHARED_SECONDS))
    _MEMO[which] = kept
    _MEMO.move_to_end(which)
    while len(_MEMO) > MEMO_SIZE:
        _MEMO.popitem(last=False)
    return kept


def _compute(tournament: Tournament, match: int | None, use_lots: bool) -> Standings:
    participants = [
        p
        for p in _participants(tournament, match)
        if p["seated"] or (match is None and p["status"] == Participant.Status.ACTIVE)
    ]
    keyed = {p["number"]: tuple(p[m.key] for m in METRICS) for p in participants}
    lot = LotDraw.objects.filter(tournament=tournament, match=match).first() if use_lots else None
    positions, stale = lot_positions(lot.groups, keyed) if lot else ({}, False)
    placed = rank(participants, key=lambda p: keyed[p["number"]], ident=lambda p: p["number"], lots=positions)
    substitutes = _substitutes(tournament)
    rows = [
        StandingRow(
            rank=entry.rank,
            number=entry.item["number"],
            name=entry.item["name"],
            club=entry.item["club"],
            values={m.key: entry.item[m.key] for m in METRICS},
            substitutes=substitutes.get(entry.item["id"], ()),
            by_lot=entry.by_lot,
        )
        for entry in placed
    ]
    unsigned = tournament.unsigned_in(match)
    return Standings(tournament, match, rows, lot, stale, tie_groups(rows), unsigned=unsigned)
