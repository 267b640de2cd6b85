"""Tournaments, participants, staff, matches, tables and seats."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.profiles import DEFAULT_PROFILE, PROFILES, ProfileError, RuleProfile, build_profile

from .problems import problem_messages

PROFILE_CHOICES = [
    ("schafkopfschule-2007", _("Schafkopfschule 2007 (official, 2 × 32 games)")),
    ("turnierregeln-3x16", _("Turnierregeln 3 × 16 games")),
]
assert {key for key, _label in PROFILE_CHOICES} == set(PROFILES)

RETENTION_MONTHS = 6  # 5.3.5


def add_months(day: datetime.date, months: int) -> datetime.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return day.replace(year=year, month=month, day=min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)


class Tournament(models.Model):
    class Status(models.TextChoices):
        PREPARATION = "preparation", _("in preparation")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("short name"),
        max_length=80,
        unique=True,
        help_text=_("Used in the addresses of the tournament's pages, e.g. kirchweih-2026."),
    )
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    organiser = models.CharField(_("organiser"), max_length=200, blank=True)
    profile = models.CharField(
        _("rule profile"), max_length=40, choices=PROFILE_CHOICES, default=DEFAULT_PROFILE.name
    )
    # RULINGS 15: overrides in the shape of the exchange format's ``rules`` object.
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PREPARATION)
    # Raised by every write that changes what the standings read (seats, participants,
    # substitutions, lots): cached standings are keyed by it.
    results_version = models.PositiveIntegerField(default=0, editable=False)
    prize_places = models.PositiveSmallIntegerField(
        _("prize places"),
        default=3,
        help_text=_("Lots can be drawn for ties touching these places only (5.4.2)."),
    )
    retention_until = models.DateField(
        _("keep scoresheets until"),
        blank=True,
        help_text=_("Signed scoresheets are kept 6 months after the tournament (5.3.5)."),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if self.retention_until is None and self.date:
            self.retention_until = add_months(self.date, RETENTION_MONTHS)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("organiser:dashboard", args=[self.slug])

    def results_changed(self) -> None:
        """Call inside the transaction of any write that changes the standings."""
        Tournament.objects.filter(pk=self.pk).update(results_version=F("results_version") + 1)

    @property
    def rules(self) -> RuleProfile:
        """The rule profile in force: the named profile with this tournament's overrides."""
        return build_profile(self.profile, self.rule_overrides)

    def clean(self) -> None:
        try:
            build_profile(self.profile, self.rule_overrides)
        except ProfileError as error:
            raise ValidationError({"rule_overrides": problem_messages(error.problems)}) from None
        if (
            self.retention_until
            and self.date
            and self.retention_until < add_months(self.date, RETENTION_MONTHS)
        ):
            raise ValidationError(
                {"retention_until": _("Scoresheets must be kept at least 6 months (5.3.5).")}
            )


class StaffRole(models.Model):
    """A user's role in one tournament; the same user may have another role, or none, elsewhere."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        SUPERVISOR = "supervisor", _("supervisor")
        REFEREE = "referee", _("referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="staff_role_once_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} ({self.tournament})"


class Participant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        RESERVE = "reserve", _("reserve player")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    number = models.PositiveIntegerField(_("start number"))
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="start_number_unique_per_tournament"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="start_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    def player_name(self, match: int, game: int = 1) -> str:
        """Who plays for this start number in that match and game (5.2.11, RULINGS 14)."""
        current = self.name
        for substitution in self.substitutions.all():
            if (substitution.from_match, substitution.from_game) <= (match, game):
                current = substitution.name
        return current


class Substitution(models.Model):
    """From ``from_match``/``from_game`` on, ``name`` plays for the start number, taking over its
    seat and points (5.2.11, RULINGS 14). The participant's own name stays in the history."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="substitutions")
    name = models.CharField(_("substitute's name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    from_match = models.PositiveIntegerField(_("from match"))
    from_game = models.PositiveIntegerField(_("from game"), default=1)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["from_match", "from_game"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "from_match", "from_game"],
                name="one_substitution_per_moment",
            ),
            models.CheckConstraint(
                condition=Q(from_match__gte=1) & Q(from_game__gte=1),
                name="substitution_from_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} → {self.participant}"


class Match(models.Model):
    """One Durchgang: the games every table plays between two draws."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField(_("match"))
    seed = models.CharField(_("seed of the draw"), max_length=64, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="match_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="match_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('match')} {self.number}"

    @property
    def is_drawn(self) -> bool:
        return self.drawn_at is not None


class Table(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    # 5.3.1: the player who keeps the scoresheet, by seat.
    scorekeeper = models.PositiveSmallIntegerField(_("scorekeeper's seat"), default=1)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(scorekeeper__gte=1) & Q(scorekeeper__lte=4),
                name="scorekeeper_is_a_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"


class Seat(models.Model):
    """Positions 1–4 clockwise; seat 1 deals game 1 (2.2.2)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Kept beside the table so that the database can refuse a participant twice in a match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    # A seated participant cannot be deleted alone; with the whole tournament he can.
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="seats")
    # What this seat scored on its sheet, kept by the scoresheet service so that standings are
    # one aggregation over seats (5.4.1, 5.4.2, RULINGS 13).
    points = models.IntegerField(_("points"), default=0)
    sie = models.PositiveSmallIntegerField(default=0)
    tout_won = models.PositiveSmallIntegerField(default=0)
    tout_played = models.PositiveSmallIntegerField(default=0)
    solo_won = models.PositiveSmallIntegerField(default=0)
    solo_played = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "participant"], name="participant_once_per_match"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=4), name="seat_position_1_to_4"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.participant}"


AUDIT_ACTIONS = {
    "tournament.create": _("tournament created"),
    "tournament.update": _("tournament changed"),
    "staff.grant": _("role granted"),
    "staff.revoke": _("role removed"),
    "participant.add": _("participant registered"),
    "participant.update": _("participant changed"),
    "participant.substitute": _("substitute recorded"),
    "participant.import": _("registration list imported"),
    "draw.all": _("all matches drawn"),
    "draw.match": _("one match drawn"),
}


class AuditEntry(models.Model):
    """What was done, by whom and when, with what it replaced: nothing is lost silently."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.action}"

    @property
    def label(self) -> str:
        return str(AUDIT_ACTIONS.get(self.action, self.action))

    @property
    def summary(self) -> str:
        """The few details worth a glance: who, which match, which seed."""
        detail = self.detail or {}
        parts = [str(detail[key]) for key in ("name", "number", "username") if key in detail]
        if detail.get("role") in StaffRole.Role.values:
            parts.append(str(StaffRole.Role(detail["role"]).label))
        if "match" in detail:
            parts.append(f"{_('match')} {detail['match']}")
        if "seed" in detail:
            parts.append(f"{_('seed')} {detail['seed']}")
        if detail.get("discarded_results"):
            parts.append(str(_("results discarded")))
        return ", ".join(parts)


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
    paper_scan = models.FileField(_("scan of the signed paper list"), upload_to="scans/", blank=True)
    void_reason = models.TextField(_("reason for declaring it void"), blank=True)

    class Meta:
        ordering = ["match", "table__number"]
        verbose_name = _("scoresheet")
        verbose_name_plural = _("scoresheets")

    def __str__(self) -> str:
        return f"{self.match} – {self.table}"


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
    signed_at = models.DateTimeField(_("signed at"), auto_now_add=True)
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
                condition=Q(position__gte=1) & Q(position__lte=4), name="signature_seat_1_to_4"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {self.position}: {self.name}"

    def as_record(self) -> dict:
        """The signature as the sheet's digest covers it (the image is not part of it)."""
        return {
            "position": self.position,
            "name": self.name,
            "method": self.method,
            "signed_at": self.signed_at.isoformat(),
        }


class Correction(models.Model):
    """A change to a signed scoresheet, made by a supervisor with a reason (5.3.4). The old
    value stays visible, with the supervisor's initials and the digest before and after."""

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="corrections")
    number = models.PositiveSmallIntegerField(_("game"))
    before = models.JSONField()
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(_("reason"))
    initials = models.CharField(_("initials"), max_length=10)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    digest_before = models.CharField(max_length=64)
    digest_after = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scoresheet", "created", "id"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}: {self.initials}"

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


class GameEntry(models.Model):
    """One game number of a scoresheet: a described game, a sanction or a transcribed row,
    with the points the rules engine computed for seats 1–4."""

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        SANCTION = "sanction", _("sanction")
        TRANSCRIBED = "transcribed", _("paper-list row")

    class Contract(models.TextChoices):
        RUFER = "rufer", _("Sauspiel")
        WENZ = "wenz", _("Wenz")
        SOLO = "solo", _("Solo")
        WENZ_TOUT = "wenz_tout", _("Wenz Tout")
        SOLO_TOUT = "solo_tout", _("Solo Tout")
        SIE = "sie", _("Sie")

    class Suit(models.TextChoices):
        EICHEL = "eichel", _("Eichel")
        GRAS = "gras", _("Gras")
        HERZ = "herz", _("Herz")
        SCHELLEN = "schellen", _("Schellen")

    class Result(models.TextChoices):
        WON = "won", _("won")
        LOST = "lost", _("lost")

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
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["scoresheet", "number"]
        verbose_name = _("game entry")
        verbose_name_plural = _("game entries")
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            # RULINGS 11: every game sums to zero, in the database too.
            models.CheckConstraint(
                condition=Q(points_1=-(F("points_2") + F("points_3") + F("points_4"))),
                name="entry_sums_to_zero",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}"

    @property
    def points(self) -> tuple[int, int, int, int]:
        return (self.points_1, self.points_2, self.points_3, self.points_4)

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
    created = models.DateTimeField(auto_now_add=True)
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


class EntryHistory(models.Model):
    """Every create, change and delete of an entry: who, when, before and after."""

    class Action(models.TextChoices):
        CREATE = "create", _("entered")
        UPDATE = "update", _("changed")
        DELETE = "delete", _("deleted")
        APPROVE = "approve", _("approved")
        REVOKE = "revoke", _("approval withdrawn")

    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.CASCADE, related_name="history")
    number = models.PositiveSmallIntegerField(_("game"))
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    user_name = models.CharField(max_length=150, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("entry history")
        verbose_name_plural = _("entry history")

    def __str__(self) -> str:
        return f"{self.scoresheet} – {_('game')} {self.number}: {self.get_action_display()}"


class LotDraw(models.Model):
    """Lots drawn for participants still equal after 5.4.2, for the overall standings or one
    match: seeded, stored, reproducible (RULINGS 13). ``groups`` holds each tied group's key
    and its members' start numbers in the order the lot decided."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="lots")
    match = models.PositiveIntegerField(_("match"), null=True, blank=True)  # None: overall
    seed = models.CharField(_("seed"), max_length=64)
    prize_places_only = models.BooleanField(_("only ties touching prize places"), default=False)
    groups = models.JSONField(default=list)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("lot draw")
        verbose_name_plural = _("lot draws")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.match or _('overall')}: {self.seed}"
