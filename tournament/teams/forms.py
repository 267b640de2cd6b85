"""Forms of the team pages."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from ..participants.models import Participant
from ..participants.teams import MAX_NAME


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team"), max_length=MAX_NAME)


class MembersForm(forms.Form):
    """Start numbers typed as on the paper list: "3, 7 12;15"."""

    numbers = forms.CharField(
        label=_("start numbers"),
        max_length=2000,
        help_text=_("Separated by commas or spaces, e.g. 3, 7, 12, 15."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_numbers(self) -> list[Participant]:
        parts = [part for part in re.split(r"[\s,;]+", self.cleaned_data["numbers"]) if part]
        wrong = [part for part in parts if not (part.isascii() and part.isdigit() and len(part) <= 10)]
        if wrong:
            raise forms.ValidationError(_("“%(value)s” is not a start number.") % {"value": wrong[0][:20]})
        numbers = sorted({int(part) for part in parts})
        if not numbers:
            raise forms.ValidationError(_("Type at least one start number."))
        found = list(Participant.objects.filter(tournament=self.tournament, number__in=numbers))
        missing = sorted(set(numbers) - {p.number for p in found})
        if missing:
            raise forms.ValidationError(
                _("No participant of this tournament has the start number %(numbers)s.")
                % {"numbers": ", ".join(map(str, missing))}
            )
        return found
