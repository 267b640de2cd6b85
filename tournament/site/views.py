"""Pages that show what several capabilities hold: the organiser's dashboard (participants,
check-in, the draw, the log's history), the public overview and a participant's own page (his
seats, games and rank)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..checkin.services import door_counts
from ..draw import redraw
from ..draw import services as draw_service
from ..participants.models import Participant
from ..results.history import log_change
from ..results.load import load_sheets
from ..standings import standings
from ..stats.players import tournament_stats
from ..tournaments.access import PublicMixin, TournamentMixin
from ..tournaments.models import StaffRole
from ..tournaments.permissions import Perm, has_perm
from ..tournaments.prize_places import prize_places


class OverviewView(PublicMixin, TemplateView):
    template_name = "public/overview.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["matches"] = self.tournament.matches.all()
        # Those in the standings (issue 28, item 10): no reserves, nobody who did not come.
        context["participants"] = len(standings.compute(self.tournament).rows)
        return context


def overrides_in_words(overrides: dict) -> list[str]:
    """Where the rules differ from their profile, as the organiser reads them."""
    words = []
    numbers = {
        "matches": _("%(n)s matches"),
        "games_per_match": _("%(n)s games a match"),
        "solo_approval_from": _("approval from the %(n)sth Solo/Wenz"),
        "min_age": _("minimum age %(n)s"),
    }
    for key, text in numbers.items():
        if key in overrides:
            words.append(text % {"n": overrides[key]})
    points = overrides.get("points", {})
    pairs = {"tout": _("Tout %(values)s"), "sie": _("Sie %(values)s")}
    if "rufer" in points:
        words.append(_("Sauspiel %(values)s") % {"values": "/".join(str(v) for v in points["rufer"])})
    if "solo" in points:
        levels = ", ".join("/".join(str(v) for v in pair) for pair in points["solo"])
        words.append(_("Solo/Wenz %(values)s (plain, Schneider, Schwarz)") % {"values": levels})
    for key, text in pairs.items():
        if key in points:
            words.append(text % {"values": "/".join(str(v) for v in points[key])})
    sanctions = overrides.get("sanctions", {})
    if sanctions:
        parts = [
            f"{name} {'/'.join(str(v) for v in value) if isinstance(value, list) else value}"
            for name, value in (
                ("Sauspiel", sanctions.get("rufer")),
                ("Solo", sanctions.get("solo")),
                ("Tout", sanctions.get("tout")),
            )
            if value is not None
        ]
        words.append(_("sanctions %(values)s") % {"values": ", ".join(parts)})
    return words


def readiness(tournament) -> list[tuple[bool, str]]:
    """What the organiser still has to do before the draw, as (done, text)."""
    counts = tournament.participants.aggregate(
        active=Count("pk", filter=Q(status=Participant.Status.ACTIVE)),
        reserve=Count("pk", filter=Q(status=Participant.Status.RESERVE)),
        no_birth=Count("pk", filter=Q(birth_date__isnull=True)),
    )
    roles = set(tournament.staff.values_list("role", flat=True))
    if tournament.check_in:  # issue 17: the draw takes those checked in at the door
        door = door_counts(tournament)
        message = draw_service.tables_message(door.checked_in, tournament)
        first = (
            message is None,
            _("%(here)s of %(expected)s checked in (%(missing)s missing, %(paid)s paid): %(tables)s")
            % {
                "here": door.checked_in,
                "expected": door.registered,
                "missing": door.missing,
                "paid": door.paid,
                "tables": message or draw_service.tables_text(door.checked_in, tournament),
            },
        )
    else:
        message = draw_service.tables_message(counts["active"], tournament)
        first = (
            message is None,
            message
            or _("%(count)s active participants: %(tables)s")
            % {"count": counts["active"], "tables": draw_service.tables_text(counts["active"], tournament)},
        )
    items = [
        first,
        (
            StaffRole.Role.SUPERVISOR in roles,
            _("A supervisor is assigned.")
            if StaffRole.Role.SUPERVISOR in roles
            else _("No supervisor yet: approvals and sanctions need one (5.1.3, 5.2.14)."),
        ),
        (
            StaffRole.Role.REFEREE in roles,
            _("A referee is assigned.")
            if StaffRole.Role.REFEREE in roles
            else _("No referee yet to enter the results."),
        ),
    ]
    if counts["no_birth"]:
        items.append(
            (
                False,
                _(
                    "%(count)s participants have no date of birth: the minimum age "
                    "(5.2.12) cannot be checked for them."
                )
                % {"count": counts["no_birth"]},
            )
        )
    drawn = tournament.matches.filter(drawn_at__isnull=False).count()
    total = tournament.matches.count()
    items.append(
        (
            drawn == total and total > 0,
            _("%(drawn)s of %(total)s matches drawn.") % {"drawn": drawn, "total": total},
        )
    )
    return items


class DashboardView(TournamentMixin, TemplateView):
    template_name = "organiser/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["readiness"] = readiness(self.tournament)
        context["rules"] = self.tournament.rules
        context["games_at_five"] = self.tournament.rules.games_for(5)  # tables of five
        context["matches"] = self.tournament.matches.all()
        history = self.tournament.log.select_related("scoresheet__match", "scoresheet__table")
        shown = self.request.GET.get("history") == "all"
        context["history"] = [(entry, log_change(entry)) for entry in (history if shown else history[:25])]
        context["history_all"] = shown
        context["overrides"] = overrides_in_words(self.tournament.rule_overrides or {})
        context["prize_places"] = prize_places(self.tournament)  # declared or set (issue 28)
        context["redraw_requests"] = redraw.open_requests(self.tournament)  # for the supervisor
        # Stored totals changed behind the app's back (issue 27, item 9), found with the standings.
        context["standings"] = standings.compute(self.tournament)
        return context


def _stats_of(participant: Participant):
    found = tournament_stats(participant.tournament)
    return next((s for s in found if s.number == participant.number), None)


class ParticipantView(PublicMixin, TemplateView):
    """A participant's day: table and seat in every match, each game with his points, his
    running total and his rank."""

    template_name = "public/participant.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participant = get_object_or_404(
            Participant.objects.prefetch_related("substitutions").select_related("person"),
            tournament=self.tournament,
            number=kwargs["number"],
        )
        overall = standings.compute(self.tournament)
        seats = list(
            participant.seats.filter(match__discarded_at__isnull=True)
            .select_related("table__scoresheet", "match")
            .order_by("match__number")
        )
        rules = self.tournament.rules
        # The sheets of his tables through the one loader (results.load), as every sheet is shown.
        loaded = load_sheets([seat.table.scoresheet for seat in seats], signing=False)
        views = {read.sheet.table_id: read.view(rules) for read in loaded}
        matches = []
        for seat in seats:
            view = views[seat.table_id]
            games = view.counted_points(seat.position)
            matches.append(
                {
                    "seat": seat,
                    "mates": view.seats,
                    "games": [
                        {
                            "line": line,
                            "points": points,
                            "total": total,
                            "circled": line.circled == seat.position,
                            # a table of five: he dealt this game and sat it out (README readings)
                            "sat_out": view.size == 5 and line.dealer == seat.position,
                        }
                        for line, points, total in games
                    ],
                    "total": games[-1][2] if games else 0,
                    "complete": view.score.complete,  # "Endstand" only when every game is in
                    "void": view.void,
                }
            )
        agreed = participant.person_id is not None and participant.person.public_stats
        staff = has_perm(self.request.user, self.tournament, Perm.VIEW_STAFF_PAGES)
        context.update(
            participant=participant,
            row=overall.row(participant.number),
            overall=overall,  # its warning of stored totals that differ from the games
            unsigned=overall.unsigned,  # "vorläufig" (issue 28, item 2)
            # one who did not come is seated nowhere though matches are drawn (the walk of 28)
            drawn=bool(matches) or self.tournament.matches.filter(tables__isnull=False).exists(),
            matches=matches,
            metrics=standings.METRICS,
            # issue 30: his numbers in the tournament and his page over the register, only if he
            # agreed to public statistics (the register's checkbox); the tournament's staff see them
            stats=_stats_of(participant) if agreed or staff else None,
            player_page=agreed,
        )
        return context
