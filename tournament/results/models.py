"""Scoresheets and what is written on them: games, approvals, signatures and corrections (5.3).
The history of every entry is the tournament's log (tournaments.models.LogEntry)."""

from __future__ import annotations

import secrets
from enum import StrEnum

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring

from ..draw.models import Match, Table
from ..storage import private_storage, scan_name
from ..tournaments.models import LogEntry, Tournament

CORRECTED = "sheet.correct"

# The table code (issue 16): easy to type on a phone, no letters that look alike (0/o, 1/l/i).
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10  # 31**10 is about 8 * 10**14: unguessable, also at thousands of tries a second


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def choices_of(enum: type[StrEnum], labels: dict) -> type[models.TextChoices]:
    """Django choices of a ``scoring`` enum, in its order, with a translated label for each
    member: a member without one fails on import."""
    missing = [member.value for member in enum if member not in labels]
    if missing:
        raise ImproperlyConfigured(f"{enum.__name__}: no label for {', '.join(missing)}")
    return models.TextChoices(
        enum.__name__, [(member.name, (member.value, labels[member])) for member in enum]
    )


class Scoresheet(models.Model):
    """The paper list of one table in one match (5.3)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        COMPLETE = "complete", _("complete")
        SIGNED = "signed", _("signed")  # 5.3.2: locked; only a supervisor corrects (5.3.4)
        VOID = "void", _("void")  # 5.3.6

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="scoresheet")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="scoresheets")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)  # optimistic locking
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)
    digest = models.CharField(_("digest"), max_length=64, blank=True)  # SHA-256 of the content
    # The form of the digest (results/document.py): 2 now, 1 for sheets signed before it.
    digest_version = models.PositiveSmallIntegerField(default=2)
    # The tournament and the names on the seats as the players saw them when signing.
    signed_as = models.JSONField(null=True, blank=True)
    paper_scan = models.FileField(
        _("scan of the signed paper list"),
        upload_to=scan_name,
        storage=private_storage,
        max_length=200,
        blank=True,
    )
    void_reason = models.TextField(_("reason for declaring it void"), blank=True)
    # The table's access from the players' phones (issue 16): the code opens this sheet only,
    # until it is signed, the match is drawn again or the referee renews the code.
    code = models.CharField(_("table code"), max_length=CODE_LENGTH, unique=True, default=new_table_code)
    # The code the referee last renewed: a phone still holding it is told so, not "unknown".
    previous_code = models.CharField(
        _("previous table code"), max_length=CODE_LENGTH, blank=True, db_index=True
    )
    phone_seen = models.DateTimeField(_("last heard from the table's phone"), null=True, blank=True)

    class Meta:
        ordering = ["match", "table__number"]
        verbose_name = _("scoresheet")
        verbose_name_plural = _("scoresheets")

    def __str__(self) -> str:
        return f"{self.match} – {self.table}"

    @property
    def size(self) -> int:
        """Its columns: four, or five at a table of five."""
        return self.table.size

    @property
    def corrections(self) -> list[Correction]:
        """Its corrections (5.3.4), oldest first; ``results.sheet.loaded`` prefetches them."""
        prefetched = getattr(self, "prefetched_corrections", None)
        if prefetched is not None:
            return prefetched
        return list(Correction.objects.filter(scoresheet=self))


class Signature(models.Model):
    """A player confirms the scoresheet (5.3.2): on the signature pad, or on the paper original
    that the referee recorded."""

    class Method(models.TextChoices):
        PAD = "pad", _("signature pad")
        PAPER = "paper", _("paper original")

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="signatures")
    position = models.PositiveSmallIntegerField(_("seat"))
    name = models.CharField(_("name"), max_length=200)  # who played the seat when signing
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    image = models.TextField(_("signature"), blank=True)  # a PNG as data URL, from the pad
    signed_at = models.DateTimeField(_("signed at"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["scoresheet", "position"]
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "position"], name="one_signature_per_seat"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=5), name="signature_seat_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {self.position}: {self.name}"

    def as_record(self) -> dict:
        """The signature as digest version 2 covered it (version 3 adds its image's hash)."""
        return {
            "position": self.position,
            "name": self.name,
            "method": self.method,
            "signed_at": self.signed_at.isoformat(),
        }


class GameEntry(models.Model):
    """One game number of a scoresheet: a described game, a sanction or a transcribed row,
    with the points the rules engine computed for seats 1–4, or 1–5 at a table of five."""

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        SANCTION = "sanction", _("sanction")
        TRANSCRIBED = "transcribed", _("paper-list row")

    # The rules engine's enums with their labels: one list of contracts, suits and results.
    Contract = choices_of(
        scoring.Contract,
        {
            scoring.Contract.RUFER: _("Sauspiel"),
            scoring.Contract.WENZ: _("Wenz"),
            scoring.Contract.SOLO: _("Solo"),
            scoring.Contract.WENZ_TOUT: _("Wenz Tout"),
            scoring.Contract.SOLO_TOUT: _("Solo Tout"),
            scoring.Contract.SIE: _("Sie"),
        },
    )
    Suit = choices_of(
        scoring.Suit,
        {
            scoring.Suit.EICHEL: _("Eichel"),
            scoring.Suit.GRAS: _("Gras"),
            scoring.Suit.HERZ: _("Herz"),
            scoring.Suit.SCHELLEN: _("Schellen"),
        },
    )
    Result = choices_of(scoring.Result, {scoring.Result.WON: _("won"), scoring.Result.LOST: _("lost")})

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField(_("game"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.GAME)
    contract = models.CharField(_("contract"), max_length=20, choices=Contract.choices, blank=True)
    suit = models.CharField(_("suit"), max_length=20, choices=Suit.choices, blank=True)
    declarer = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)
    partner = models.PositiveSmallIntegerField(_("partner"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=10, choices=Result.choices, blank=True)
    schneider = models.BooleanField(_("Schneider"), default=False)
    schwarz = models.BooleanField(_("Schwarz"), default=False)
    declarer_points = models.PositiveSmallIntegerField(_("card points"), null=True, blank=True)
    invalid_announcement = models.BooleanField(_("invalid announcement"), default=False)
    liable = models.PositiveSmallIntegerField(_("liable player"), null=True, blank=True)
    written = models.JSONField(_("numbers on the paper list"), null=True, blank=True)
    approved = models.BooleanField(_("approved"), default=False)
    struck = models.BooleanField(_("struck"), default=False)
    downgraded = models.BooleanField(_("downgraded"), default=False)
    points_1 = models.SmallIntegerField(default=0)
    points_2 = models.SmallIntegerField(default=0)
    points_3 = models.SmallIntegerField(default=0)
    points_4 = models.SmallIntegerField(default=0)
    points_5 = models.SmallIntegerField(default=0)  # a table of five; 0 at a table of four
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["scoresheet", "number"]
        verbose_name = _("game entry")
        verbose_name_plural = _("game entries")
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            # RULINGS 11: every game sums to zero, in the database too (over five columns at a
            # table of five, the sitting-out dealer's 0 included).
            models.CheckConstraint(
                condition=Q(points_1=-(F("points_2") + F("points_3") + F("points_4") + F("points_5"))),
                name="entry_sums_to_zero",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}"

    @property
    def points(self) -> tuple[int, ...]:
        """By seat: four, or five at a table of five (the sitting-out dealer's 0 included)."""
        points = (self.points_1, self.points_2, self.points_3, self.points_4, self.points_5)
        return points[: self.scoresheet.size]

    def as_record(self) -> dict:
        """What the entry said, for the history when it is discarded or changed."""
        return {
            "game": self.number,
            "kind": self.kind,
            "contract": self.contract,
            "suit": self.suit,
            "declarer": self.declarer,
            "partner": self.partner,
            "result": self.result,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "declarer_points": self.declarer_points,
            "invalid_announcement": self.invalid_announcement,
            "liable": self.liable,
            "written": self.written,
            "approved": self.approved,
            "struck": self.struck,
            "points": list(self.points),
        }


class Approval(models.Model):
    """The supervisor's approval of a Tout, a Sie or a late Solo/Wenz before play (5.2.14,
    5.2.16), for one game number of one scoresheet."""

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="approvals")
    number = models.PositiveSmallIntegerField(_("game"))
    contract = models.CharField(_("contract"), max_length=20, choices=GameEntry.Contract.choices)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    approved_by_name = models.CharField(_("approved by"), max_length=150, blank=True)
    created = models.DateTimeField(_("approved at"), default=timezone.now)
    hand = models.JSONField(_("hand"), null=True, blank=True)  # the eight cards, when checked
    hand_check = models.JSONField(_("hand check"), null=True, blank=True)

    class Meta:
        ordering = ["scoresheet", "number"]
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "number"], name="one_approval_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}: {self.get_contract_display()}"


class CorrectionManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(action=CORRECTED).order_by("created", "id")


class Correction(LogEntry):
    """A change to a signed scoresheet, made by a supervisor with a reason (5.3.4): the log's
    entry for it, which keeps the game before and after, the reason, the supervisor's initials
    and the digest before and after. The old value stays visible."""

    ACTION = CORRECTED
    objects = CorrectionManager()

    class Meta:
        proxy = True
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    @property
    def number(self) -> int:
        return self.game

    @property
    def before(self) -> dict:
        return self.data.get("before") or {}

    @property
    def after(self) -> dict | None:
        return self.data.get("after")

    @property
    def reason(self) -> str:
        return self.data.get("reason", "")

    @property
    def initials(self) -> str:
        return self.data.get("initials", "")

    @property
    def digest_before(self) -> str:
        return self.data.get("digest_before", "")

    @property
    def digest_after(self) -> str:
        return self.data.get("digest_after", "")

    def as_record(self) -> dict:
        """The correction as the sheet's digest covers it (not the digests themselves)."""
        return {
            "game": self.number,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
            "initials": self.initials,
            "at": self.created.isoformat(),
        }


class Seal(models.Model):
    """One link of a tournament's chain of seals (issue 27): the digest of a sheet as it was
    signed, corrected or anonymised, signed with the server's Ed25519 key together with the
    signature of the link before it in the tournament, so that rewriting one breaks every later
    one. ``link`` is what is signed (results/seals.py, README "What the seals prove")."""

    class Kind(models.TextChoices):
        SIGNED = "signed", _("signed")
        CORRECTED = "corrected", _("corrected")
        ANONYMISED = "anonymised", _("anonymised")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seals")
    scoresheet = models.ForeignKey(
        Scoresheet, on_delete=models.SET_NULL, null=True, blank=True, related_name="seals"
    )
    sequence = models.PositiveIntegerField(_("seal"))  # 1, 2, … in sealing order
    match = models.PositiveSmallIntegerField(_("match"))
    draw = models.PositiveSmallIntegerField(_("draw"), default=1)
    table = models.PositiveSmallIntegerField(_("table"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    digest = models.CharField(_("digest"), max_length=64)
    at = models.CharField(_("sealed at"), max_length=40)  # the time as signed, ISO 8601
    previous = models.CharField(max_length=128, blank=True)  # the signature of the link before
    key = models.CharField(_("public key"), max_length=64)  # hex: the key that made it
    signature = models.CharField(_("signature"), max_length=128)  # hex Ed25519 signature

    class Meta:
        ordering = ["tournament", "sequence"]
        verbose_name = _("seal")
        verbose_name_plural = _("seals")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "sequence"], name="seal_sequence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} – {self.sequence}"

    def link(self) -> dict:
        """What the signature covers."""
        return {
            "sequence": self.sequence,
            "match": self.match,
            "draw": self.draw,
            "table": self.table,
            "kind": self.kind,
            "digest": self.digest,
            "at": self.at,
            "previous": self.previous,
        }
