"""``matches``: each match's draw (the current one and those a redraw discarded), its tables
with their seats, games and approvals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring import Code, Contract, Transcribed, score_sheet
from scoring.approvals import approval_contract

from ...results.models import Scoresheet
from .base import MAX_SMALL, _place, _Reader, _shown
from .games import _engine_message, _game_entry, _is_points, _points_message
from .plan import DrawPlan, TablePlan


class MatchesReader(_Reader):
    """Matches, tables, games: one part of ``document._DocumentReader`` (after the people: the
    seats are start numbers); each table's signing is ``signing.SigningReader``'s."""

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
