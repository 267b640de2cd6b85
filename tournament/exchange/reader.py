"""Reading the exchange format ``schafkopf-tournament/1`` (shared/EXCHANGE.md).

``read_document`` checks everything without touching the database (structure, profile,
participants, seats, and every game through the rules engine) and returns a plan or the list of
what is wrong, each message naming match, table and game. ``importer.import_plan`` then writes
the plan in one transaction: a refused document leaves nothing."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import Code, Contract, Game, Problem, Result, Sanction, Suit, Transcribed, score_sheet
from scoring.approvals import approval_contract
from scoring.entries import Entry
from scoring.profiles import ProfileError, RuleProfile, profile_from_exchange

from ..participants.models import Participant
from ..participants.registration import age_on
from ..problems import problem_message, problem_messages
from ..results.models import Scoresheet
from ..tournaments.models import Tournament

FORMAT = "schafkopf-tournament/1"


class DocumentError(ValueError):
    """The document is refused; ``messages`` says everything that is wrong."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass
class TablePlan:
    match: int
    number: int
    seats: list[int]
    entries: list[Entry]
    approvals: dict[int, tuple[str, str]]  # game number: (contract, approved by)
    status: str = Scoresheet.Status.OPEN
    scorekeeper: int = 1
    signing: dict = field(default_factory=dict)  # signatures, corrections, digest, lock, void


SIGNING_KEYS = ("signatures", "corrections", "digest", "locked_at", "void_reason")


def _signing(reader: _Reader, table: dict, where: str) -> dict:
    """What a writer of this project adds to a table about signing (5.3.2-5.3.6)."""
    found = {key: table[key] for key in SIGNING_KEYS if key in table}
    signed: set[int | None] = set()
    found["signatures"] = reader.array(found.get("signatures"), where, "signatures")
    found["corrections"] = reader.array(found.get("corrections"), where, "corrections")
    for index, signature in enumerate(found["signatures"]):
        place = f"{where}, " + _("signature %(n)s") % {"n": index + 1}
        signature = reader.obj(signature, place, "signature")
        position = reader.integer(signature.get("position"), place, _("The seat"), 1, 4)
        if position is not None and position in signed:
            reader.error(place, _("seat %(seat)s has signed twice.") % {"seat": position})
        signed.add(position)
        if signature.get("method") not in ("pad", "paper"):
            reader.error(
                place,
                _("“%(value)s” is not a valid %(field)s (one of: %(choices)s).")
                % {"value": signature.get("method"), "field": "method", "choices": "pad, paper"},
            )
        _moment(reader, signature.get("signed_at"), place)
    for index, correction in enumerate(found["corrections"]):
        place = f"{where}, " + _("correction %(n)s") % {"n": index + 1}
        correction = reader.obj(correction, place, "correction")
        reader.integer(correction.get("game"), place, _("The game number"))
        _moment(reader, correction.get("at"), place)
    if "locked_at" in found:
        _moment(reader, found["locked_at"], where)
    return found


def _moment(reader: _Reader, value, where: str):
    try:
        return datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        reader.error(
            where,
            _("%(what)s must be a date like 2026-11-21, not %(value)s.")
            % {"what": _("The time"), "value": json.dumps(value)},
        )
        return None


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
    participants: list[dict]
    substitutions: list[dict]
    matches: dict[int, str]  # number: seed
    tables: list[TablePlan]
    lots: list[dict] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(len(t.entries) for t in self.tables)


class _Reader:
    """Collects every problem of a document instead of stopping at the first."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, where: str, text: str) -> None:
        self.errors.append(f"{where}: {text}" if where else text)

    def integer(self, value: Any, where: str, what: str, low: int = 1, high: int | None = None):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < low
            or (high is not None and value > high)
        ):
            limits = f"{low}–{high}" if high is not None else f"≥ {low}"
            self.error(
                where,
                _("%(what)s must be a whole number %(limits)s, not %(value)s.")
                % {"what": what, "limits": limits, "value": json.dumps(value)},
            )
            return None
        return value

    def text(self, value: Any, where: str, what: str, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.error(where, _("%(what)s is missing or not text.") % {"what": what})
            return ""
        return value.strip()

    def date(self, value: Any, where: str, what: str, required: bool = True):
        if value is None and not required:
            return None
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            self.error(
                where,
                _("%(what)s must be a date like 2026-11-21, not %(value)s.")
                % {"what": what, "value": json.dumps(value)},
            )
            return None

    def obj(self, value: Any, where: str, what: str) -> dict:
        if not isinstance(value, dict):
            self.error(where, _("%(what)s must be an object.") % {"what": what})
            return {}
        return value

    def array(self, value: Any, where: str, what: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(where, _("%(what)s must be a list.") % {"what": what})
            return []
        return value


def _place(match=None, table=None, game=None) -> str:
    parts = []
    if match is not None:
        parts.append(_("match %(n)s") % {"n": match})
    if table is not None:
        parts.append(_("table %(n)s") % {"n": table})
    if game is not None:
        parts.append(_("game %(n)s") % {"n": game})
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


_ENUM_NAMES = {Contract: "contract", Suit: "suit", Result: "result"}


def _choice(reader: _Reader, value: Any, enum, where: str):
    """An exchange-format name as its enum, or None after saying which value is unknown."""
    try:
        return enum(value)
    except ValueError:
        reader.error(
            where,
            _("“%(value)s” is not a valid %(field)s (one of: %(choices)s).")
            % {
                "value": value,
                "field": _ENUM_NAMES[enum],
                "choices": ", ".join(member.value for member in enum),
            },
        )
        return None


def _game_entry(reader: _Reader, data: dict, number: int, where: str):
    """The engine entry a game object describes, or None after recording why not."""
    errors = len(reader.errors)
    if "sanction" in data:
        s = reader.obj(data["sanction"], where, "sanction")
        contract = _choice(reader, s.get("contract"), Contract, where)
        if len(reader.errors) > errors:
            return None
        return Sanction(number, contract, s.get("declarer"), s.get("liable"), s.get("partner"))
    if "contract" in data:
        contract = _choice(reader, data["contract"], Contract, where)
        suit = _choice(reader, data["suit"], Suit, where) if data.get("suit") is not None else None
        result = _choice(reader, data["result"], Result, where) if data.get("result") is not None else None
        if len(reader.errors) > errors:
            return None
        return Game(
            number,
            contract,
            data.get("declarer"),
            suit=suit,
            partner=data.get("partner"),
            result=result,
            schneider=bool(data.get("schneider", False)),
            schwarz=bool(data.get("schwarz", False)),
            declarer_points=data.get("declarer_points"),
            invalid_announcement=bool(data.get("invalid_announcement", False)),
            approved="approved_by" in data,
        )
    if "points" in data:
        points = data["points"]
        if not isinstance(points, list):
            reader.error(where, problem_message(Problem(Code.POINTS_NOT_FOUR)))
            return None
        return Transcribed(number, tuple(points), data.get("declarer"), approved="approved_by" in data)
    reader.error(where, _("a game needs a contract, a sanction or the four points."))
    return None


def read_document(text: str | bytes, slug: str | None = None) -> Plan:
    """Check a whole document; DocumentError lists everything that is wrong."""
    reader = _Reader()
    try:
        document = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        where = getattr(error, "lineno", None)
        raise DocumentError(
            [
                _("The file is not JSON (line %(line)s: %(error)s).")
                % {"line": where or "?", "error": getattr(error, "msg", str(error))}
            ]
        ) from None
    document = reader.obj(document, "", _("The document"))
    if document.get("format") != FORMAT:
        raise DocumentError(
            [_('This is not a tournament document: "format" must be "%(f)s".') % {"f": FORMAT}]
        )
    head = reader.obj(document.get("tournament"), "", "tournament")
    name = reader.text(head.get("name"), _("Tournament"), _("The name"))
    date = reader.date(head.get("date"), _("Tournament"), _("The date"))
    try:
        profile = profile_from_exchange(reader.obj(head.get("rules") or {}, _("Tournament"), "rules"))
    except ProfileError as error:
        for message in problem_messages(error.problems):
            reader.error(_("Rules"), message)
        raise DocumentError(reader.errors) from None

    participants, numbers = [], {}
    for index, item in enumerate(reader.array(document.get("participants"), "", "participants")):
        item = reader.obj(item, _("Participant %(n)s") % {"n": index + 1}, "participant")
        number = reader.integer(
            item.get("number"), _("Participant %(n)s") % {"n": index + 1}, _("The start number")
        )
        where = _("Start number %(n)s") % {"n": number}
        person = {
            "number": number,
            "name": reader.text(item.get("name"), where, _("The name")),
            "club": reader.text(item.get("club"), where, _("The club"), required=False),
            "birth_date": reader.date(item.get("birth_date"), where, _("The date of birth"), required=False),
            "status": item.get("status")
            if item.get("status") in Participant.Status.values
            else Participant.Status.ACTIVE,
        }
        if number is None:
            continue
        if number in numbers:
            reader.error(where, _("the start number is given twice."))
        numbers[number] = person
        birth = person["birth_date"]
        if birth and date and age_on(birth, date) < profile.min_age:  # 5.2.12
            reader.error(
                where, _("younger than %(age)s on the tournament day (5.2.12).") % {"age": profile.min_age}
            )
        participants.append(person)

    substitutions = []
    for index, item in enumerate(reader.array(document.get("substitutions"), "", "substitutions")):
        where = _("Substitution %(n)s") % {"n": index + 1}
        item = reader.obj(item, where, "substitution")
        number = item.get("number")
        if number not in numbers:
            reader.error(where, _("start number %(n)s is not a participant.") % {"n": json.dumps(number)})
        substitutions.append(
            {
                "number": number,
                "name": reader.text(item.get("name"), where, _("The name")),
                "club": reader.text(item.get("club"), where, _("The club"), required=False),
                "from_match": reader.integer(
                    item.get("from_match"), where, _("The match"), 1, profile.matches
                ),
                "from_game": reader.integer(
                    item.get("from_game", 1), where, _("The game"), 1, profile.games_per_match
                ),
            }
        )

    matches, tables = {}, []
    for item in reader.array(document.get("matches"), "", "matches"):
        item = reader.obj(item, "", "match")
        m = reader.integer(item.get("number"), _("Match"), _("The match number"), 1, profile.matches)
        if m is None:
            continue
        if m in matches:
            reader.error(_place(m), _("the match is given twice."))
        matches[m] = item.get("seed") if isinstance(item.get("seed"), str) else ""
        seated: dict[int, int] = {}
        table_numbers = set()
        for table in reader.array(item.get("tables"), _place(m), "tables"):
            table = reader.obj(table, _place(m), "table")
            t = reader.integer(table.get("number"), _place(m), _("The table number"))
            if t is None:
                continue
            where = _place(m, t)
            if t in table_numbers:
                reader.error(where, _("the table is given twice."))
            table_numbers.add(t)
            seats = table.get("seats")
            if not isinstance(seats, list) or len(seats) != 4:
                reader.error(where, _("a table has four seats."))
                continue
            for seat in seats:
                if isinstance(seat, bool) or not isinstance(seat, int) or seat not in numbers:
                    reader.error(
                        where, _("start number %(n)s is not a participant.") % {"n": json.dumps(seat)}
                    )
                elif seat in seated:
                    reader.error(
                        where,
                        _("start number %(n)s also sits at table %(other)s.")
                        % {"n": seat, "other": seated[seat]},
                    )
                else:
                    seated[seat] = t
            entries, approvals, given_points, numbers_seen = [], {}, {}, set()
            for game in reader.array(table.get("games"), where, "games"):
                game = reader.obj(game, where, "game")
                g = reader.integer(game.get("game"), where, _("The game number"), 1, profile.games_per_match)
                if g is None:
                    continue
                game_where = _place(m, t, g)
                if g in numbers_seen:
                    reader.error(game_where, _("the game number is given twice."))
                    continue
                numbers_seen.add(g)
                entry = _game_entry(reader, game, g, game_where)
                if entry is None:
                    continue
                entries.append(entry)
                if "approved_by" in game:
                    contract = approval_contract(entry, profile)
                    if contract is not None:
                        approvals[g] = (contract.value, str(game["approved_by"])[:150])
                if "points" in game and not isinstance(entry, Transcribed):
                    given_points[g] = game["points"]
            sheet = score_sheet(entries, profile)
            for problem in sheet.problems:
                if problem.code in (Code.GAME_MISSING,):
                    continue  # a match still being played
                reader.error(
                    _place(m, t, problem.game) if problem.game else where,
                    problem_message(
                        Problem(problem.code, None, problem.round, problem.seat, problem.field, problem.value)
                    ),
                )
            for g, points in given_points.items():
                row = sheet.row(g)
                if row is not None and row.scored.ok and list(row.scored.points) != points:
                    reader.error(
                        _place(m, t, g),
                        _(
                            "the four points %(given)s differ from the points of the game as "
                            "described, %(computed)s."
                        )
                        % {"given": points, "computed": list(row.scored.points)},
                    )
            tables.append(
                TablePlan(
                    m,
                    t,
                    list(seats),
                    entries,
                    approvals,
                    status=Scoresheet.Status.VOID
                    if table.get("status") == "void"
                    else Scoresheet.Status.SIGNED
                    if table.get("status") == "signed"
                    else Scoresheet.Status.OPEN,
                    signing=_signing(reader, table, _place(m, t)),
                    scorekeeper=table.get("scorekeeper") if table.get("scorekeeper") in (1, 2, 3, 4) else 1,
                )
            )
    if reader.errors:
        raise DocumentError(reader.errors)

    wanted = slug or head.get("slug") or slugify(name) or "turnier"
    chosen = slugify(wanted)[:70] or "turnier"
    if slug and Tournament.objects.filter(slug=chosen).exists():
        raise DocumentError([_("The short name “%(slug)s” is taken.") % {"slug": chosen}])
    base, counter = chosen, 2
    while Tournament.objects.filter(slug=chosen).exists():
        chosen, counter = f"{base}-{counter}", counter + 1
    return Plan(
        name=name,
        date=date,
        venue=str(head.get("venue") or ""),
        organiser=str(head.get("organiser") or ""),
        slug=chosen,
        profile=profile,
        status=head.get("status")
        if head.get("status") in Tournament.Status.values
        else Tournament.Status.FINISHED,
        prize_places=head.get("prize_places")
        if isinstance(head.get("prize_places"), int)
        and not isinstance(head.get("prize_places"), bool)
        and head["prize_places"] >= 1
        else 3,
        participants=participants,
        substitutions=substitutions,
        matches=matches,
        tables=tables,
        lots=[lot for lot in reader.array(document.get("lots"), "", "lots") if isinstance(lot, dict)],
    )
