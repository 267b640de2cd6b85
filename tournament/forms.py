"""Forms of the organiser's pages. They read and check input; the services do the work."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.profiles import PROFILES, ProfileError, build_profile

from .models import Participant, StaffRole, Tournament
from .problems import problem_messages

RULE_NUMBERS = ("matches", "games_per_match", "solo_approval_from", "min_age")


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class TournamentForm(forms.ModelForm):
    matches = forms.IntegerField(label=_("matches"), required=False, min_value=1)
    games_per_match = forms.IntegerField(label=_("games per match"), required=False, min_value=4)
    solo_approval_from = forms.IntegerField(
        label=_("approval from the n-th Solo/Wenz"), required=False, min_value=1
    )
    min_age = forms.IntegerField(label=_("minimum age"), required=False, min_value=0)
    tables = forms.CharField(
        label=_("point and sanction tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "class": "mono"}),
        help_text=_(
            "Only where they differ from the profile, as in the exchange format, e.g. "
            '{"points": {"solo": [[15, 5], [18, 6], [21, 7]]}}'
        ),
    )

    class Meta:
        model = Tournament
        fields = ["name", "slug", "date", "venue", "organiser", "profile", "status", "retention_until"]
        widgets = {"date": DateInput(), "retention_until": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["retention_until"].required = False
        overrides = self.instance.rule_overrides or {}
        for key in RULE_NUMBERS:
            self.fields[key].initial = overrides.get(key)
            profile = PROFILES.get(self.instance.profile or "schafkopfschule-2007")
            self.fields[key].widget.attrs["placeholder"] = getattr(profile, key)
        tables = {k: v for k, v in overrides.items() if k in ("points", "sanctions")}
        self.fields["tables"].initial = json.dumps(tables) if tables else ""
        if not self.instance.pk:
            del self.fields["status"]

    def clean(self):
        data = super().clean()
        overrides = {key: data[key] for key in RULE_NUMBERS if data.get(key) is not None}
        text = (data.get("tables") or "").strip()
        if text:
            try:
                tables = json.loads(text)
            except json.JSONDecodeError as error:
                self.add_error("tables", _("Not valid JSON: %(error)s") % {"error": error.msg})
                return data
            if not isinstance(tables, dict) or set(tables) - {"points", "sanctions"}:
                self.add_error("tables", _('Only "points" and "sanctions" belong here.'))
                return data
            overrides.update(tables)
        try:
            build_profile(data.get("profile"), overrides)
        except ProfileError as error:
            self.add_error(None, problem_messages(error.problems))
        data["rule_overrides"] = overrides
        return data

    def service_fields(self) -> dict:
        fields = {k: v for k, v in self.cleaned_data.items() if k in self.Meta.fields}
        fields["rule_overrides"] = self.cleaned_data["rule_overrides"]
        return fields


class ParticipantForm(forms.ModelForm):
    class Meta:
        model = Participant
        fields = ["number", "name", "club", "birth_date", "status"]
        widgets = {"birth_date": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["number"].required = False
        self.fields["number"].help_text = _("Empty: the next free start number.")

    def validate_unique(self):
        """The service checks start numbers within the tournament, with a better message."""


class SubstitutionForm(forms.Form):
    name = forms.CharField(label=_("substitute's name"), max_length=200)
    club = forms.CharField(label=_("club"), max_length=200, required=False)
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


class DrawForm(forms.Form):
    match = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    seed = forms.CharField(
        label=_("seed"),
        max_length=64,
        required=False,
        help_text=_("Empty: a new random seed. The same seed gives the same draw."),
    )
    discard_results = forms.BooleanField(
        label=_(
            "I am the supervisor and confirm that the entered results of this match are "
            "discarded (they stay in the history)."
        ),
        required=False,
    )


class StaffForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=StaffRole.Role.choices)


class StatusChoiceForm(forms.Form):
    participants = forms.ModelMultipleChoiceField(
        queryset=Participant.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    status = forms.ChoiceField(choices=Participant.Status.choices)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["participants"].queryset = Participant.objects.filter(tournament=tournament)


class LotForm(forms.Form):
    prize_places_only = forms.BooleanField(label=_("only ties touching the prize places"), required=False)
    seed = forms.CharField(
        label=_("seed"),
        max_length=64,
        required=False,
        help_text=_("Empty: a new random seed. The same seed gives the same lots."),
    )
