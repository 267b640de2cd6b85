"""Reading the exchange format ``schafkopf-tournament/1`` (shared/EXCHANGE.md).

``read_document`` checks everything without writing to the database (structure, types, the
limits of every stored field, the profile, participants, seats, every game through the rules
engine, and every signed sheet against its digest) and returns a plan, or raises
``DocumentError`` with everything that is wrong, each message naming match, table and game.
``importer.import_plan`` then writes the plan in one transaction: a refused document leaves
nothing. Hostile input gets a message, never an exception: the same limits hold on SQLite and
PostgreSQL (lengths, NUL characters, whole numbers within their columns, dates, nesting)."""

from __future__ import annotations

import base64
import binascii
import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import Code, Contract, Game, Problem, Result, Sanction, Suit, Transcribed, score_sheet
from scoring.approvals import approval_contract
from scoring.entries import Entry
from scoring.profiles import ProfileError, RuleProfile, profile_from_exchange

from ..jsontext import JSONTextError, parse_json
from ..participants.models import Participant
from ..participants.registration import age_on
from ..prizes.exchange import read_prizes
from ..problems import PLACE, problem_message, problem_messages
from ..results.document import DIGEST_VERSION, canonical, digest_of
from ..results.models import Scoresheet
from ..storage import MAX_SCAN_BYTES, scan_suffix
from ..teams.exchange import read_teams
from ..tournaments.models import (
    ACTIONS,
    EARLIEST_DATE,
    LATEST_DATE,
    RETENTION_MONTHS,
    StaffRole,
    Tournament,
    add_months,
    slug_taken,
)

FORMAT = "schafkopf-tournament/1"
MAX_DOCUMENT_BYTES = 100 * 1024 * 1024
MAX_INTEGER = 2_147_483_647  # the largest whole number every database column here holds
MAX_SMALL = 32_767
MAX_DEPTH = 24  # free-form values (log data, hand checks, entries before and after)
EARLIEST, LATEST = EARLIEST_DATE, LATEST_DATE
DIGEST = re.compile(r"[0-9a-f]{64}")
IMAGE_PREFIX = "data:image/png;base64,"
MAX_IMAGE = 500_000


class DocumentError(ValueError):
    """The document is refused; ``messages`` says everything that is wrong."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass
class TablePlan:
    match: int
    draw: int
    number: int
    seats: list[int]
    entries: list[Entry]
    approvals: list[dict]  # game, contract, by, username, at, hand, hand_check
    status: str = Scoresheet.Status.OPEN
    scorekeeper: int = 1
    signing: dict = field(default_factory=dict)  # signed_as, digest, lock, void, signatures, corrections
    scan: tuple[str, bytes] | None = None  # suffix, content

    @property
    def approved(self) -> dict[int, str]:
        return {a["game"]: a["contract"] for a in self.approvals}


@dataclass
class DrawPlan:
    """One draw of a match: the current one, or one a redraw discarded."""

    match: int
    draw: int
    seed: str
    drawn_at: datetime.datetime | None
    discarded_at: datetime.datetime | None = None


@dataclass
class Plan:
    name: str
    date: datetime.date
    venue: str
    organiser: str
    slug: str
    profile: RuleProfile
    status: str
    prize_places: int
    retention_until: datetime.date | None
    participants: list[dict]
    substitutions: list[dict]
    draws: list[DrawPlan]
    tables: list[TablePlan]
    lots: list[dict] = field(default_factory=list)
    staff: list[tuple[str, str]] = field(default_factory=list)  # username, role
    log: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what is imported with a caveat
    teams: list[dict] = field(default_factory=list)  # issue 17: name, members (start numbers)
    check_in: bool = False  # issue 17
    prizes: dict | None = None  # issue 17: the prize declaration

    @property
    def games(self) -> int:
        return sum(len(t.entries) for t in self.tables)

    @property
    def matches(self) -> dict[int, str]:
        """The current draw's seed of each drawn match."""
        return {d.match: d.seed for d in self.draws if d.discarded_at is None}


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a value (iteratively: any depth is measured)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class _Reader:
    """Collects every problem of a document instead of stopping at the first."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, where: str, text: str) -> None:
        self.errors.append(f"{where}: {text}" if where else text)

    def integer(self, value: Any, where: str, what: str, low: int = 1, high: int = MAX_INTEGER):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.error(
                where,
                _("%(what)s must be a whole number %(limits)s, not %(value)s.")
                % {"what": what, "limits": f"{low}–{high}", "value": _shown(value)},
            )
            return None
        return value

    def text(self, value: Any, where: str, what: str, limit: int, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.error(where, _("%(what)s is missing or not text.") % {"what": what})
            return ""
        if "\x00" in value:
            self.error(where, _("%(what)s holds a NUL character.") % {"what": what})
            return ""
        if len(value) > limit:
            self.error(
                where, _("%(what)s is longer than %(limit)s characters.") % {"what": what, "limit": limit}
            )
            return ""
        return value.strip()

    def date(self, value: Any, where: str, what: str, required: bool = True, low=EARLIEST, high=LATEST):
        if value is None and not required:
            return None
        try:
            day = datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            day = None
        if day is None or not low <= day <= high:
            self.error(
                where,
                _("%(what)s must be a date like 2026-11-21 between %(low)s and %(high)s, not %(value)s.")
                % {"what": what, "value": _shown(value), "low": low.isoformat(), "high": high.isoformat()},
            )
            return None
        return day

    def moment(self, value: Any, where: str, what: str, required: bool = True):
        if value is None and not required:
            return None
        try:
            moment = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            moment = None
        if moment is None or not EARLIEST <= moment.date() <= LATEST:
            self.error(
                where,
                _("%(what)s must be a time like 2026-11-21T14:05:00+01:00, not %(value)s.")
                % {"what": what, "value": _shown(value)},
            )
            return None
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment)

    def flag(self, value: Any, where: str, what: str) -> bool:
        """An added yes/no field: absent is no."""
        if value is None:
            return False
        if not isinstance(value, bool):
            self.error(where, _("The field “%(what)s” must be true or false.") % {"what": what})
            return False
        return value

    def obj(self, value: Any, where: str, what: str) -> dict:
        if not isinstance(value, dict):
            self.error(where, _("The field “%(what)s” must be an object ({…}).") % {"what": what})
            return {}
        return value

    def array(self, value: Any, where: str, what: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(where, _("The field “%(what)s” must be a list ([…]).") % {"what": what})
            return []
        return value

    def free(self, value: Any, where: str, what: str) -> Any:
        """A value stored as it is (log data, a hand check): no deeper than MAX_DEPTH, no NUL."""
        if _depth(value) > MAX_DEPTH:
            deeper = _("The field “%(what)s” nests deeper than %(n)s levels.")
            self.error(where, deeper % {"what": what, "n": MAX_DEPTH})
            return None
        if "\\u0000" in json.dumps(value):
            self.error(where, _("The field “%(what)s” holds a NUL character.") % {"what": what})
            return None
        return value

    def choice(self, value: Any, choices, where: str, what: str):
        if not isinstance(value, str) or value not in choices:
            self.error(
                where,
                _("“%(value)s” is not a valid value of the field “%(field)s” (one of: %(choices)s).")
                % {"value": _named(value), "field": what, "choices": ", ".join(choices)},
            )
            return None
        return value


def _shown(value: Any) -> str:
    """A value for a message: its JSON, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _named(value: Any) -> str:
    """A name for a message: as written when it is short text, else its JSON."""
    if isinstance(value, str) and len(value) <= 60 and value.isprintable():
        return value
    return _shown(value)


def _place(match=None, table=None, game=None, draw=None) -> str:
    parts = []
    if match is not None:
        parts.append(_("match %(n)s") % {"n": match})
    if draw is not None:
        parts.append(_("discarded draw %(n)s") % {"n": draw})
    if table is not None:
        parts.append(_("table %(n)s") % {"n": table})
    if game is not None:
        parts.append(_("game %(n)s") % {"n": game})
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def _enum(reader: _Reader, value: Any, enum, where: str, what: str):
    """An exchange-format name as its enum, or None after saying which value is unknown."""
    name = reader.choice(value, [member.value for member in enum], where, what)
    return enum(name) if name is not None else None


SEAT_FIELDS = ("declarer", "partner", "liable")


def _engine_message(problem: Problem) -> str:
    """The rules engine's message for a problem without its "Game n:" prefix, which the place
    of the message already says; a message that names its game itself keeps it."""
    text = problem_message(problem)
    return text.removeprefix(str(PLACE).format(game=problem.game)) if problem.game is not None else text


def _points_message(size: int) -> str:
    """A ``points`` list that is not one whole number per seat (the dealer's 0 at five)."""
    return problem_message(Problem(Code.POINTS_NOT_FOUR, seats=size))


def _is_points(value: Any, size: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == size
        and not any(isinstance(p, bool) or not isinstance(p, int) or abs(p) > MAX_SMALL for p in value)
    )


def _seat_fields(reader: _Reader, data: dict, where: str, size: int) -> bool:
    """Seats are whole numbers (the rules engine says which seat is wrong); card points too."""
    ok = True
    for key in SEAT_FIELDS:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > 99):
            if size == 5:  # a table of five (README readings)
                message = _("%(field)s must be a seat 1–5, not %(value)s.")
            else:
                message = _("%(field)s must be a seat 1–4, not %(value)s.")
            reader.error(where, message % {"field": key, "value": _shown(value)})
            ok = False
    points = data.get("declarer_points")
    if points is not None and (isinstance(points, bool) or not isinstance(points, int) or abs(points) > 999):
        reader.error(
            where,
            _("The card points must be a whole number 0–120, not %(value)s.") % {"value": _shown(points)},
        )
        ok = False
    for key in ("schneider", "schwarz", "invalid_announcement"):
        if key in data and not isinstance(data[key], bool):
            reader.error(
                where,
                _("%(field)s must be true or false, not %(value)s.")
                % {"field": key, "value": _shown(data[key])},
            )
            ok = False
    return ok


def _game_entry(reader: _Reader, data: dict, number: int, where: str, size: int):
    """The engine entry a game object describes at a table of ``size`` seats, or None after
    recording why not."""
    errors = len(reader.errors)
    if "sanction" in data:
        s = reader.obj(data["sanction"], where, "sanction")
        contract = _enum(reader, s.get("contract"), Contract, where, "contract")
        if not _seat_fields(reader, s, where, size) or len(reader.errors) > errors:
            return None
        return Sanction(number, contract, s.get("declarer"), s.get("liable"), s.get("partner"))
    if "contract" in data:
        contract = _enum(reader, data["contract"], Contract, where, "contract")
        suit = _enum(reader, data["suit"], Suit, where, "suit") if data.get("suit") is not None else None
        result = (
            _enum(reader, data["result"], Result, where, "result") if data.get("result") is not None else None
        )
        if not _seat_fields(reader, data, where, size) or len(reader.errors) > errors:
            return None
        return Game(
            number,
            contract,
            data.get("declarer"),
            suit=suit,
            partner=data.get("partner"),
            result=result,
            schneider=data.get("schneider", False),
            schwarz=data.get("schwarz", False),
            declarer_points=data.get("declarer_points"),
            invalid_announcement=data.get("invalid_announcement", False),
            approved="approved_by" in data,
        )
    if "points" in data:
        points = data["points"]
        if not _is_points(points, size):
            reader.error(where, _points_message(size))
            return None
        if not _seat_fields(reader, data, where, size):
            return None
        return Transcribed(number, tuple(points), data.get("declarer"), approved="approved_by" in data)
    if size == 5:
        reader.error(where, _("a game needs a contract, a sanction or the five points."))
    else:
        reader.error(where, _("a game needs a contract, a sanction or the four points."))
    return None


class _DocumentReader(_Reader):
    """The whole document, part by part."""

    def __init__(self, document: dict) -> None:
        super().__init__()
        self.document = document
        self.notes: list[str] = []

    # The tournament

    def head(self):
        head = self.obj(self.document.get("tournament"), "", "tournament")
        where = _("Tournament")
        self.name = self.text(head.get("name"), where, _("The name"), 200)
        self.day = self.date(head.get("date"), where, _("The date"))
        self.venue = self.text(head.get("venue"), where, _("The venue"), 200, required=False)
        self.organiser = self.text(head.get("organiser"), where, _("The organiser"), 200, required=False)
        self.wanted_slug = self.text(head.get("slug"), where, _("The short name"), 80, required=False)
        status = head.get("status", Tournament.Status.FINISHED)
        self.status = (
            self.choice(status, Tournament.Status.values, where, "status") or Tournament.Status.FINISHED
        )
        if head.get("status_automatic") is True:  # this project's writer: it follows the tournament
            self.status = ""
        self.check_in = self.flag(head.get("check_in"), where, "check_in")
        prize_places = head.get("prize_places", 3)
        self.prize_places = self.integer(prize_places, where, _("The prize places"), 1, MAX_SMALL) or 3
        self.retention_until = None
        if head.get("retention_until") is not None and self.day is not None:
            least = add_months(self.day, RETENTION_MONTHS)
            self.retention_until = self.date(
                head["retention_until"], where, _("The retention date"), low=least
            )  # 5.3.5: never shorter than 6 months after the tournament
        try:
            self.profile = profile_from_exchange(self.obj(head.get("rules") or {}, where, "rules"))
        except ProfileError as error:
            for message in problem_messages(error.problems):
                self.error(_("Rules"), message)
            raise DocumentError(self.errors) from None

    # People

    def birth_date(self, value: Any, where: str):
        """A participant's or substitute's date of birth, old enough on the day (5.2.12)."""
        birth = self.date(value, where, _("The date of birth"), required=False, high=timezone.localdate())
        if birth and self.day and age_on(birth, self.day) < self.profile.min_age:
            self.error(
                where,
                _("younger than %(age)s on the tournament day (5.2.12).") % {"age": self.profile.min_age},
            )
        return birth

    def participants(self):
        self.people: list[dict] = []
        self.numbers: set[int] = set()
        for index, item in enumerate(self.array(self.document.get("participants"), "", "participants")):
            item = self.obj(item, _("Participant %(n)s") % {"n": index + 1}, "participant")
            number = self.integer(
                item.get("number"), _("Participant %(n)s") % {"n": index + 1}, _("The start number")
            )
            where = _("Start number %(n)s") % {"n": number if number is not None else "?"}
            person = {
                "number": number,
                "name": self.text(item.get("name"), where, _("The name"), 200),
                "club": self.text(item.get("club"), where, _("The club"), 200, required=False),
                "birth_date": self.birth_date(item.get("birth_date"), where),
                "status": self.choice(
                    item.get("status", Participant.Status.ACTIVE), Participant.Status.values, where, "status"
                )
                or Participant.Status.ACTIVE,
                "checked_in_at": self.moment(
                    item.get("checked_in_at"), where, _("The check-in time"), required=False
                ),
                "fee_paid": self.flag(item.get("fee_paid"), where, "fee_paid"),
            }
            if number is None:
                continue
            if number in self.numbers:
                self.error(where, _("the start number is given twice."))
            self.numbers.add(number)
            self.people.append(person)

    def late_game_limit(self) -> int:
        """The last game a substitute may take over from: game 40 at a table of five."""
        return self.profile.games_for(5) if self.profile.tables_of_five else self.profile.games_per_match

    def late_substitutes(self):
        """A substitute from a game beyond a table of four's match takes over at a table of five
        (the service's rule, participants.services.substitute)."""
        for index, item in enumerate(self.subs):
            if item["from_game"] is None or item["from_game"] <= self.profile.games_per_match:
                continue
            at_five = any(
                len(table.seats) == 5 and item["number"] in table.seats
                for table in self.tables
                if table.match == item["from_match"]
            )
            if not at_five:
                self.error(
                    _("Substitution %(n)s") % {"n": index + 1},
                    _(
                        "start number %(n)s does not sit at a table of five in match %(match)s: "
                        "game %(game)s does not exist there."
                    )
                    % {"n": item["number"], "match": item["from_match"], "game": item["from_game"]},
                )

    def substitutions(self):
        self.subs: list[dict] = []
        moments = set()
        for index, item in enumerate(self.array(self.document.get("substitutions"), "", "substitutions")):
            where = _("Substitution %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "substitution")
            number = item.get("number")
            if isinstance(number, bool) or number not in self.numbers:
                self.error(where, _("start number %(n)s is not a participant.") % {"n": _shown(number)})
                continue
            substitution = {
                "number": number,
                "name": self.text(item.get("name"), where, _("The name"), 200),
                "club": self.text(item.get("club"), where, _("The club"), 200, required=False),
                "from_match": self.integer(
                    item.get("from_match"), where, _("The match"), 1, self.profile.matches
                ),
                "from_game": self.integer(  # up to 40 at a table of five (checked with the tables)
                    item.get("from_game", 1), where, _("The game"), 1, self.late_game_limit()
                ),
                "birth_date": self.birth_date(item.get("birth_date"), where),
            }
            moment = (number, substitution["from_match"], substitution["from_game"])
            if moment in moments:
                self.error(
                    where,
                    _("start number %(n)s has a substitute from match %(match)s, game %(game)s twice.")
                    % {"n": number, "match": moment[1], "game": moment[2]},
                )
            moments.add(moment)
            self.subs.append(substitution)

    def staff(self):
        self.roles: list[tuple[str, str]] = []
        items = self.array(self.document.get("staff"), "", "staff")
        names = [
            (
                self.text(item.get("username"), _("Staff"), _("The user name"), 150),
                self.choice(item.get("role"), StaffRole.Role.values, _("Staff"), "role"),
            )
            for item in (self.obj(item, _("Staff"), "staff") for item in items)
        ]
        known = set(
            get_user_model()
            .objects.filter(username__in=[n for n, _r in names if n])
            .values_list("username", flat=True)
        )
        for username, role in names:
            if not username or role is None:
                continue
            if username in known:
                self.roles.append((username, role))
            else:
                self.notes.append(
                    _("There is no user “%(name)s” here: the role %(role)s is not restored.")
                    % {"name": username, "role": StaffRole.Role(role).label}
                )

    # Matches, tables, games

    def matches(self):
        self.draws: list[DrawPlan] = []
        self.tables: list[TablePlan] = []
        seen = set()
        for item in self.array(self.document.get("matches"), "", "matches"):
            item = self.obj(item, "", "match")
            m = self.integer(item.get("number"), _("Match"), _("The match number"), 1, self.profile.matches)
            if m is None:
                continue
            if m in seen:
                self.error(_place(m), _("the match is given twice."))
                continue
            seen.add(m)
            where = _place(m)
            draw = self.integer(item.get("draw", 1), where, _("The draw"), 1, MAX_SMALL) or 1
            self.draws.append(
                DrawPlan(
                    m,
                    draw,
                    self.text(item.get("seed"), where, _("The seed"), 64, required=False),
                    self.moment(item.get("drawn_at"), where, _("The time of the draw"), required=False),
                )
            )
            self.read_tables(m, draw, item.get("tables"), discarded=None)
            earlier = set()
            for old in self.array(item.get("discarded"), where, "discarded"):
                old = self.obj(old, where, "discarded")
                number = self.integer(old.get("draw"), where, _("The discarded draw"), 1, MAX_SMALL)
                if number is not None and number >= draw:
                    self.error(
                        where,
                        _("discarded draw %(n)s must come before the current draw %(draw)s.")
                        % {"n": number, "draw": draw},
                    )
                    continue
                if number is None or number in earlier:
                    if number is not None:
                        self.error(where, _("discarded draw %(n)s is given twice.") % {"n": number})
                    continue
                earlier.add(number)
                place = _place(m, draw=number)
                self.draws.append(
                    DrawPlan(
                        m,
                        number,
                        self.text(old.get("seed"), place, _("The seed"), 64, required=False),
                        self.moment(old.get("drawn_at"), place, _("The time of the draw"), required=False),
                        self.moment(old.get("discarded_at"), place, _("The time it was discarded")),
                    )
                )
                self.read_tables(m, number, old.get("tables"), discarded=number)

    def read_tables(self, m: int, draw: int, tables, discarded: int | None) -> None:
        seated: dict[int, int] = {}
        numbers = set()
        for table in self.array(tables, _place(m, draw=discarded), "tables"):
            table = self.obj(table, _place(m, draw=discarded), "table")
            t = self.integer(table.get("number"), _place(m, draw=discarded), _("The table number"))
            if t is None:
                continue
            where = _place(m, t, draw=discarded)
            if t in numbers:
                self.error(where, _("the table is given twice."))
                continue
            numbers.add(t)
            seats = table.get("seats")
            if not self.seat_count(seats, where):
                continue
            for seat in seats:
                if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.numbers:
                    self.error(where, _("start number %(n)s is not a participant.") % {"n": _shown(seat)})
                elif seat in seated:
                    self.error(
                        where,
                        _("start number %(n)s also sits at table %(other)s.")
                        % {"n": seat, "other": seated[seat]},
                    )
                else:
                    seated[seat] = t
            self.tables.append(self.read_table(m, draw, t, table, where, list(seats)))

    def seat_count(self, seats: Any, where: str) -> bool:
        """Four seats, or five where the rules allow tables of five (README readings)."""
        five = self.profile.tables_of_five
        if isinstance(seats, list) and len(seats) == 4:
            return True
        if isinstance(seats, list) and len(seats) == 5:
            if five:
                return True
            self.error(
                where,
                _(
                    "the table seats five, but the rules allow no tables of five "
                    "(rules.tables_of_five is false)."
                ),
            )
            return False
        if five:
            count = len(seats) if isinstance(seats, list) else _shown(seats)
            self.error(where, _("a table has four or five seats, not %(count)s.") % {"count": count})
        else:
            self.error(where, _("a table has four seats."))
        return False

    def read_table(self, m: int, draw: int, t: int, table: dict, where: str, seats: list[int]) -> TablePlan:
        """One table: at a table of five 40 games (games_for), seats 1–5, five numbers a row,
        five signatures, and the dealer sits out the game he dealt (README readings)."""
        profile = self.profile
        size = len(seats)
        games = profile.games_for(size)
        errors = len(self.errors)
        entries, from_games, given_points, numbers_seen = [], {}, {}, set()
        for game in self.array(table.get("games"), where, "games"):
            game = self.obj(game, where, "game")
            g = self.integer(game.get("game"), where, _("The game number"), 1, games)
            if g is None:
                continue
            game_where = _place(m, t, g)
            if g in numbers_seen:
                self.error(game_where, _("the game number is given twice."))
                continue
            numbers_seen.add(g)
            entry = _game_entry(self, game, g, game_where, size)
            if entry is None:
                continue
            entries.append(entry)
            if "approved_by" in game:
                contract = approval_contract(entry, profile, size)
                if contract is not None:
                    by = self.text(game["approved_by"], game_where, "approved_by", 150, required=False)
                    from_games[g] = {"game": g, "contract": contract.value, "by": by}
            if "points" in game and not isinstance(entry, Transcribed):
                if _is_points(game["points"], size):
                    given_points[g] = game["points"]
                else:
                    self.error(game_where, _points_message(size))
        # This project's writer lists every approval, with who and when; other tools say it
        # on the game.
        approvals = (
            self.read_approvals(table, where, games) if "approvals" in table else list(from_games.values())
        )
        sheet = score_sheet(entries, profile, seats=size)
        for problem in sheet.problems:
            if problem.code is Code.GAME_MISSING:
                continue  # a match still being played
            self.error(_place(m, t, problem.game) if problem.game else where, _engine_message(problem))
        for g, points in given_points.items():
            row = sheet.row(g)
            if row is not None and row.scored.ok and list(row.scored.points) != points:
                if size == 5:
                    message = _(
                        "the five points %(given)s differ from the points of the game as "
                        "described, %(computed)s."
                    )
                else:
                    message = _(
                        "the four points %(given)s differ from the points of the game as "
                        "described, %(computed)s."
                    )
                self.error(
                    _place(m, t, g), message % {"given": _shown(points), "computed": list(row.scored.points)}
                )
        # open and complete follow from the games; signed and void are documents (5.3.2, 5.3.6)
        status = self.choice(table.get("status", "open"), Scoresheet.Status.values, where, "status")
        if status not in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID):
            status = Scoresheet.Status.OPEN
        scorekeeper = (
            self.integer(table.get("scorekeeper", 1), where, _("The scorekeeper's seat"), 1, size) or 1
        )
        plan = TablePlan(
            m,
            draw,
            t,
            seats,
            entries,
            approvals,
            status=status,
            scorekeeper=scorekeeper,
            signing=self.read_signing(m, table, where, size, games),
            scan=self.read_scan(table.get("scan"), where),
        )
        if len(self.errors) == errors:  # a table read without a problem: its digest can be checked
            self.check_signed(m, table, plan, sheet, where)
        return plan

    def read_approvals(self, table: dict, where: str, last: int) -> list[dict]:
        """The approvals of a table whose match has ``last`` games."""
        approvals, games = [], set()
        contracts = [c.value for c in Contract if c is not Contract.RUFER]
        for item in self.array(table.get("approvals"), where, "approvals"):
            item = self.obj(item, where, "approval")
            g = self.integer(item.get("game"), where, _("The game number"), 1, last)
            place = f"{where}, " + _("game %(n)s") % {"n": g} if g else where
            if g in games:
                self.error(place, _("the game has two approvals."))
                continue
            games.add(g)
            approval = {
                "game": g,
                "contract": self.choice(item.get("contract"), contracts, place, "contract"),
                "by": self.text(item.get("by"), place, _("Who approved"), 150, required=False),
                "username": self.text(item.get("username"), place, _("The user name"), 150, required=False),
                "at": self.moment(item.get("at"), place, _("The time of the approval"), required=False),
                "hand": self.free(item.get("hand"), place, "hand"),
                "hand_check": self.free(item.get("hand_check"), place, "hand_check"),
            }
            if g is not None and approval["contract"] is not None:
                approvals.append(approval)
        return approvals

    def read_signing(self, m: int, table: dict, where: str, size: int, last: int) -> dict:
        """What this project's writer adds to a table about signing (5.3.2-5.3.6), at a table of
        ``size`` seats whose match has ``last`` games."""
        found: dict[str, Any] = {}
        if table.get("signed_as") is not None:
            found["signed_as"] = self.read_signed_as(table["signed_as"], where, size)
        if table.get("digest") is not None:
            digest = table["digest"]
            if not isinstance(digest, str) or not DIGEST.fullmatch(digest):
                self.error(where, _("the digest must be 64 hexadecimal digits."))
            else:
                found["digest"] = digest
            found["digest_version"] = self.integer(
                table.get("digest_version", 1), where, _("The digest version"), 1, DIGEST_VERSION
            )
        if table.get("locked_at") is not None:
            found["locked_at"] = self.moment(table["locked_at"], where, _("The time of the lock"))
        found["void_reason"] = self.text(
            table.get("void_reason"), where, _("The reason"), 2000, required=False
        )
        found["signatures"], signed = [], set()
        for index, item in enumerate(self.array(table.get("signatures"), where, "signatures")):
            place = f"{where}, " + _("signature %(n)s") % {"n": index + 1}
            item = self.obj(item, place, "signature")
            position = self.integer(item.get("position"), place, _("The seat"), 1, size)
            if position is not None and position in signed:
                self.error(place, _("seat %(seat)s has signed twice.") % {"seat": position})
            signed.add(position)
            image = self.text(item.get("image"), place, _("The signature"), MAX_IMAGE, required=False)
            found["signatures"].append(
                {
                    "position": position,
                    "name": self.text(item.get("name"), place, _("The name"), 200, required=False),
                    "method": self.choice(item.get("method"), ["pad", "paper"], place, "method"),
                    "signed_at": self.moment(item.get("signed_at"), place, _("The time of the signature")),
                    "image": image if image.startswith(IMAGE_PREFIX) else "",
                    "recorded_by": self.text(
                        item.get("recorded_by"), place, _("The user name"), 150, required=False
                    ),
                }
            )
        found["corrections"] = []
        for index, item in enumerate(self.array(table.get("corrections"), where, "corrections")):
            place = f"{where}, " + _("correction %(n)s") % {"n": index + 1}
            item = self.obj(item, place, "correction")
            before, after = item.get("before"), item.get("after")
            found["corrections"].append(
                {
                    "game": self.integer(item.get("game"), place, _("The game number"), 1, last),
                    "before": self.free(before if isinstance(before, dict) else {}, place, "before"),
                    "after": self.free(after if isinstance(after, dict) else None, place, "after"),
                    "reason": self.text(item.get("reason"), place, _("The reason"), 2000, required=False),
                    "initials": self.text(item.get("initials"), place, _("The initials"), 10, required=False),
                    "at": self.moment(item.get("at"), place, _("The time of the correction")),
                    "by": self.text(item.get("by"), place, _("Who corrected"), 150, required=False),
                    "digest_before": self.text(
                        item.get("digest_before"), place, "digest_before", 64, required=False
                    ),
                    "digest_after": self.text(
                        item.get("digest_after"), place, "digest_after", 64, required=False
                    ),
                }
            )
        return found

    def read_signed_as(self, value: Any, where: str, size: int) -> dict | None:
        value = self.obj(value, where, "signed_as")
        head = self.obj(value.get("tournament"), where, "signed_as.tournament")
        seats = self.array(value.get("seats"), where, "signed_as.seats")
        errors = len(self.errors)
        read = {
            "tournament": {
                "name": self.text(head.get("name"), where, _("The name"), 200),
                "date": self.text(head.get("date"), where, _("The date"), 10),
            },
            "seats": [
                {
                    "seat": self.integer(s.get("seat"), where, _("The seat"), 1, size),
                    "number": self.integer(s.get("number"), where, _("The start number")),
                    "name": self.text(s.get("name"), where, _("The name"), 200),
                }
                for s in (self.obj(s, where, "seat") for s in seats)
            ],
        }
        return read if len(self.errors) == errors else None

    def read_scan(self, value: Any, where: str) -> tuple[str, bytes] | None:
        """The photo or scan of the signed paper original, carried in the document (base64)."""
        if value is None:
            return None
        value = self.obj(value, where, "scan")
        if value.get("missing"):
            self.notes.append(f"{where}: " + _("the document says the scan was missing when it was written."))
            return None
        data = value.get("base64")
        if not isinstance(data, str) or len(data) > MAX_SCAN_BYTES * 4 // 3 + 4:
            self.error(
                where, _("The scan is missing or larger than %(mb)s MB.") % {"mb": MAX_SCAN_BYTES >> 20}
            )
            return None
        try:
            content = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            self.error(where, _("The scan is not valid base64."))
            return None
        suffix = scan_suffix(content[:16])
        if suffix is None:
            self.error(where, _("The scan must be a photo (JPEG, PNG, HEIC or WebP) or a PDF."))
            return None
        return suffix, content

    def check_signed(self, m: int, table: dict, plan: TablePlan, sheet, where: str) -> None:
        """A signed sheet is complete, has the signatures of all its seats (four, or five at a
        table of five) and gives its digest (5.3.2)."""
        signing = plan.signing
        if plan.status != Scoresheet.Status.SIGNED and not signing.get("digest"):
            return
        if plan.status == Scoresheet.Status.SIGNED and not sheet.complete:
            self.error(where, _("the scoresheet is marked signed but is not complete."))
        size = len(plan.seats)
        if sorted(s["position"] for s in signing["signatures"] if s["position"]) != list(range(1, size + 1)):
            if size == 5:
                self.error(where, _("a signed scoresheet has the five signatures of its seats (5.3.2)."))
            else:
                self.error(where, _("a signed scoresheet has the four signatures of its seats (5.3.2)."))
        if not signing.get("digest"):
            self.error(where, _("a signed scoresheet has its digest."))
            return
        header = signing.get("signed_as")
        if header and [seat["number"] for seat in header["seats"]] != plan.seats:
            self.error(where, _("the players on the seats differ from those who signed."))
        if signing.get("digest_version") == DIGEST_VERSION:
            if not signing.get("signed_as"):
                self.error(where, _("a signed scoresheet says what was signed (signed_as)."))
            elif digest_of(canonical(m, table)) != signing["digest"]:
                self.error(
                    where,
                    _(
                        "the content of the signed scoresheet does not give its digest: "
                        "it was changed after signing."
                    ),
                )
        # A sheet signed in the earlier form (digest version 1) is checked once it is written.

    # Lots and the log

    def lots(self):
        self.lot_draws = []
        for index, item in enumerate(self.array(self.document.get("lots"), "", "lots")):
            where = _("Lot %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "lot")
            match = item.get("match")
            if match is not None:
                match = self.integer(match, where, _("The match"), 1, self.profile.matches)
            groups = []
            for group in self.array(item.get("groups"), where, "groups"):
                group = self.obj(group, where, "group")
                key, members = group.get("key"), group.get("members")
                if (
                    not isinstance(key, list)
                    or len(key) > 10
                    or any(isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_INTEGER for v in key)
                    or not isinstance(members, list)
                    or any(m not in self.numbers for m in members if not isinstance(m, bool))
                    or any(isinstance(m, bool) for m in members)
                ):
                    self.error(
                        where, _("a group of a lot holds its key and the start numbers of its members.")
                    )
                    continue
                groups.append(
                    {
                        "key": key,
                        "rank": self.integer(group.get("rank", 1), where, _("The rank")),
                        "members": members,
                    }
                )
            lot = {
                "match": match,
                "seed": self.text(item.get("seed"), where, _("The seed"), 64),
                "prize_places_only": bool(item.get("prize_places_only")),
                "groups": groups,
            }
            self.lot_draws.append(lot)

    def log(self):
        self.log_lines = []
        tables = {(t.match, t.draw, t.number) for t in self.tables}
        for index, item in enumerate(self.array(self.document.get("log"), "", "log")):
            where = _("Log line %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "log")
            line = {
                "at": self.moment(item.get("at"), where, _("The time")),
                "action": self.choice(item.get("action"), list(ACTIONS), where, "action"),
                "by": self.text(item.get("by"), where, _("Who"), 150, required=False),
                "game": self.integer(item["game"], where, _("The game"), 1, MAX_SMALL)
                if item.get("game") is not None
                else None,
                "data": self.free(item.get("data", {}), where, "data"),
                "sheet": None,
            }
            if item.get("table") is not None:
                key = (item.get("match"), item.get("draw", 1), item.get("table"))
                whole = all(isinstance(v, int) and not isinstance(v, bool) for v in key)
                if not whole or key not in tables:
                    self.error(
                        where,
                        _("there is no such match, draw and table: %(key)s.") % {"key": _shown(list(key))},
                    )
                line["sheet"] = key
            self.log_lines.append(line)


def _parsed(text: str | bytes) -> Any:
    if len(text) > MAX_DOCUMENT_BYTES:
        raise DocumentError([_("The document is larger than %(mb)s MB.") % {"mb": MAX_DOCUMENT_BYTES >> 20}])
    try:
        return parse_json(text)
    except JSONTextError as error:
        raise DocumentError([error.message]) from None


def read_document(text: str | bytes, slug: str | None = None) -> Plan:
    """Check a whole document; DocumentError lists everything that is wrong."""
    document = _parsed(text)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError(
            [_('This is not a tournament document: "format" must be "%(f)s".') % {"f": FORMAT}]
        )
    reader = _DocumentReader(document)
    reader.head()
    reader.participants()
    reader.substitutions()
    reader.matches()
    reader.late_substitutes()
    reader.lots()
    reader.log()
    reader.staff()
    teams = read_teams(reader, document.get("teams"), reader.numbers)  # issue 17
    prizes = read_prizes(reader, document.get("prizes"))  # issue 17
    if reader.errors:
        raise DocumentError(reader.errors)

    wanted = slugify(slug or reader.wanted_slug or reader.name)[:70] or "turnier"
    if slug and slug_taken(wanted):
        raise DocumentError([_("The short name “%(slug)s” is taken.") % {"slug": wanted}])
    chosen, counter = wanted, 2
    while slug_taken(chosen):
        chosen, counter = f"{wanted[:64]}-{counter}", counter + 1
    return Plan(
        name=reader.name,
        date=reader.day,
        venue=reader.venue,
        organiser=reader.organiser,
        slug=chosen,
        profile=reader.profile,
        status=reader.status,
        prize_places=reader.prize_places,
        retention_until=reader.retention_until,
        participants=reader.people,
        substitutions=reader.subs,
        draws=reader.draws,
        tables=reader.tables,
        lots=reader.lot_draws,
        staff=reader.roles,
        log=reader.log_lines,
        notes=reader.notes,
        teams=teams,
        check_in=reader.check_in,
        prizes=prizes,
    )
