"""The door's pages: search and check in, the QR code of a registration confirmation opening its
participant, and the confirmations to print or send."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..documents.qr import qr_vector
from ..documents.views import DocumentMixin
from ..errors import ServiceError
from ..hall import phone_address
from ..names import by_name, name_search
from ..participants.models import Participant
from ..participants.views import participant_of
from ..tournaments.access import PartialMixin, TournamentMixin
from ..tournaments.permissions import Perm
from . import services
from .forms import DoorRegistrationForm

SHOWN = 60  # participants listed without a search


def checkin_url(request, tournament, number: int) -> str:
    """The address a confirmation's QR code opens: the door's page of that participant."""
    return phone_address(reverse("organiser:checkin_one", args=[tournament.slug, number]), request)


class CheckInView(PartialMixin, TournamentMixin, TemplateView):
    """At the door: find a participant by name or start number, check him in, mark a no-show,
    take the entry fee; register a late arrival, checked in (and paid) in the same step."""

    template_name = "checkin/checkin.html"
    partial_name = "checkin/_list.html"
    ACTIONS = ("in", "out", "no_show", "paid", "unpaid")

    def found(self, query: str):
        participants = self.tournament.participants.exclude(status=Participant.Status.RESERVE)
        query = query.strip()
        if query.isascii() and query.isdigit():
            return participants.filter(number=int(query)), False
        shown, total = by_name(name_search(participants, query, "name"), SHOWN, then="number")
        return shown, total > SHOWN

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", self.request.POST.get("q", ""))
        number = kwargs.get("number")
        if number is not None:
            context["one"] = participant_of(self.tournament, number)
            shown, more = [context["one"]], False
        else:
            shown, more = self.found(query)
        context.update(
            query=query,
            participants=shown,
            more=more,
            counts=services.door_counts(self.tournament),
            can_edit=self.can(Perm.EDIT_PARTICIPANTS),
        )
        context.setdefault("register_form", DoorRegistrationForm())
        return context

    def back(self, request, **kwargs):
        """The door page as it was: the same search, or the same participant."""
        if request.htmx:
            return self.render_to_response(self.get_context_data(**kwargs))
        query = request.POST.get("q", "")
        if query and "number" not in kwargs:
            return redirect(f"{request.path}?{urlencode({'q': query})}")
        return redirect(request.path)

    def register(self, request, **kwargs):
        form = DoorRegistrationForm(request.POST)
        if form.is_valid():
            fields = form.cleaned_data
            try:
                participant = services.register_at_door(request.user, self.tournament, **fields)
            except ServiceError as error:
                form.add_error(None, error.message)
            else:
                text = (
                    _("%(name)s has start number %(number)s, is checked in and has paid the entry fee.")
                    if participant.fee_paid
                    else _("%(name)s has start number %(number)s and is checked in.")
                )
                messages.success(request, text % {"name": participant.name, "number": participant.number})
                return self.back(request, **kwargs)
        # The typed name stays in the form, with what was wrong; nothing is saved.
        return self.render_to_response(self.get_context_data(register_form=form, **kwargs))

    def post(self, request, *args, **kwargs):
        if not self.can(Perm.EDIT_PARTICIPANTS):
            raise PermissionDenied
        action = request.POST.get("action", "")
        if action == "register":
            return self.register(request, **kwargs)
        number = request.POST.get("number", "")
        if action not in self.ACTIONS or not (number.isascii() and number.isdigit()):
            return HttpResponseBadRequest(_("The request is incomplete: please reload the page."))
        participant = participant_of(self.tournament, int(number))
        try:
            if action in ("in", "out"):
                services.check_in(request.user, participant, present=action == "in")
            elif action == "no_show":
                services.mark_no_show(request.user, participant)
            else:
                services.set_fee_paid(request.user, participant, paid=action == "paid")
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            texts = {
                "in": _("%(name)s (no. %(number)s) is checked in."),
                "out": _("%(name)s (no. %(number)s): check-in undone."),
                "no_show": _("%(name)s (no. %(number)s) is marked as not come."),
                "paid": _("%(name)s (no. %(number)s) has paid the entry fee."),
                "unpaid": _("%(name)s (no. %(number)s): entry fee not paid."),
            }
            values = {"name": participant.name, "number": participant.number}
            messages.success(request, texts[action] % values)
        return self.back(request, **kwargs)


class ConfirmationsView(DocumentMixin, TournamentMixin, TemplateView):
    """Registration confirmations, one A6 page each (``?number=N`` for one), with the QR code the
    door scans to open the participant."""

    template_name = "print/confirmations.html"

    def document_name(self) -> str:
        number = self.number()
        return f"anmeldebestaetigung-{number}" if number else "anmeldebestaetigungen"

    def number(self) -> int | None:
        value = self.request.GET.get("number", "")
        return int(value) if value.isascii() and value.isdigit() else None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participants = self.tournament.participants.exclude(status=Participant.Status.WITHDRAWN)
        number = self.number()
        if number is not None:
            participants = participants.filter(number=number)
        context["confirmations"] = [
            (participant, qr_vector(checkin_url(self.request, self.tournament, participant.number)))
            for participant in participants.order_by("number")
        ]
        return context
