from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class LotForm(forms.Form):
    prize_places_only = forms.BooleanField(label=_("only ties touching the prize places"), required=False)
    seed = forms.CharField(
        label=_("seed"),
        max_length=64,
        required=False,
        help_text=_("Empty: a new random seed. The same seed gives the same lots."),
    )
