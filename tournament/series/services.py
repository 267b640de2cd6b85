"""Writes of the player register and the series (issue 17): adding a tournament's participants to
the register, taking participants into a tournament from the register or an earlier tournament,
season start numbers, creating and changing a series, attaching tournaments to it.

Who is the same person (``Register.find``): the names are equal ignoring case, umlaut spelling
(ü/ue, ö/oe, ä/ae, ß/ss) and spaces, and either both dates of birth are known and equal, or one
of them is missing and the clubs are equal (the same way; both empty counts as equal). A known
date of birth that differs is another person whatever the club. A match by date of birth goes
before one by club, and among equals the person entered first. Two participants of the same
tournament are never one person."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..names import search_key
from ..participants import registration
from ..participants.models import Participant
from ..stats.awards import AWARDS, BY_KEY
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.organisations import Organisation, record_organisation
from ..tournaments.permissions import Perm, organisation_for, require
from .models import Person, Series, SeriesNumber
from .permissions import can_attach, require_register_manager, require_series_manager

# PostgreSQL: one advisory lock for every write that creates persons, so that two tournaments
# added at the same moment do not both create the same person. SQLite takes the write lock at the
# start of every transaction already (settings: IMMEDIATE).
REGISTER_LOCK = 170017


def identity(text: str) -> str:
    """A name or club as the register compares it."""
    return " ".join(search_key(text or "").split())


def _lock_register() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [REGISTER_LOCK])


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


class Register:
    """The persons of the register by name, to find who a participant is (module docstring)."""

    def __init__(self, persons):
        self.by_name: dict[str, list[Person]] = defaultdict(list)
        for person in sorted(persons, key=lambda p: p.pk):
            self.add(person)

    def add(self, person: Person) -> None:
        self.by_name[identity(person.name)].append(person)

    def find(self, name: str, club: str, birth_date, exclude=frozenset()) -> Person | None:
        by_club = None
        for person in self.by_name.get(identity(name), ()):
            if person.pk in exclude:
                continue
            if birth_date and person.birth_date:
                if birth_date == person.birth_date:
                    return person
            elif by_club is None and identity(club) == identity(person.club):
                by_club = person
        return by_club


@dataclass
class RegisterReport:
    created: int = 0
    linked: int = 0
    already: int = 0
    numbers: int = 0  # season start numbers given
    conflicts: list[str] = field(default_factory=list)


@transaction.atomic
def add_to_register(user, tournament: Tournament, numbers=None) -> RegisterReport:
    """Every participant of the tournament not yet in the register (or those of ``numbers``):
    linked to the person he is (filling the person's missing club or date of birth), or entered
    as a new person. In a series with fixed start numbers a person without one keeps the number
    he has here, if it is free."""
    require_register_manager(user, tournament.organisation)
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    _lock_register()
    report = RegisterReport()
    participants = list(tournament.participants.select_for_update().order_by("number"))
    # The register of the tournament's organisation, no other's (issue 29): a club's few hundred,
    # compared in Python.
    register = Register(Person.objects.filter(organisation_id=tournament.organisation_id))
    here = {p.person_id for p in participants if p.person_id}
    wanted = None if numbers is None else set(numbers)
    if wanted is not None and not wanted <= {p.number for p in participants}:
        raise ServiceError(_("Unknown participant."))
    for participant in participants:
        if wanted is not None and participant.number not in wanted:
            continue
        if participant.person_id:
            report.already += 1
            continue
        person = register.find(participant.name, participant.club, participant.birth_date, exclude=here)
        if person is None:
            person = Person.objects.create(
                organisation_id=tournament.organisation_id,
                name=participant.name,
                club=participant.club,
                birth_date=participant.birth_date,
                created_by=user if getattr(user, "pk", None) else None,
            )
            register.add(person)
            report.created += 1
        else:
            changed = [
                name
                for name in ("club", "birth_date")
                if not getattr(person, name) and getattr(participant, name)
            ]
            for name in changed:
                setattr(person, name, getattr(participant, name))
            if changed:
                person.save(update_fields=changed)
            report.linked += 1
        participant.person = person
        participant.save(update_fields=["person"])
        here.add(person.pk)
    if tournament.series_id and tournament.series.fixed_numbers:
        _keep_numbers(tournament, report)
    record(
        tournament,
        user,
        "register.add",
        created=report.created,
        linked=report.linked,
        numbers=report.numbers,
    )
    return report


def _keep_numbers(tournament: Tournament, report: RegisterReport) -> None:
    """Season start numbers from this tournament's numbers, for persons without one yet."""
    series = Series.objects.select_for_update().get(pk=tournament.series_id)
    numbers = dict(SeriesNumber.objects.filter(series=series).values_list("person_id", "number"))
    taken = {number: person for person, number in numbers.items()}
    for participant in tournament.participants.filter(person__isnull=False).select_related("person"):
        if participant.person_id in numbers:
            continue
        if participant.number in taken:
            report.conflicts.append(
                _(
                    "Start number %(number)s already belongs to another player of the series: "
                    "%(name)s has no season number yet."
                )
                % {"number": participant.number, "name": participant.name}
            )
            continue
        SeriesNumber.objects.create(series=series, person_id=participant.person_id, number=participant.number)
        numbers[participant.person_id] = participant.number
        taken[participant.number] = participant.person_id
        report.numbers += 1


@dataclass
class TakeReport:
    added: list[Participant] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass
class _Candidate:
    name: str
    club: str
    birth_date: object
    person: Person | None


@transaction.atomic
def take_participants(user, tournament: Tournament, persons=(), participants=()) -> TakeReport:
    """Persons of the register, or participants of an earlier tournament (as the persons they are
    when linked), become participants of ``tournament`` without typing them again. Whoever is
    already in the tournament (linked to the same person, or the same person by the register's
    rule) is skipped with a message. Start numbers: in a series with fixed numbers a person keeps
    his season number, given on his first take (the next number after the series' highest that
    is free here); otherwise, and for anyone not in the register, numbers follow on from the
    tournament's highest (passing over season numbers)."""
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    persons = list(persons)
    if any(p.organisation_id != tournament.organisation_id for p in persons):
        raise PermissionDenied("register")  # issue 29: another organisation's register
    candidates = [_Candidate(p.name, p.club, p.birth_date, p) for p in persons]
    for source in {p.tournament for p in participants}:
        if source.pk == tournament.pk:
            raise ServiceError(_("Participants are taken from another tournament."))
        if source.organisation_id != tournament.organisation_id:
            raise ServiceError(_("Participants are taken from a tournament of the same organisation."))
        require(user, source, Perm.EDIT_PARTICIPANTS)  # their dates of birth are copied
    candidates += [
        # a participant's person is of the source's organisation, the same (checked above)
        _Candidate(p.name, p.club, p.birth_date, p.person)
        for p in participants
    ]
    report = TakeReport()
    if not candidates:
        return report
    existing = list(tournament.participants.all())
    here = _Present(existing)
    series = Series.objects.select_for_update().get(pk=tournament.series_id) if tournament.series_id else None
    fixed = series is not None and series.fixed_numbers
    season = {}
    if fixed:
        season = dict(SeriesNumber.objects.filter(series=series).values_list("person_id", "number"))
    numbers = {p.number for p in existing}
    following = max(numbers, default=0) + 1
    planned: list[tuple[Participant, bool, registration.RegistrationRow]] = []
    for candidate in candidates:
        person = candidate.person
        already = here.find(candidate)
        if already is not None:
            report.skipped.append(
                _("%(name)s is already in the tournament (no. %(number)s).")
                % {"name": candidate.name, "number": already.number}
            )
            continue
        new_season_number = False
        if fixed and person is not None:
            number = season.get(person.pk)
            if number is None:
                number = max(season.values(), default=0) + 1
                while number in numbers:
                    number += 1
                season[person.pk], new_season_number = number, True
            elif number in numbers:
                report.skipped.append(
                    _("%(name)s keeps start number %(number)s in the series, but it is taken here.")
                    % {"name": candidate.name, "number": number}
                )
                continue
        else:
            while following in numbers or following in season.values():
                following += 1
            number = following
        numbers.add(number)
        participant = Participant(
            tournament=tournament,
            number=number,
            name=candidate.name,
            club=candidate.club,
            birth_date=candidate.birth_date,
            person=person,
        )
        here.add(participant)
        row = registration.RegistrationRow(
            len(planned) + 1, number, participant.name, participant.club, participant.birth_date
        )
        planned.append((participant, new_season_number, row))
    registration.check(tournament, [row for _participant, _new, row in planned])  # 5.2.12
    for participant, new_season_number, row in planned:
        if row.errors:
            report.skipped.append(f"{participant.name}: {'; '.join(row.errors)}")
            continue
        report.added.append(participant)
        if new_season_number:
            SeriesNumber.objects.create(series=series, person=participant.person, number=participant.number)
    Participant.objects.bulk_create(report.added)
    if report.added:
        record(
            tournament,
            user,
            "participant.take",
            taken=len(report.added),
            skipped=len(report.skipped),
            source=", ".join(sorted({p.tournament.slug for p in participants})) or "register",
        )
    return report


class _Present:
    """Who is in the tournament: by linked person, or the same person by the register's rule."""

    def __init__(self, participants):
        self.by_person: dict[int, Participant] = {}
        self.register = Register([])
        self.participants: dict[int, Participant] = {}
        for participant in participants:
            self.add(participant)

    def add(self, participant: Participant) -> None:
        key = len(self.participants) + 1  # a stand-in person per participant
        self.participants[key] = participant
        if participant.person_id:
            self.by_person[participant.person_id] = participant
        self.register.add(
            Person(pk=key, name=participant.name, club=participant.club, birth_date=participant.birth_date)
        )

    def find(self, candidate: _Candidate) -> Participant | None:
        if candidate.person is not None and candidate.person.pk in self.by_person:
            return self.by_person[candidate.person.pk]
        found = self.register.find(candidate.name, candidate.club, candidate.birth_date)
        return self.participants[found.pk] if found else None


SERIES_FIELDS = (
    "name",
    "slug",
    "season",
    "counting",
    "best_of",
    "min_attendances",
    "qualify_top",
    "qualify_percent",
    "fixed_numbers",
    "awards",
    "award_attendances",
    "rating_matches",
)
RESERVED_SERIES_SLUGS = frozenset({"new", "register", "players"})  # the series' own addresses


def _check_series(series: Series) -> None:
    if series.slug in RESERVED_SERIES_SLUGS:
        raise ServiceError(
            _("“%(slug)s” is an address of the site itself: choose another short name.")
            % {"slug": series.slug}
        )
    if Series.objects.filter(slug=series.slug).exclude(pk=series.pk).exists():  # /series/<slug>/
        raise ServiceError(_("Another series has the short name “%(slug)s”.") % {"slug": series.slug})
    if series.counting == Series.Counting.BEST and not series.best_of:
        raise ServiceError(_("Say how many of the best results count."))
    unknown = [key for key in series.awards or [] if key not in BY_KEY]
    if not isinstance(series.awards, list) or unknown:
        raise ServiceError(_("Unknown awards: %(keys)s.") % {"keys": ", ".join(map(str, unknown))})
    series.awards = [award.key for award in AWARDS if award.key in series.awards]  # their order


@transaction.atomic
def create_series(user, organisation: Organisation | None = None, **fields) -> Series:
    """A series of ``organisation`` (the one the user administers, when he has one only)."""
    organisation = organisation_for(user, organisation, admin=True)
    require_series_manager(user, organisation)
    series = Series(
        **{k: v for k, v in fields.items() if k in SERIES_FIELDS},
        organisation=organisation,
        created_by=user if getattr(user, "pk", None) else None,
    )
    _check_series(series)
    series.save()
    record_organisation(organisation, user, "series.create", name=series.name, slug=series.slug)
    return series


@transaction.atomic
def update_series(user, series: Series, **fields) -> Series:
    require_series_manager(user, series.organisation)
    series = Series.objects.select_for_update().get(pk=series.pk)
    before = {key: str(getattr(series, key)) for key in SERIES_FIELDS}
    for key, value in fields.items():
        if key in SERIES_FIELDS:
            setattr(series, key, value)
    _check_series(series)
    series.save()
    after = {key: str(getattr(series, key)) for key in SERIES_FIELDS}
    changed = {key: [before[key], after[key]] for key in SERIES_FIELDS if before[key] != after[key]}
    record_organisation(series.organisation, user, "series.update", name=series.name, changed=changed)
    return series


@transaction.atomic
def attach(user, series: Series, tournament: Tournament) -> None:
    """The tournament counts for the series (leaving any series it counted for)."""
    if not can_attach(user, tournament):
        raise PermissionDenied("attach")
    if series.organisation_id != tournament.organisation_id:  # a series counts its own (issue 29)
        raise ServiceError(_("A series counts only tournaments of its own organisation."))
    tournament = _lock(tournament)
    if tournament.series_id == series.pk:
        return
    before = tournament.series.slug if tournament.series_id else None
    Tournament.objects.filter(pk=tournament.pk).update(series=series)
    record(tournament, user, "series.attach", series=series.slug, before=before)


@transaction.atomic
def detach(user, tournament: Tournament) -> None:
    if not can_attach(user, tournament):
        raise PermissionDenied("attach")
    tournament = _lock(tournament)
    if tournament.series_id is None:
        return
    before = tournament.series.slug
    Tournament.objects.filter(pk=tournament.pk).update(series=None)
    record(tournament, user, "series.detach", series=before)


@transaction.atomic
def set_consent(user, person: Person, consent: bool) -> bool:
    """The person's consent to a public season page (issue 30), recorded in the log of each of
    his tournaments (the register has no log of its own). Returns whether it changed."""
    require_register_manager(user, person.organisation)  # his organisation's (issue 29)
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.public_stats == consent:
        return False
    Person.objects.filter(pk=person.pk).update(public_stats=consent)
    for tournament in Tournament.objects.filter(participants__person=person).distinct():
        record(
            tournament,
            user,
            "register.consent",
            person=person.pk,
            name=person.name,
            before=not consent,
            after=consent,
        )
    return True
