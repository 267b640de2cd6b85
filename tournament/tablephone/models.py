"""What the table's phone leaves behind: the calls for the supervisor's approval (5.2.14, 5.2.16)
and the receipt of every write it sent, so that a game resent after a lost connection is stored
exactly once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..results.models import GameEntry, Scoresheet
from ..results.text import contract_short


class ApprovalCall(models.Model):
    """The table calls the supervisor before a Tout, a Sie or a fifth-or-later Solo is played."""

    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("call for approval", "waiting")
        APPROVED = "approved", pgettext_lazy("call for approval", "approved")
        REFUSED = "refused", pgettext_lazy("call for approval", "refused")
        WITHDRAWN = "withdrawn", pgettext_lazy("call for approval", "withdrawn")

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="calls")
    number = models.PositiveSmallIntegerField(_("game"))
    contract = models.CharField(_("contract"), max_length=20, choices=GameEntry.Contract.choices)
    suit = models.CharField(_("suit"), max_length=20, choices=GameEntry.Suit.choices, blank=True)
    declarer = models.PositiveSmallIntegerField(_("declarer"))
    hand = models.JSONField(_("hand"), null=True, blank=True)  # the eight cards, for the check
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    created = models.DateTimeField(_("called at"), default=timezone.now)
    answered = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered_by_name = models.CharField(_("answered by"), max_length=150, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("call for approval")
        verbose_name_plural = _("calls for approval")
        constraints = [
            # One open call per game of a table: calling again while waiting is the same call.
            models.UniqueConstraint(
                fields=["scoresheet", "number"],
                condition=models.Q(status="waiting"),
                name="one_waiting_call_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}: {self.label}"

    @property
    def label(self) -> str:
        """The contract called for as the table's buttons and the score list name it: Gras-Solo,
        Herz-Tout, Wenz-Tout, Sie."""
        return contract_short(self.contract, self.suit)


class PhoneReceipt(models.Model):
    """The server's answer to one write the table's phone sent, under the key the phone made for
    it: a resend gets the same answer and changes nothing (idempotency)."""

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="receipts")
    key = models.CharField(max_length=64)
    answer = models.JSONField(default=dict)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scoresheet", "key"], name="one_receipt_per_key")]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {self.key}"
