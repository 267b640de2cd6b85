"""Forms of the participant pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..tournaments.forms import DateInput, birth_date_field
from .models import Participant, Team


class ParticipantForm(forms.ModelForm):
    class Meta:
        model = Participant
        fields = ["number", "name", "club", "birth_date", "status", "team"]
        widgets = {"birth_date": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["number"].required = False
        self.fields["number"].help_text = _("Empty: the next free start number.")
        # Issue 17: one of the tournament's teams, offered once it has any.
        teams = Team.objects.filter(tournament_id=self.instance.tournament_id)
        if teams.exists():
            self.fields["team"].queryset = teams
        else:
            del self.fields["team"]

    def validate_unique(self):
        """The service checks start numbers within the tournament, with a better message."""


class SubstitutionForm(forms.Form):
    name = forms.CharField(label=_("substitute's name"), max_length=200)
    club = forms.CharField(label=_("club"), max_length=200, required=False)
    birth_date = birth_date_field()
    from_match = forms.IntegerField(label=_("from match"), min_value=1)
    from_game = forms.IntegerField(label=_("from game"), min_value=1, initial=1)


class RegistrationUploadForm(forms.Form):
    file = forms.FileField(
        label=_("registration list (.csv or .xlsx)"),
        help_text=_("First row: Startnummer, Name, Verein, Geburtsdatum (start number optional)."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


class StatusChoiceForm(forms.Form):
    participants = forms.ModelMultipleChoiceField(
        queryset=Participant.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    status = forms.ChoiceField(choices=Participant.Status.choices)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["participants"].queryset = Participant.objects.filter(tournament=tournament)
