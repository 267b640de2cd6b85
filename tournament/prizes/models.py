"""The organiser's declaration of the money and the prizes of a tournament (issue 17)."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..tournaments.models import Tournament

EURO = {"max_digits": 9, "decimal_places": 2}


class PrizeDeclaration(models.Model):
    """Entry fee, what of it goes to charity (or a pot), what share of the rest is paid out,
    and the prizes (``lines``). The money taken is the fee of every participant who paid."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="prize_declaration")
    entry_fee = models.DecimalField(
        _("entry fee (€)"), **EURO, default=Decimal(0), validators=[MinValueValidator(0)]
    )
    charity_per_entry = models.DecimalField(
        _("of each fee to charity or a pot (€)"),
        **EURO,
        default=Decimal(0),
        validators=[MinValueValidator(0)],
    )
    charity_name = models.CharField(_("charity or pot"), max_length=200, blank=True)
    payout_percent = models.DecimalField(
        _("share paid out (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(100),
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text=_("Of the fees after the charity's part."),
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("prize declaration")
        verbose_name_plural = _("prize declarations")

    def __str__(self) -> str:
        label = _("prize list")
        return f"{self.tournament}: {label}"


class PrizeLine(models.Model):
    """One line of the declaration: which places (a range, as many as there are tables, or a
    special place) get what (an amount each, a share of the payout each, the rest of the payout
    falling by place, or goods)."""

    class Places(models.TextChoices):
        RANGE = "range", _("places")
        PER_TABLE = "per_table", _("one prize per table")
        MIDDLE = "middle", _("the middle place")
        SECOND_LAST = "second_last", _("the second-to-last place")
        LAST = "last", _("the last place")

    class Kind(models.TextChoices):
        AMOUNT = "amount", _("amount (€) each")
        SHARE = "share", _("share of the payout (%) each")
        FALLING = "falling", _("the rest of the payout, falling by place")
        GOODS = "goods", _("goods")

    declaration = models.ForeignKey(PrizeDeclaration, on_delete=models.CASCADE, related_name="lines")
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    places = models.CharField(_("places"), max_length=20, choices=Places.choices, default=Places.RANGE)
    first = models.PositiveIntegerField(_("from place"), null=True, blank=True)
    last = models.PositiveIntegerField(_("to place"), null=True, blank=True)
    kind = models.CharField(_("prize"), max_length=20, choices=Kind.choices, default=Kind.AMOUNT)
    amount = models.DecimalField(_("amount (€)"), **EURO, null=True, blank=True)
    share = models.DecimalField(_("share (%)"), max_digits=5, decimal_places=2, null=True, blank=True)
    goods = models.CharField(_("goods"), max_length=200, blank=True)

    class Meta:
        ordering = ["declaration", "order", "id"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.CheckConstraint(
                condition=Q(first__isnull=True) | Q(first__gte=1), name="prize_first_place_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_places_display()} {self.first or ''}–{self.last or ''}: {self.get_kind_display()}"
