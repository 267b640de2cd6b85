"""The draw page and the lists for the hall: tables of a match, and who sits where."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from ..documents.views import DocumentMixin
from ..errors import ServiceError
from ..names import initial, sort_key, surname
from ..participants.models import Participant
from ..participants.views import participant_queryset
from ..tournaments.access import TournamentMixin
from ..tournaments.permissions import Perm
from . import redraw, sheets
from . import services as draw_service
from .forms import DrawForm
from .models import Seat
from .services import drawn_participants


class DrawView(TournamentMixin, FormView):
    """The organiser's draw; the supervisor sees it too, to confirm or decline the redraw of a
    match with results that the organiser asked for (issue 28). Drawing stays the organiser's:
    the service refuses anyone else."""

    template_name = "organiser/draw.html"
    form_class = DrawForm

    def get(self, request, *args, **kwargs):
        if not (self.can(Perm.DRAW) or self.can(Perm.DISCARD_RESULTS)):
            raise PermissionDenied
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        if not self.can(Perm.DRAW):
            raise PermissionDenied
        return super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participants = self.tournament.participants
        # Who the draw takes: with check-in at the door only those checked in (issue 17).
        active_players = drawn_participants(self.tournament)
        active = active_players.count()
        _missing, too_many = draw_service.off_by(active, self.tournament)
        requests, declined = redraw.requests(self.tournament)
        annotated = self.tournament.matches.annotate(results=Count("scoresheets__entries"))
        matches = [(m, m.results) for m in annotated]
        context.update(
            matches=matches,
            any_drawn=any(m.is_drawn for m, _results in matches),
            any_results=any(results for _m, results in matches),
            active=active,
            message=draw_service.tables_message(active, self.tournament),
            tables=draw_service.tables_text(active, self.tournament),
            check_in=self.tournament.check_in,
            reserves=participants.filter(status=Participant.Status.RESERVE),
            # The latest registered are offered for the reserve when there are too many.
            latest_active=active_players.order_by("-number")[:too_many],
            repeats=draw_service.repeated_table_mates(self.tournament),
            requests=requests,
            declined=declined,
            # signed or void sheets are documents: no draw replaces them (5.3.5)
            documents=Counter(number for number, _table in sheets.closed(self.tournament.matches.all())),
            can_draw=self.can(Perm.DRAW),
            can_discard=self.can(Perm.DISCARD_RESULTS),
        )
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        replaced = {m.number for m in self.tournament.matches.all() if m.is_drawn}
        try:
            if data.get("match"):
                draw_service.draw_one(
                    self.request.user,
                    self.tournament,
                    data["match"],
                    seed=data["seed"],
                    discard_results=data["discard_results"],
                )
                messages.success(self.request, _("Match %(match)s was drawn.") % {"match": data["match"]})
                if data["match"] in replaced:
                    messages.warning(self.request, new_cards_reminder(data["match"]))
            else:
                draw_service.draw_all(
                    self.request.user,
                    self.tournament,
                    seed=data["seed"],
                    discard_results=data["discard_results"],
                )
                messages.success(self.request, _("All matches were drawn."))
                if replaced:
                    messages.warning(self.request, new_cards_reminder(None))
        except ServiceError as error:
            self.refuse(error)
        return redirect("organiser:draw", self.tournament.slug)

    def form_invalid(self, form):
        # Every form of the page posts here; what is wrong shows above them all.
        self.refuse_form(form)
        return redirect("organiser:draw", self.tournament.slug)


def new_cards_reminder(match: int | None) -> str:
    """After a redraw, as after a renewed code: the old table cards no longer work (issue 28)."""
    if match is None:
        return _("The old table codes no longer work; print the new table cards of every match.")
    return _("The old table codes of match %(match)s no longer work; print the new table cards.") % {
        "match": match
    }


class RedrawAskView(TournamentMixin, View):
    """The organiser asks the supervisor to discard a match's results and draw it again."""

    permission = Perm.DRAW
    http_method_names = ["post"]

    def post(self, request, slug, match):
        try:
            redraw.ask(request.user, self.tournament, match, seed=request.POST.get("seed", "")[:64])
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(
                request,
                _(
                    "The redraw of match %(match)s is asked for: the supervisor confirms it on this "
                    "page or on the board of the match."
                )
                % {"match": match},
            )
        return redirect("organiser:draw", self.tournament.slug)


class RedrawWithdrawView(TournamentMixin, View):
    """The organiser takes back his request for a redraw before the supervisor answers."""

    permission = Perm.DRAW
    http_method_names = ["post"]

    def post(self, request, slug, match):
        try:
            redraw.withdraw(request.user, self.tournament, match)
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(
                request,
                _("The request to draw match %(match)s again is withdrawn; its results stay.")
                % {"match": match},
            )
        return redirect("organiser:draw", self.tournament.slug)


class RedrawAnswerView(TournamentMixin, View):
    """The supervisor confirms discarding the results, which draws the match again, or declines.
    Confirming takes the ticked box as well as the button: a second step (issue 28)."""

    permission = Perm.DISCARD_RESULTS
    http_method_names = ["post"]

    def post(self, request, slug, match):
        confirm = request.POST.get("answer") == "confirm"
        if confirm and request.POST.get("discard_results") != "on":
            messages.error(
                request,
                _("Tick the box to confirm that the results of match %(match)s are discarded.")
                % {"match": match},
            )
            return redirect("organiser:draw", self.tournament.slug)
        try:
            drawn = redraw.answer(request.user, self.tournament, match, confirm)
        except ServiceError as error:
            self.refuse(error)
        else:
            if drawn is None:
                messages.success(request, _("The redraw of match %(match)s is declined.") % {"match": match})
            else:
                messages.success(
                    request,
                    _(
                        "Match %(match)s was drawn again; its results are discarded and kept as an "
                        "earlier draw."
                    )
                    % {"match": match},
                )
                messages.warning(request, new_cards_reminder(match))
        return redirect("organiser:draw", self.tournament.slug)


class TableListView(DocumentMixin, TournamentMixin, TemplateView):
    """Print-friendly: the tables of one match with their four players, or five at a table of
    five (5.2.2)."""

    template_name = "print/tables.html"
    filename = "tische"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = self.tournament.matches.filter(number=kwargs["match"]).first()
        if match is None:
            raise Http404
        tables = match.tables.prefetch_related(
            Prefetch("seats__participant__substitutions"), "seats__participant"
        )
        context["match"] = match
        context["tables"] = [
            (table, [(seat, seat.participant.player_name(match.number)) for seat in table.seats.all()])
            for table in tables
        ]
        return context


class SeatListView(DocumentMixin, TournamentMixin, TemplateView):
    """Print-friendly, by surname as people look for themselves: name → table and seat in
    every match that person plays; a substitute only from the match he takes over (5.2.11)."""

    template_name = "print/seats.html"
    filename = "sitzplaetze"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        matches = list(self.tournament.matches.filter(drawn_at__isnull=False))
        games = self.tournament.rules.games_for(5)  # every game of a table of four or five
        places: dict[int, dict[int, tuple[int, int]]] = {}
        for seat in Seat.objects.filter(match__in=matches).select_related("table", "match"):
            places.setdefault(seat.participant_id, {})[seat.match.number] = (seat.table.number, seat.position)
        rows = []
        for participant in participant_queryset(self.tournament):
            if participant.pk not in places:
                continue
            own = places[participant.pk]
            # Who plays for the start number in each match (a change within a match: both).
            players: dict[str, set[int]] = {participant.name: set()}
            for match in matches:
                if participant.substitutions.all():
                    names = {participant.player_name(match.number, game) for game in range(1, games + 1)}
                else:
                    names = {participant.name}
                for name in names:
                    players.setdefault(name, set()).add(match.number)
            for name, plays in players.items():
                if plays:
                    rows.append(
                        SeatRow(
                            name,
                            participant.number,
                            [own.get(m.number) if m.number in plays else None for m in matches],
                        )
                    )
        rows.sort(key=lambda row: (sort_key(row.name), row.number))
        context.update(matches=matches, rows=rows)
        return context


@dataclass(frozen=True)
class SeatRow:
    name: str
    number: int
    places: list

    @property
    def surname(self) -> str:
        return surname(self.name)

    @property
    def initial(self) -> str:
        return initial(self.name)

    @property
    def name_parts(self) -> tuple[str, str, str, str]:
        """The name around its surname, for the surname to stand out, and the comma after it
        (printed on the surname's line: never "Nußbaumer / , Hias", issue 28)."""
        last = self.surname
        index = self.name.rfind(last) if "," not in self.name else self.name.find(last)
        if not last or index < 0:
            return "", self.name, "", ""
        after = self.name[index + len(last) :]
        comma = "," if after.lstrip().startswith(",") else ""
        return self.name[:index], last, comma, after.lstrip()[1:] if comma else after
