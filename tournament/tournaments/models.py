"""Tournaments, their staff and the audit log."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from scoring.profiles import DEFAULT_PROFILE, PROFILES, ProfileError, RuleProfile, build_profile

from ..problems import problem_messages
from .organisations import Organisation, sole_organisation

PROFILE_CHOICES = [
    ("schafkopfschule-2007", _("Schafkopfschule 2007 (official, 2 × 32 games)")),
    ("turnierregeln-3x16", _("Turnierregeln 3 × 16 games")),
]
assert {key for key, _label in PROFILE_CHOICES} == set(PROFILES)

RETENTION_MONTHS = 6  # 5.3.5
# Dates a tournament can have: beyond them the retention date could not be computed.
EARLIEST_DATE, LATEST_DATE = datetime.date(1900, 1, 1), datetime.date(2999, 12, 31)


def add_months(day: datetime.date, months: int) -> datetime.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return day.replace(year=year, month=month, day=min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)


# Addresses of the site itself beside /manage/<slug>/ (tournament.urls; a test keeps this list
# whole): a tournament with such a short name could not be reached.
RESERVED_SLUGS = frozenset({"import", "new"})


def validate_free_slug(value: str) -> None:
    if value in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(slug)s” is an address of the site itself: choose another short name."),
            params={"slug": value},
            code="reserved",
        )


def default_retention(day: datetime.date) -> datetime.date:
    """6 months after the tournament (5.3.5), and at least 6 months from today: a tournament
    entered after the day is not due for deletion at once."""
    return add_months(max(day, timezone.localdate()), RETENTION_MONTHS)


class Tournament(models.Model):
    class Status(models.TextChoices):
        PREPARATION = "preparation", _("in preparation")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    # Issue 29: the club or organiser it belongs to (its register, series and administrators).
    organisation = models.ForeignKey(
        Organisation, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("organisation")
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("short name"),
        max_length=80,
        unique=True,
        validators=[validate_free_slug],
        help_text=_("Used in the addresses of the tournament's pages, e.g. kirchweih-2026."),
    )
    date = models.DateField(
        _("date"), validators=[MinValueValidator(EARLIEST_DATE), MaxValueValidator(LATEST_DATE)]
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    organiser = models.CharField(_("organiser"), max_length=200, blank=True)
    profile = models.CharField(
        _("rule profile"), max_length=40, choices=PROFILE_CHOICES, default=DEFAULT_PROFILE.name
    )
    # RULINGS 15: overrides in the shape of the exchange format's ``rules`` object.
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    # Empty: the status follows what happened (see ``current_status``); else set by hand.
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=Status.choices,
        blank=True,
        default="",
        help_text=_("Empty: follows the tournament (drawn: running; every scoresheet signed: finished)."),
    )
    # Raised with every log entry of an action that changes the standings (``ACTIONS``, raised
    # by ``audit.record``): computed standings are kept under it.
    results_version = models.PositiveIntegerField(default=0, editable=False)
    prize_places = models.PositiveSmallIntegerField(
        _("prize places"),
        default=3,
        help_text=_("Lots can be drawn for ties touching these places only (5.4.2)."),
    )
    # Issue 17: participants are checked in at the door; the draw then takes only those.
    check_in = models.BooleanField(
        _("check-in at the door"),
        default=False,
        help_text=_("The draw takes only participants checked in on the day."),
    )
    series = models.ForeignKey(
        "tournament.Series",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("series"),
    )
    retention_until = models.DateField(
        _("keep scoresheets until"),
        blank=True,
        validators=[MaxValueValidator(LATEST_DATE)],  # as the exchange reader takes it
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
            self.retention_until = default_retention(self.date)
        if self.organisation_id is None:  # a site with one organisation need not name it
            self.organisation = sole_organisation()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("organiser:dashboard", args=[self.slug])

    @cached_property
    def current_status(self) -> str:
        """The status set by hand, or what happened: before the draw in preparation, drawn
        running, every sheet of every match signed or void finished."""
        if self.status:
            return self.status
        if "open_sheets" in self.__dict__:  # read with STATUS_FACTS (public pages: no more queries)
            drawn, undrawn, unsigned = self.drawn_matches, self.undrawn_matches, self.open_sheets
        else:
            matches = list(self.matches.all())
            drawn = any(match.is_drawn for match in matches)
            undrawn = not all(match.is_drawn for match in matches)
            unsigned = bool(self.unsigned_sheets)
        if not drawn:
            return self.Status.PREPARATION
        if not undrawn and not unsigned:
            return self.Status.FINISHED
        return self.Status.RUNNING

    def get_current_status_display(self) -> str:
        return str(self.Status(self.current_status).label)

    @cached_property
    def unsigned_sheets(self) -> int:
        """Scoresheets of the current draws neither signed nor void: standings are provisional."""
        return self.unsigned_in()

    def unsigned_in(self, match: int | None = None) -> int:
        """``unsigned_sheets`` of one match (its number), or of all with None."""
        sheets = apps.get_model("tournament", "Scoresheet").objects.filter(
            match__tournament=self, match__discarded_at__isnull=True
        )
        if match is not None:
            sheets = sheets.filter(match__number=match)
        return sheets.exclude(status__in=["signed", "void"]).count()

    @property
    def has_signed_sheets(self) -> bool:
        return self.matches.model.all_draws.filter(tournament=self, scoresheets__digest__gt="").exists()

    @property
    def rules(self) -> RuleProfile:
        """The rule profile in force: the named profile with this tournament's overrides (built
        once per process for each profile and overrides: every game entered asks for it)."""
        key = (self.profile, json.dumps(self.rule_overrides, sort_keys=True))
        profile = _PROFILES.get(key)
        if profile is None:
            profile = _PROFILES[key] = build_profile(self.profile, self.rule_overrides)
        return profile

    def clean(self) -> None:
        try:
            build_profile(self.profile, self.rule_overrides)
        except ProfileError as error:
            raise ValidationError({"rule_overrides": problem_messages(error.problems)}) from None
        if (
            self.retention_until
            and self.date
            and EARLIEST_DATE <= self.date <= LATEST_DATE
            and self.retention_until < add_months(self.date, RETENTION_MONTHS)
        ):
            raise ValidationError(
                {"retention_until": _("Scoresheets must be kept at least 6 months (5.3.5).")}
            )


def status_facts() -> dict:
    """What ``current_status`` asks, as annotations of a tournament read with them: whether a
    match is drawn, whether one is not yet, whether a sheet of the current draws is neither
    signed nor void."""
    match = apps.get_model("tournament", "Match")
    sheet = apps.get_model("tournament", "Scoresheet")
    return {
        "drawn_matches": models.Exists(
            match.objects.filter(tournament=models.OuterRef("pk"), drawn_at__isnull=False)
        ),
        "undrawn_matches": models.Exists(
            match.objects.filter(tournament=models.OuterRef("pk"), drawn_at__isnull=True)
        ),
        "open_sheets": models.Exists(
            sheet.objects.filter(
                match__tournament=models.OuterRef("pk"), match__discarded_at__isnull=True
            ).exclude(status__in=["signed", "void"])
        ),
    }


_PROFILES: dict[tuple[str, str], RuleProfile] = {}  # a RuleProfile is frozen: shared


class OldSlug(models.Model):
    """A short name the tournament had: its printed QR codes and links keep working."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="old_slugs")
    slug = models.SlugField(_("short name"), max_length=80, unique=True)

    class Meta:
        verbose_name = _("earlier short name")
        verbose_name_plural = _("earlier short names")

    def __str__(self) -> str:
        return self.slug

    @classmethod
    def renamed(cls, slug: str) -> Tournament | None:
        """The tournament that was called ``slug`` before (its addresses and commands follow)."""
        old = cls.objects.filter(slug=slug).select_related("tournament").first()
        return old.tournament if old is not None else None


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


@dataclass(frozen=True)
class Action:
    """What the log calls an action, and whether it changes what the standings show: recording
    one that does raises the tournament's results version (``audit.record``), which every
    cached standings follow."""

    label: str
    standings: bool  # no default: every action says it


# Every action the log knows, with its label and whether it changes the standings: declared
# here once; ``audit.record`` refuses any other, so a new action cannot forget to say it.
ACTIONS: dict[str, Action] = {
    "tournament.create": Action(_("tournament created"), standings=False),
    "tournament.import": Action(_("tournament imported"), standings=True),
    # Issue 27: on a second laptop; standings kept anywhere under the old version are not trusted.
    "tournament.restore": Action(_("restored from a backup"), standings=True),
    "tournament.update": Action(_("tournament changed"), standings=True),
    "tournament.anonymise": Action(_("personal data removed after the retention period"), standings=True),
    "staff.grant": Action(_("role granted"), standings=False),
    "staff.revoke": Action(_("role removed"), standings=False),
    "staff.withheld": Action(_("own roles not taken over by the import (results exist)"), standings=False),
    "participant.add": Action(_("participant registered"), standings=True),
    "participant.update": Action(_("participant changed"), standings=True),
    "participant.substitute": Action(_("substitute recorded"), standings=True),
    "participant.import": Action(_("registration list imported"), standings=True),
    "participant.check_in": Action(_("checked in"), standings=True),
    "participant.check_out": Action(_("check-in undone"), standings=True),
    "participant.no_show": Action(_("marked as not come"), standings=True),
    "participant.fee": Action(_("entry fee recorded"), standings=False),
    "draw.all": Action(_("all matches drawn"), standings=True),
    "draw.match": Action(_("one match drawn"), standings=True),
    # Issue 28: the redraw of a match with results, asked by the organiser, answered by the supervisor.
    "draw.redraw_ask": Action(_("redraw over results asked for"), standings=False),
    "draw.redraw_decline": Action(_("redraw over results declined"), standings=False),
    "draw.redraw_withdraw": Action(_("redraw request withdrawn"), standings=False),
    "lots.draw": Action(_("lots drawn"), standings=True),
    "prizes.declare": Action(_("prize list declared"), standings=False),
    "team.create": Action(_("team created"), standings=True),
    "team.rename": Action(_("team renamed"), standings=True),
    "team.delete": Action(_("team deleted"), standings=True),
    "team.assign": Action(_("placed in a team"), standings=True),
    "team.remove": Action(_("taken out of a team"), standings=True),
    "results.fill": Action(_("scoresheets filled with generated games"), standings=True),
    "entry.create": Action(_("entered"), standings=True),
    "entry.update": Action(_("changed"), standings=True),
    "entry.delete": Action(_("deleted"), standings=True),
    "entry.rescored": Action(_("changed by a write to another game"), standings=True),
    "approval.grant": Action(_("approved"), standings=True),
    "approval.withdraw": Action(_("approval withdrawn"), standings=True),
    "sheet.sign": Action(_("signed on the pad"), standings=False),
    "sheet.scan": Action(_("signed paper list recorded with its scan"), standings=False),
    "sheet.lock": Action(_("scoresheet signed and locked"), standings=True),
    "sheet.signatures_withdrawn": Action(_("signatures withdrawn: the sheet changed"), standings=False),
    "sheet.correct": Action(_("signed scoresheet corrected"), standings=True),
    "sheet.void": Action(_("scoresheet declared void"), standings=True),
    "sheet.code_renew": Action(_("table code renewed"), standings=False),
    "approval.call": Action(_("approval called from the table"), standings=False),
    "approval.refuse": Action(_("approval refused"), standings=False),
    "table.scorekeeper": Action(_("scorekeeper changed"), standings=False),
    "participant.take": Action(
        _("participants taken from the register or an earlier tournament"), standings=True
    ),
    "register.add": Action(_("participants added to the player register"), standings=False),
    "register.consent": Action(_("consent to a public season page changed"), standings=False),
    "series.attach": Action(_("tournament added to a series"), standings=False),
    "series.detach": Action(_("tournament taken out of its series"), standings=False),
}
# What happened to one game of a scoresheet: the sheet's own history (5.3.4).
GAME_ACTIONS = ("entry.create", "entry.update", "entry.delete", "approval.grant", "approval.withdraw")


class LogEntry(models.Model):
    """One thing done in a tournament, by whom and when, with what it replaced (pretix's
    LogEntry): every service writes one, so nothing is lost silently. Entries, approvals and
    corrections of a scoresheet name the sheet and the game; ``data`` holds the rest, e.g. the
    game before and after."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="log", verbose_name=_("tournament")
    )
    # A sheet with a history is never deleted alone (a redraw keeps it as a discarded draw).
    scoresheet = models.ForeignKey(
        "tournament.Scoresheet",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="log",
        verbose_name=_("scoresheet"),
    )
    game = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    user_name = models.CharField(_("by"), max_length=150, blank=True)  # kept when the user goes
    data = models.JSONField(_("details"), default=dict, blank=True)
    created = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("log entry")
        verbose_name_plural = _("log")
        indexes = [models.Index(fields=["scoresheet", "game"], name="log_sheet_game")]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.action}"

    @property
    def label(self) -> str:
        return str(ACTIONS[self.action].label)

    @property
    def summary(self) -> str:
        """The few details worth a glance: who, which match, table and game, which seed."""
        data = self.data or {}
        # A signature's name is in what it changed (results.text.log_change), not here again.
        keys = ("number", "username") if self.action == "sheet.sign" else ("name", "number", "username")
        parts = [str(data[key]) for key in keys if key in data]
        if data.get("substitute"):  # 5.2.11: who plays for whom from when
            parts.append(
                _("%(substitute)s for %(replaced)s from match %(match)s, game %(game)s")
                % {
                    "substitute": data["substitute"],
                    "replaced": data.get("replaced", "?"),
                    "match": data.get("from_match", "?"),
                    "game": data.get("from_game", 1),
                }
            )
        if data.get("role") in StaffRole.Role.values:
            parts.append(str(StaffRole.Role(data["role"]).label))
        sheet = self.scoresheet
        match = sheet.match.number if sheet else data.get("match")
        table = sheet.table.number if sheet else data.get("table")
        if match is not None:
            parts.append(f"{_('match')} {match}")
        if table is not None:
            parts.append(f"{_('table')} {table}")
        if self.game:
            parts.append(f"{_('game')} {self.game}")
        if "seed" in data:
            parts.append(f"{_('seed')} {data['seed']}")
        if data.get("discarded_results"):
            parts.append(str(_("results discarded")))
        if data.get("asked_by"):
            parts.append(_("asked for by %(name)s") % {"name": data["asked_by"]})
        return ", ".join(parts)


def slug_taken(slug: str) -> bool:
    """Whether a short name is a tournament's, was one's (its old links lead there) or is the
    site's own."""
    return (
        slug in RESERVED_SLUGS
        or Tournament.objects.filter(slug=slug).exists()
        or OldSlug.objects.filter(slug=slug).exists()
    )
