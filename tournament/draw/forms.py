from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class DrawForm(forms.Form):
    match = forms.IntegerField(label=_("match"), required=False, min_value=1, widget=forms.HiddenInput)
    seed = forms.CharField(
        label=_("seed"),
        max_length=64,
        required=False,
        help_text=_("Empty: a new random seed. The same seed gives the same draw."),
    )
    discard_results = forms.BooleanField(
        label=_(
            "I am the supervisor and confirm that the entered results of the matches drawn again "
            "are discarded (they stay in the history)."
        ),
        required=False,
    )
