"""The organiser's declaration: the money (one form) and the prizes (a formset of lines)."""

from __future__ import annotations

from django import forms
from django.forms import inlineformset_factory
from django.utils.translation import gettext_lazy as _

from .models import PrizeDeclaration, PrizeLine
from .reckoning import Line, check_lines

MONEY_FIELDS = ("entry_fee", "charity_per_entry", "charity_name", "payout_percent")


class DeclarationForm(forms.ModelForm):
    class Meta:
        model = PrizeDeclaration
        fields = MONEY_FIELDS
        widgets = {
            "entry_fee": forms.NumberInput(attrs={"step": "0.5", "min": "0"}),
            "charity_per_entry": forms.NumberInput(attrs={"step": "0.5", "min": "0"}),
            "payout_percent": forms.NumberInput(attrs={"step": "1", "min": "0", "max": "100"}),
        }

    def clean(self):
        cleaned = super().clean()
        fee, charity = cleaned.get("entry_fee"), cleaned.get("charity_per_entry")
        if fee is not None and charity is not None and charity > fee:
            self.add_error(
                "charity_per_entry", _("The charity's part of each fee is more than the entry fee.")
            )
        return cleaned

    def values(self) -> dict:
        return {name: self.cleaned_data[name] for name in MONEY_FIELDS}


class PrizeLineForm(forms.ModelForm):
    class Meta:
        model = PrizeLine
        fields = ("places", "first", "last", "kind", "amount", "share", "goods")
        widgets = {
            "first": forms.NumberInput(attrs={"min": "1", "class": "place"}),
            "last": forms.NumberInput(attrs={"min": "1", "class": "place"}),
            "amount": forms.NumberInput(attrs={"step": "1", "min": "0", "class": "money"}),
            "share": forms.NumberInput(attrs={"step": "0.5", "min": "0", "max": "100", "class": "money"}),
        }

    def clean_share(self):
        share = self.cleaned_data.get("share")
        if share is not None and not 0 <= share <= 100:
            raise forms.ValidationError(_("A share is 0–100 %."))
        return share

    def clean_amount(self):
        amount = self.cleaned_data.get("amount")
        if amount is not None and amount < 0:
            raise forms.ValidationError(_("An amount is 0 € or more."))
        return amount


class BaseLineFormSet(forms.BaseInlineFormSet):
    """The lines kept (neither empty nor deleted) are numbered 1 and on, as the messages name
    them; what is wrong with them whatever the numbers refuses the whole declaration."""

    def kept_forms(self) -> list[forms.Form]:
        """The lines declared: every line shown as declared (changed or not) and every empty
        line filled in, less those marked for removal."""
        initial = self.initial_form_count()
        return [
            form
            for index, form in enumerate(self.forms)
            if (index < initial or form.has_changed())
            and not (self.can_delete and self._should_delete_form(form))
        ]

    def lines(self) -> list[Line]:
        return [
            Line(
                index,
                form.cleaned_data.get("places") or PrizeLine.Places.RANGE,
                form.cleaned_data.get("first"),
                form.cleaned_data.get("last"),
                form.cleaned_data.get("kind") or PrizeLine.Kind.AMOUNT,
                form.cleaned_data.get("amount"),
                form.cleaned_data.get("share"),
                (form.cleaned_data.get("goods") or "").strip(),
            )
            for index, form in enumerate(self.kept_forms(), start=1)
        ]

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        problems = check_lines(self.lines())
        if problems:
            raise forms.ValidationError(problems)


LineFormSet = inlineformset_factory(
    PrizeDeclaration,
    PrizeLine,
    form=PrizeLineForm,
    formset=BaseLineFormSet,
    extra=3,
    can_delete=True,
)
