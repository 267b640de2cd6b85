"""Forms of the tournament's pages. They read and check input; the services do the work."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.profiles import PROFILES, ProfileError, build_profile

from ..jsontext import JSONTextError, parse_json
from ..problems import problem_messages
from .models import StaffRole, Tournament, default_retention
from .prize_places import prize_places
from .services import free_slug

RULE_NUMBERS = ("matches", "games_per_match", "solo_approval_from", "min_age")


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


def birth_date_field() -> forms.DateField:
    """The date of birth a person typed in by hand (the door, a substitute) gives, if any."""
    return forms.DateField(
        label=_("date of birth"),
        required=False,
        widget=DateInput(),
        help_text=_("For the minimum age (5.2.12)."),
    )


def organisation_field(organisations) -> forms.ModelChoiceField:
    """Which of his several organisations something new belongs to (issue 29): chosen, never
    the first of the list taken unnoticed (the walk), so nothing is preselected."""
    return forms.ModelChoiceField(
        label=_("organisation"),
        queryset=organisations,
        empty_label=_("(choose)"),
        error_messages={"required": _("You belong to several organisations: choose the one this is for.")},
    )


class TournamentForm(forms.ModelForm):
    matches = forms.IntegerField(label=_("matches"), required=False, min_value=1)
    games_per_match = forms.IntegerField(label=_("games per match"), required=False, min_value=4)
    solo_approval_from = forms.IntegerField(
        label=_("approval from the n-th Solo/Wenz"), required=False, min_value=1
    )
    min_age = forms.IntegerField(label=_("minimum age"), required=False, min_value=0)
    tables_of_five = forms.BooleanField(
        label=_("tables of five where four do not fill"),
        required=False,
        help_text=_(
            "The dealer sits out the game he deals; a match there has a quarter more games (40 "
            "instead of 32 officially). Off: a count that does not divide by four is refused and "
            "reserve players are offered."
        ),
    )
    tables = forms.CharField(
        label=_("point and sanction tables"),
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 3, "class": "mono"}),
        help_text=_(
            "Only where they differ from the profile, as in the exchange format, e.g. "
            '{"points": {"solo": [[15, 5], [18, 6], [21, 7]]}}'
        ),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "organiser",
            "prize_places",
            "check_in",
            "profile",
            "status",
            "retention_until",
        ]
        widgets = {"date": DateInput(), "retention_until": DateInput()}

    def __init__(self, *args, organisations=None, **kwargs):
        """``organisations``: those a new tournament may belong to (issue 29); a choice only when
        there are several."""
        super().__init__(*args, **kwargs)
        if organisations is not None and not self.instance.pk and organisations.count() > 1:
            self.fields["organisation"] = organisation_field(organisations)
            self.order_fields(["organisation"])
        self.fields["retention_until"].required = False
        self.fields["slug"].required = False
        self.fields["prize_places"].required = False
        self.fields["slug"].help_text = _("Empty: made from the name. Old addresses keep leading here.")
        self.fields["status"].choices = [("", _("follows the tournament")), *Tournament.Status.choices]
        overrides = self.instance.rule_overrides or {}
        profile = PROFILES.get(self.instance.profile or "schafkopfschule-2007")
        for key in RULE_NUMBERS:
            self.fields[key].initial = overrides.get(key)
            self.fields[key].widget.attrs["placeholder"] = getattr(profile, key)
        # The placeholders follow the profile chosen (static/js/tournament-form.js).
        self.fields["profile"].widget.attrs["data-profiles"] = json.dumps(
            {name: {key: getattr(p, key) for key in RULE_NUMBERS} for name, p in PROFILES.items()}
        )
        self.fields["tables_of_five"].initial = overrides.get("tables_of_five", profile.tables_of_five)
        tables = {k: v for k, v in overrides.items() if k in ("points", "sanctions")}
        self.fields["tables"].initial = json.dumps(tables) if tables else ""
        self.fields["prize_places"].help_text = self.prize_places_help()
        if not self.instance.pk:
            del self.fields["status"]
        elif self.instance.matches.filter(drawn_at__isnull=False).exists():
            # The rules are fixed since the draw (the service refuses a change too).
            for key in ("profile", *RULE_NUMBERS, "tables_of_five", "tables"):
                self.fields[key].disabled = True
            self.fields["profile"].help_text = _(
                "Fixed since the draw: every scoresheet is played and counted by these rules."
            )

    def prize_places_help(self) -> str:
        """Which number of prize places counts (issue 28, item 5): the prize list's, once declared."""
        if self.instance.pk:
            places = prize_places(self.instance)
            if places.declared:
                return _(
                    "Not used: the prize list declares the prize places (%(span)s), and the "
                    "certificates, the projector's highlight and the lots follow it."
                ) % {"span": places.span}
        return _(
            "The certificates, the projector's highlight and the lots touching the prize places "
            "follow it (5.4.2), until a prize list is declared: then its places count."
        )

    def clean_prize_places(self):
        return self.cleaned_data.get("prize_places") or self.instance.prize_places or 3

    def clean_slug(self):
        slug = self.cleaned_data.get("slug")
        if slug:
            return slug
        if self.instance.pk:
            return self.instance.slug
        return free_slug(self.data.get("name", ""))

    def clean(self):
        data = super().clean()
        if (
            self.instance.pk
            and data.get("date")
            and data["date"] != self.instance.date
            and data.get("retention_until") == default_retention(self.instance.date)
        ):
            # The retention was the default of the old date: it follows the new one (5.3.5).
            data["retention_until"] = None
        overrides = {key: data[key] for key in RULE_NUMBERS if data.get(key) is not None}
        if not data.get("tables_of_five"):  # on in every profile: only "off" is an override
            overrides["tables_of_five"] = False
        text = (data.get("tables") or "").strip()
        if text:
            try:
                tables = parse_json(text)
            except JSONTextError as error:
                self.add_error("tables", error.message)
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
        if self.cleaned_data.get("organisation") is not None:
            fields["organisation"] = self.cleaned_data["organisation"]
        return fields


class StaffForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=StaffRole.Role.choices)
