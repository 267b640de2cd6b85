"""Forms of the referee's scoresheet. Each carries the sheet version the page was loaded with."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import Contract, Game, Result, Sanction, Suit

from .models import GameEntry
from .notation import typed_game, typed_row


def seat_choices(count: int = 4) -> list[tuple[int, str]]:
    """The seats to choose from at a table of ``count``: four, or five (tables of five)."""
    return [(n, str(n)) for n in range(1, count + 1)]


SEATS = seat_choices()  # seat 5 too at a table of five (SheetForm)
OPTIONAL_SEATS = [("", "—"), *SEATS]


class SheetForm(forms.Form):
    """``seats``: the sheet's columns, four or five (tables of five, README readings)."""

    number = forms.IntegerField(label=_("game"), min_value=1, max_value=999)
    # The sheet and its version as the page was loaded: a redraw makes a new sheet at version 0.
    sheet = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    replace = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, seats: int = 4, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        if seats == 5:  # the lists of seats offer seat 5 (the engine refuses the dealer)
            for name in ("declarer", "partner", "liable"):
                if name in self.fields:
                    field = self.fields[name]
                    optional = [("", "—")] if field.choices and field.choices[0][0] == "" else []
                    field.choices = [*optional, *seat_choices(seats)]


class GameForm(SheetForm):
    """Either the short notation or the fields."""

    notation = forms.CharField(
        label=_("entry"),
        required=False,
        max_length=40,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "spellcheck": "false",
                "autocapitalize": "off",
                "class": "notation",
                "autofocus": True,
            }
        ),
    )
    contract = forms.ChoiceField(
        label=_("contract"), required=False, choices=[("", "—"), *GameEntry.Contract.choices]
    )
    suit = forms.ChoiceField(label=_("suit"), required=False, choices=[("", "—"), *GameEntry.Suit.choices])
    declarer = forms.TypedChoiceField(
        label=_("declarer"), required=False, coerce=int, choices=OPTIONAL_SEATS, empty_value=None
    )
    partner = forms.TypedChoiceField(
        label=_("partner"), required=False, coerce=int, choices=OPTIONAL_SEATS, empty_value=None
    )
    result = forms.ChoiceField(
        label=_("result"), required=False, choices=[("", "—"), *GameEntry.Result.choices]
    )
    schneider = forms.BooleanField(label=_("Schneider"), required=False)
    schwarz = forms.BooleanField(label=_("Schwarz"), required=False)
    declarer_points = forms.IntegerField(label=_("card points"), required=False, min_value=0, max_value=120)
    invalid_announcement = forms.BooleanField(label=_("announced invalidly"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The fields chosen from lists sit under the answer, outside the form element: they
        # belong to it by the form attribute (templates/referee/_sheet.html).
        for name, field in self.fields.items():
            if name not in SheetForm.base_fields and name != "notation":
                field.widget.attrs["form"] = "game-form"

    def entry(self, seats: int = 4) -> Game:
        """The game typed, at a table of ``seats`` (the notation: a ServiceError where it does
        not read, results.notation)."""
        data = self.cleaned_data
        number = data["number"]
        if data.get("notation") or not data.get("contract") or not data.get("declarer"):
            return typed_game(data.get("notation", ""), number, seats)
        return Game(
            number,
            Contract(data["contract"]),
            data["declarer"],
            suit=Suit(data["suit"]) if data.get("suit") else None,
            partner=data.get("partner"),
            result=Result(data["result"]) if data.get("result") else None,
            schneider=data.get("schneider", False),
            schwarz=data.get("schwarz", False),
            declarer_points=data.get("declarer_points"),
            invalid_announcement=data.get("invalid_announcement", False),
        )


class RowForm(SheetForm):
    row = forms.CharField(
        label=_("paper-list row"),
        max_length=60,
        help_text=_("Four numbers in seat order, the circled one with * (e.g. 6* -2 -2 -2)."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "class": "notation"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.seats == 5:
            self.fields["row"].help_text = _(
                "Five numbers in seat order, the dealer's 0 included, the circled one with * "
                "(e.g. 0 6* -2 -2 -2)."
            )

    def entry(self, seats: int = 4):
        """The row typed (results.notation: a ServiceError where it does not read)."""
        return typed_row(self.cleaned_data["row"], self.cleaned_data["number"], seats)


class SanctionForm(SheetForm):
    contract = forms.ChoiceField(
        label=_("contract being played"),
        choices=[c for c in GameEntry.Contract.choices if c[0] != "sie"],
    )
    declarer = forms.TypedChoiceField(label=_("declarer"), coerce=int, choices=SEATS)
    partner = forms.TypedChoiceField(
        label=_("partner (Sauspiel)"), required=False, coerce=int, choices=OPTIONAL_SEATS, empty_value=None
    )
    liable = forms.TypedChoiceField(
        label=_("liable player"),
        coerce=int,
        choices=SEATS,
        help_text=_("The infringer, or under 3.4.18 the player who revealed his cards."),
    )

    def entry(self, seats: int = 4) -> Sanction:
        data = self.cleaned_data
        return Sanction(
            data["number"], Contract(data["contract"]), data["declarer"], data["liable"], data.get("partner")
        )


class DeleteForm(SheetForm):
    pass


class CardsMixin:
    def cards(self) -> list[str]:
        """The eight cards as typed, e.g. "EO GO HO EU HA H10 SA GA"."""
        return self.cleaned_data.get("hand", "").replace(",", " ").split()


class VersionMixin(forms.Form):
    """The sheet's version as the page was loaded: a stale page is refused (issue 13)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=0,
        # Without it a stale page could not be told from a fresh one.
        error_messages={"required": _("The page is incomplete: reload it and try again.")},
    )


class ApprovalForm(CardsMixin, VersionMixin, forms.Form):
    number = forms.IntegerField(label=_("game"), min_value=1, max_value=999)
    # Nothing chosen at first: a typed letter must not pick a contract unseen (issue 14).
    contract = forms.ChoiceField(
        label=_("contract"), choices=[("", "—"), *(c for c in GameEntry.Contract.choices if c[0] != "rufer")]
    )
    suit = forms.ChoiceField(
        label=_("trumps (Solo)"), required=False, choices=[("", "—"), *GameEntry.Suit.choices]
    )
    hand = forms.CharField(
        label=_("the eight cards (optional)"),
        required=False,
        max_length=80,
        help_text=_("For the hand check, e.g. EO GO HO EU HA H10 SA GA."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "class": "notation"}),
    )


class BoardApprovalForm(ApprovalForm):
    """An approval called in from a table (5.2.14): the table number first."""

    table = forms.IntegerField(label=_("table"), min_value=1, max_value=9999)
    version = None  # called in for any table: there is no page of that sheet to be stale

    field_order = ["table", "number", "contract", "suit", "hand"]


class WithdrawForm(VersionMixin, forms.Form):
    number = forms.IntegerField(min_value=1, max_value=999)


class HandCheckForm(CardsMixin, forms.Form):
    hand = forms.CharField(
        label=_("the eight cards"),
        max_length=80,
        help_text=_("Suit letter and rank: E G H S, then A 10 K O U 9 8 7 (e.g. EO HA S10)."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "class": "notation", "autofocus": True}),
    )
    contract = forms.ChoiceField(label=_("contract"), choices=GameEntry.Contract.choices)
    suit = forms.ChoiceField(label=_("suit"), required=False, choices=[("", "—"), *GameEntry.Suit.choices])


class SignForm(VersionMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    position = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=5)
    image = forms.CharField(required=False, widget=forms.HiddenInput, max_length=500_000)


class PaperForm(VersionMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    scan = forms.FileField(label=_("photo or scan of the signed paper list"))

    def clean_scan(self):
        scan = self.cleaned_data["scan"]
        if scan.size > 20 * 1024 * 1024:
            raise forms.ValidationError(_("The file is larger than 20 MB."))
        return scan


class CorrectionForm(VersionMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    number = forms.IntegerField(label=_("game"), min_value=1, max_value=999)
    notation = forms.CharField(
        label=_("corrected game"),
        max_length=40,
        widget=forms.TextInput(attrs={"class": "notation", "autocomplete": "off"}),
    )
    reason = forms.CharField(label=_("reason"), max_length=500)

    def entry(self, seats: int = 4) -> Game:
        """The corrected game (results.notation: a ServiceError where it does not read)."""
        return typed_game(self.cleaned_data["notation"], self.cleaned_data["number"], seats)


class VoidForm(VersionMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    reason = forms.CharField(label=_("reason"), max_length=500)
