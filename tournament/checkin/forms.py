"""The door's form: a late arrival registered, checked in and his fee marked in one step."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..tournaments.forms import birth_date_field


class DoorRegistrationForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=200)
    club = forms.CharField(label=_("club"), max_length=200, required=False)
    birth_date = birth_date_field()
    paid = forms.BooleanField(label=_("entry fee paid"), required=False)

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Enter the name."))
        return name
