"""Reckoning the prize list from plain values (the lines, the money, the field, the standings'
rows): which places each line gives, the prize of each place, who gets what, and what the numbers
contradict.

Every cash prize is a whole number of euros, rounded down, so that the prizes never add up to
more than the payout (which is never more than the money taken); what rounding, shared places
and places nobody reached leave is the rest, shown and kept by the organiser. Participants
still tied after 5.4.2 and any lots share the cash of the places they occupy equally; the goods
of such places are listed for the whole group."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ..standings.standings import StandingRow
from ..tournaments.models import Tournament
from .models import PrizeLine

ZERO = Decimal(0)
HUNDRED = Decimal(100)
Places = PrizeLine.Places
Kind = PrizeLine.Kind
CASH = (Kind.AMOUNT, Kind.SHARE, Kind.FALLING)
MAX_PLACE = 10_000  # no field comes near it; a line may name no place beyond (issue 27)
MAX_LINES = 200  # lines of one declaration: far more than any prize list has


def euros(value: Decimal | int) -> str:
    """An amount for a message or a page: whole euros without decimals, else with two."""
    value = Decimal(value)
    whole = value == value.to_integral_value()
    return number_format(value, decimal_pos=0 if whole else 2)


def whole(value: Decimal) -> int:
    """Down to whole euros: the prizes never add up to more than what is there."""
    return int(value.quantize(Decimal(1), rounding=ROUND_DOWN)) if value > 0 else 0


def span(places: Iterable[int | range]) -> str:
    """Places as people write them: 1–3, 7, 11–12. Runs of places may come as ranges, which are
    never spelt out place by place."""
    runs = sorted(
        (item.start, item.stop - 1) if isinstance(item, range) else (item, item)
        for item in places
        if not isinstance(item, range) or len(item)
    )
    merged: list[list[int]] = []
    for start, end in runs:
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return ", ".join(str(start) if start == end else f"{start}–{end}" for start, end in merged)


def _within(places: range, low: int, high: int) -> range:
    """The places of a run from ``low`` to ``high``: reckoned, never listed."""
    return range(max(places.start, low), max(min(places.stop, high + 1), low))


def _without(runs: list[range], taken: range) -> list[range]:
    """Runs of places less those of ``taken``."""
    left = []
    for run in runs:
        left += [
            part
            for part in (_within(run, run.start, taken.start - 1), _within(run, taken.stop, run.stop - 1))
            if part
        ]
    return left


@dataclass(frozen=True)
class Line:
    """One declared line, as stored or as typed into the form (not saved yet). ``index`` is its
    number on the page, 1 and on."""

    index: int
    places: str = Places.RANGE
    first: int | None = None
    last: int | None = None
    kind: str = Kind.AMOUNT
    amount: Decimal | None = None
    share: Decimal | None = None
    goods: str = ""

    @classmethod
    def of(cls, line: PrizeLine, index: int) -> Line:
        return cls(
            index,
            line.places,
            line.first,
            line.last,
            line.kind,
            line.amount,
            line.share,
            line.goods,
        )

    @property
    def label(self) -> str:
        return _("Line %(n)s") % {"n": self.index}

    def fields(self, order: int) -> dict:
        return {
            "order": order,
            "places": self.places,
            "first": self.first,
            "last": self.last,
            "kind": self.kind,
            "amount": self.amount if self.kind == Kind.AMOUNT else None,
            "share": self.share if self.kind == Kind.SHARE else None,
            "goods": self.goods if self.kind == Kind.GOODS else "",
        }


@dataclass(frozen=True)
class Money:
    entry_fee: Decimal
    paying: int  # who paid, or before the start while fewer paid than play: who plays
    estimated: bool  # before the start, fewer marked as paid than play: counted as if all had
    charity_per_entry: Decimal
    charity_name: str
    payout_percent: Decimal
    marked: int | None = None  # how many are marked as paid (the estimate says so)

    @property
    def taken(self) -> Decimal:
        return self.entry_fee * self.paying

    @property
    def charity(self) -> Decimal:
        return min(self.charity_per_entry * self.paying, self.taken)

    @property
    def pot(self) -> Decimal:
        return self.taken - self.charity

    @property
    def payout(self) -> Decimal:
        """The pot's share paid out, to the cent (never more than the money taken)."""
        paid_out = (self.pot * self.payout_percent / HUNDRED).quantize(Decimal("0.01"), ROUND_DOWN)
        return min(paid_out, self.taken)


@dataclass(frozen=True)
class FieldSize:
    """What the places depend on: the ranked field (or who plays, before the draw) and the
    tables of match 1 (or the field ÷ 4 before the draw)."""

    participants: int
    tables: int
    drawn: bool


@dataclass(frozen=True)
class PlacePrize:
    place: int
    line: Line
    amount: int | None = None  # whole euros; None for goods
    goods: str = ""

    @property
    def text(self) -> str:
        return f"{self.amount} €" if self.amount is not None else self.goods


@dataclass(frozen=True)
class Award:
    """What one participant gets: the cash (whole euros) and the goods of his place, or his
    share of those of the places a tied group occupies."""

    place: int  # the rank, shared by a tied group
    number: int
    name: str
    amount: int | None
    goods: tuple[str, ...]
    first: int  # the places the group occupies
    last: int
    tied: int = 1  # how many share them
    by_lot: bool = False

    @property
    def shared(self) -> bool:
        return self.tied > 1

    @property
    def goods_text(self) -> str:
        return " / ".join(self.goods)

    @property
    def prize(self) -> int | str:
        """The command's ``prize``: the amount in euros, or the goods' text (both: joined)."""
        if self.amount is not None and not self.goods:
            return self.amount
        if self.amount is None:
            return self.goods_text
        return f"{self.amount} € + {self.goods_text}"


@dataclass
class PrizeList:
    tournament: Tournament
    declared: bool
    money: Money
    field: FieldSize
    lines: list[Line]
    places: list[PlacePrize]  # the prize of each place, best first
    problems: list[str] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)  # after the draw: who gets what
    ranked: bool = False
    unsigned: int = 0  # sheets not yet signed: the list is provisional

    @property
    def places_total(self) -> int:
        return sum(p.amount or 0 for p in self.places)

    @property
    def cash_total(self) -> int:
        """What is paid out: to the winners once ranked, else the prizes of the places."""
        if self.ranked:
            return sum(a.amount or 0 for a in self.awards)
        return self.places_total

    @property
    def rest(self) -> Decimal:
        """Of the payout, what rounding, shared places and places nobody reached leave."""
        return max(self.money.payout - self.cash_total, ZERO)

    @property
    def kept(self) -> Decimal:
        """What the organiser keeps: the money taken but the charity's part and the prizes."""
        return max(self.money.pot - self.cash_total, ZERO)

    @property
    def cash_awards(self) -> list[Award]:
        return [a for a in self.awards if a.amount]


# The places of each line, and what the numbers contradict


def line_places(line: Line, size: FieldSize) -> range:
    """The places a line gives, for this field (those beyond it too: ``check`` names them), as a
    run of places: a line "places 1 to 10⁹" is reckoned, never listed (issue 27)."""
    n = size.participants
    if line.places == Places.RANGE:
        if line.first is None:
            return range(0)
        last = line.last if line.last is not None else line.first
        return range(line.first, max(last + 1, line.first))
    if line.places == Places.PER_TABLE:
        return range(line.first or 1, max(size.tables + 1, line.first or 1))
    special = {Places.MIDDLE: math.ceil(n / 2), Places.SECOND_LAST: n - 1, Places.LAST: n}
    place = special.get(line.places, 0)
    return range(place, place + 1) if place >= 1 else range(0)


def check_lines(lines: Sequence[Line]) -> list[str]:
    """What is wrong with the lines whatever the numbers: a value missing for the line's kind,
    places missing or backwards, a share above 100 %, two lines for the same place (of the
    fixed ranges), more than one line taking the rest."""
    problems: list[str] = []
    if len(lines) > MAX_LINES:
        return [
            _("A prize list has at most %(n)s lines, not %(count)s.") % {"n": MAX_LINES, "count": len(lines)}
        ]
    for line in lines:
        beyond = [place for place in (line.first, line.last) if place is not None and place > MAX_PLACE]
        if beyond:
            problems.append(
                _("%(line)s: place %(place)s is beyond any field: a prize list gives places 1–%(max)s.")
                % {"line": line.label, "place": beyond[0], "max": MAX_PLACE}
            )
            continue
        if line.places == Places.RANGE and line.first is None:
            problems.append(_("%(line)s: which places? Give the first place.") % {"line": line.label})
        if line.first is not None and line.last is not None and line.first > line.last:
            problems.append(
                _("%(line)s: the first place (%(first)s) is after the last (%(last)s).")
                % {"line": line.label, "first": line.first, "last": line.last}
            )
        if line.kind == Kind.AMOUNT and line.amount is None:
            problems.append(_("%(line)s: give the amount (€) of each prize.") % {"line": line.label})
        if line.kind == Kind.SHARE and line.share is None:
            message = _("%(line)s: give the share (%%) of the payout of each prize.")
            problems.append(message % {"line": line.label})
        if line.kind == Kind.GOODS and not line.goods.strip():
            problems.append(_("%(line)s: say which goods are the prize.") % {"line": line.label})
        if line.kind != Kind.GOODS and line.goods.strip():  # never dropped without a word
            message = _(
                "%(line)s: goods (%(goods)s) are a prize of their own kind: choose “goods” for this "
                "line, or leave the goods empty."
            )
            problems.append(message % {"line": line.label, "goods": line.goods.strip()})
        if line.kind == Kind.SHARE and line.share is not None:
            count = len(line_places(line, FieldSize(0, 0, False))) if line.places == Places.RANGE else 1
            if line.share * count > HUNDRED:
                problems.append(
                    _("%(line)s: %(count)s × %(share)s %% is %(total)s %% of the payout, more than 100 %%.")
                    % {
                        "line": line.label,
                        "count": count,
                        "share": euros(line.share),
                        "total": euros(line.share * count),
                    }
                )
    falling = [line for line in lines if line.kind == Kind.FALLING]
    if len(falling) > 1:
        problems.append(
            _("%(lines)s: only one line can share the rest of the payout.")
            % {"lines": ", ".join(line.label for line in falling)}
        )
    ranges = [line for line in lines if line.places == Places.RANGE]
    problems += _overlaps(ranges, FieldSize(0, 0, False))
    return problems


def _overlaps(lines: Sequence[Line], size: FieldSize) -> list[str]:
    """Two lines for one place: each place belongs to the first line that gives it, reckoned on
    runs of places (never place by place)."""
    problems = []
    given: list[tuple[Line, range]] = []
    for line in lines:
        left = [line_places(line, size)]
        for earlier, places in given:
            clash = [part for run in left if (part := _within(run, places.start, places.stop - 1))]
            if clash:
                problems.append(
                    _("Line %(earlier)s and line %(line)s both give place %(places)s.")
                    % {"earlier": earlier.index, "line": line.index, "places": span(clash)}
                )
                left = [part for run in left for part in _without([run], places)]
        given.append((line, line_places(line, size)))
    return problems


def check_numbers(lines: Sequence[Line], size: FieldSize) -> list[str]:
    """What the numbers of the day contradict: places beyond the field, lines that give no
    place, two lines for one place (special places and one per table included)."""
    n = size.participants
    problems: list[str] = []
    if n == 0:
        return [_("There are no participants yet: no place can be given.")] if lines else []
    for line in lines:
        places = line_places(line, size)
        beyond = _within(places, n + 1, places.stop)
        if beyond:
            problems.append(
                _("%(line)s: place %(place)s is beyond the field of %(n)s participants.")
                % {"line": line.label, "place": span([beyond]), "n": n}
            )
        elif not places and not (line.places == Places.RANGE and line.first is None):
            problems.append(
                _("%(line)s gives no place with %(n)s participants at %(tables)s tables.")
                % {"line": line.label, "n": n, "tables": size.tables}
            )
    # The ranges among themselves are checked whatever the numbers (``check_lines``).
    known = _overlaps([line for line in lines if line.places == Places.RANGE], size)
    problems += [problem for problem in _overlaps(lines, size) if problem not in known]
    return problems


def place_prizes(lines: Sequence[Line], money: Money, size: FieldSize) -> tuple[list[PlacePrize], list[str]]:
    """The prize of each place within the field, and what is wrong with the money: fixed cash
    prizes above the payout, nothing left for the rest."""
    n = size.participants
    problems: list[str] = []
    prizes: dict[int, PlacePrize] = {}
    fixed: list[tuple[Line, list[int], Decimal]] = []
    falling: list[tuple[Line, list[int]]] = []
    for line in lines:
        places = [place for place in _within(line_places(line, size), 1, n) if place not in prizes]
        if line.kind == Kind.GOODS:
            prizes.update({place: PlacePrize(place, line, goods=line.goods) for place in places})
        elif line.kind == Kind.FALLING:
            falling.append((line, places))
            prizes.update({place: PlacePrize(place, line, amount=0) for place in places})
        else:
            if line.kind == Kind.AMOUNT:
                each = line.amount or ZERO
            else:
                each = money.payout * (line.share or ZERO) / HUNDRED
            fixed.append((line, places, each))
            prizes.update({place: PlacePrize(place, line, amount=whole(each)) for place in places})
    declared = sum((each * len(places) for _line, places, each in fixed), ZERO)
    if fixed and declared > money.payout:
        problems.append(
            _("Prizes %(places)s (%(lines)s) add up to %(sum)s €, the payout is %(payout)s €.")
            % {
                "places": span(p for _line, places, _each in fixed for p in places),
                "lines": ", ".join(line.label for line, _places, _each in fixed),
                "sum": euros(declared),
                "payout": euros(money.payout),
            }
        )
    rest = money.payout - sum((whole(each) * len(places) for _line, places, each in fixed), ZERO)
    for line, places in falling[:1]:
        if not places:
            continue
        if rest <= 0:
            message = _("%(line)s: nothing of the payout is left after the other cash prizes.")
            problems.append(message % {"line": line.label})
            continue
        weights = list(range(len(places), 0, -1))  # n, n−1, …, 1
        total = sum(weights)
        for place, weight in zip(places, weights, strict=True):
            prizes[place] = PlacePrize(place, line, amount=whole(rest * weight / total))
    return [prizes[place] for place in sorted(prizes)], problems


def awards(rows: Sequence[StandingRow], prizes: Sequence[PlacePrize]) -> list[Award]:
    """Who gets what: each group of rows sharing a rank occupies as many places as it has
    members and shares their cash equally (whole euros, rounded down); their goods are listed
    for the group. Lots drawn for a tie (5.4.2) have given its members ranks of their own."""
    by_place = {prize.place: prize for prize in prizes}
    found: list[Award] = []
    position = 0
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.rank, []).append(row)
    for rank, group in groups.items():
        first, last = position + 1, position + len(group)
        position = last
        won = [by_place[place] for place in range(first, last + 1) if place in by_place]
        cash = [prize.amount for prize in won if prize.amount is not None]
        goods = tuple(prize.goods for prize in won if prize.goods)
        amount = sum(cash) // len(group) if cash else None
        if not amount and not goods:
            continue
        found += [
            Award(rank, row.number, row.name, amount or None, goods, first, last, len(group), row.by_lot)
            for row in group
        ]
    return found
