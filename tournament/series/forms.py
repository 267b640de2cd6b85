"""Forms of the register and series pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..participants.models import Participant
from ..stats.awards import CHOICES
from ..tournaments.forms import organisation_field
from ..tournaments.models import Tournament
from ..tournaments.organisations import Organisation
from .models import Person, Series
from .services import SERIES_FIELDS


class SeriesForm(forms.ModelForm):
    awards = forms.MultipleChoiceField(
        label=_("awards"), choices=CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Series
        fields = list(SERIES_FIELDS)  # what the service stores

    def __init__(self, *args, organisations=None, **kwargs):
        """``organisations``: those a new series may belong to; a choice only when several."""
        super().__init__(*args, **kwargs)
        for name in ("award_attendances", "rating_matches"):  # left empty: the default
            self.fields[name].required = False
        if not self.instance.pk:  # a new series' short name: made from its name when left empty
            self.fields["slug"].required = False
            self.fields["slug"].help_text = _("Empty: made from the name.")
        if organisations is not None and organisations.count() > 1:
            self.fields["organisation"] = organisation_field(organisations)

    def clean_award_attendances(self):
        found = self.cleaned_data.get("award_attendances")
        return Series._meta.get_field("award_attendances").default if found is None else found

    def clean_rating_matches(self):
        found = self.cleaned_data.get("rating_matches")
        return Series._meta.get_field("rating_matches").default if found is None else found

    def validate_unique(self):
        """The service checks the short name, with a better message."""

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("counting") == Series.Counting.BEST and not cleaned.get("best_of"):
            self.add_error("best_of", _("Say how many of the best results count."))
        if cleaned.get("best_of") == 0:
            self.add_error("best_of", _("At least one result counts."))
        return cleaned


class AttachForm(forms.Form):
    tournament = forms.ModelChoiceField(label=_("tournament"), queryset=Tournament.objects.none())

    def __init__(self, *args, series: Series, **kwargs):
        super().__init__(*args, **kwargs)
        # Issue 29: a series counts only the tournaments of its own organisation.
        self.fields["tournament"].queryset = (
            Tournament.objects.filter(organisation_id=series.organisation_id)
            .exclude(series=series)
            .order_by("-date")
        )


class TournamentSeriesForm(forms.Form):
    series = forms.ModelChoiceField(
        label=_("series"),
        queryset=Series.objects.none(),
        required=False,
        empty_label=_("(no series)"),
    )

    def __init__(self, *args, organisation: Organisation, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["series"].queryset = Series.objects.filter(organisation=organisation)  # issue 29


class TakeForm(forms.Form):
    """Whom to take: persons of the register, or participants of an earlier tournament."""

    persons = forms.ModelMultipleChoiceField(
        queryset=Person.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    participants = forms.ModelMultipleChoiceField(
        queryset=Participant.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, persons=None, participants=None, **kwargs):
        super().__init__(*args, **kwargs)
        if persons is not None:
            self.fields["persons"].queryset = persons
        if participants is not None:
            self.fields["participants"].queryset = participants

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("persons") and not cleaned.get("participants"):
            raise forms.ValidationError(_("Choose whom to take."))
        return cleaned
