"""The player register: participants added without duplicates by the documented rule, taken
into a new tournament without typing them again, season start numbers."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from tournament.models import LogEntry, Participant, Person, Series, SeriesNumber, StaffRole
from tournament.series import services as register
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

BORN = datetime.date(1960, 1, 1)


def names(tournament):
    return list(tournament.participants.order_by("number").values_list("number", "name"))


def test_adding_a_tournament_twice_creates_each_person_once(tournament, add_players, organiser, manager):
    add_players(tournament, 4, birth_date=BORN)
    report = register.add_to_register(COMMAND_LINE, tournament)
    assert (report.created, report.linked, report.already) == (4, 0, 0)
    again = register.add_to_register(COMMAND_LINE, tournament)
    assert (again.created, again.linked, again.already) == (0, 0, 4)
    assert Person.objects.count() == 4
    assert not tournament.participants.filter(person__isnull=True).exists()
    assert LogEntry.objects.filter(tournament=tournament, action="register.add").count() == 2


def test_the_same_person_is_found_by_name_and_birth_date_or_by_name_and_club(tournament, person):
    sepp = person("Sepp Huber", club="SK Au", birth_date=BORN)
    hans = person("Hans Maier", club="SK Au", birth_date=datetime.date(1955, 5, 5))
    resi = person("Resi Grünwald", club="")
    rows = [
        ("sepp  HUBER", "FC Bayern", BORN),  # case and spaces; another club: the birth date decides
        ("Sepp Huber", "SK Au", datetime.date(1970, 1, 1)),  # another birth date: another person
        ("Hans Maier", "sk au", None),  # no birth date: name and club
        ("Hans Maier", "TSV Moosach", None),  # no birth date, another club: another person
        ("Resi Gruenwald", "", datetime.date(1980, 2, 2)),  # umlaut spelt out, no club either side
    ]
    for number, (name, club, born) in enumerate(rows, start=1):
        Participant.objects.create(
            tournament=tournament, number=number, name=name, club=club, birth_date=born
        )
    report = register.add_to_register(COMMAND_LINE, tournament)
    assert (report.created, report.linked) == (2, 3)
    linked = dict(tournament.participants.values_list("number", "person_id"))
    assert linked[1] == sepp.pk and linked[3] == hans.pk and linked[5] == resi.pk
    assert {linked[2], linked[4]}.isdisjoint({sepp.pk, hans.pk, resi.pk})
    resi.refresh_from_db()
    assert resi.birth_date == datetime.date(1980, 2, 2)  # what the register lacked is filled in
    sepp.refresh_from_db()
    assert sepp.club == "SK Au"  # what it knows stays


def test_two_participants_of_one_tournament_are_two_persons(tournament, person):
    person("Hans Maier", club="SK Au")
    Participant.objects.create(tournament=tournament, number=1, name="Hans Maier", club="SK Au")
    Participant.objects.create(tournament=tournament, number=2, name="Hans Maier", club="SK Au")
    register.add_to_register(COMMAND_LINE, tournament)
    assert len(set(tournament.participants.values_list("person_id", flat=True))) == 2
    assert Person.objects.count() == 2


def test_persons_taken_from_the_register_join_once(tournament, other_tournament, add_players, organiser):
    add_players(other_tournament, 3, birth_date=BORN)
    register.add_to_register(COMMAND_LINE, other_tournament)
    for number in (1, 2):  # typed by hand
        Participant.objects.create(tournament=tournament, number=number, name=f"Gast {number}")
    persons = list(Person.objects.order_by("pk"))
    report = register.take_participants(organiser, tournament, persons=persons[:2])
    assert [p.number for p in report.added] == [3, 4] and report.skipped == []
    assert tournament.participants.filter(person__isnull=False).count() == 2
    again = register.take_participants(organiser, tournament, persons=persons)
    assert [p.number for p in again.added] == [5]
    assert len(again.skipped) == 2 and "Spieler 001" in again.skipped[0] and "3)" in again.skipped[0]
    assert tournament.participants.count() == 5
    assert tournament.participants.get(number=5).birth_date == BORN
    assert LogEntry.objects.filter(tournament=tournament, action="participant.take").count() == 2


def test_participants_of_an_earlier_tournament_are_taken_and_typed_ones_are_skipped(
    tournament, other_tournament, organiser, make_user
):
    StaffRole.objects.create(tournament=other_tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    earlier = [
        Participant.objects.create(tournament=other_tournament, number=n, name=name, birth_date=BORN)
        for n, name in ((7, "Sepp Huber"), (8, "Resi Maier"))
    ]
    Participant.objects.create(tournament=tournament, number=1, name="Sepp Huber", birth_date=BORN)
    report = register.take_participants(organiser, tournament, participants=earlier)
    assert [(p.number, p.name) for p in report.added] == [(2, "Resi Maier")]
    assert len(report.skipped) == 1 and "Sepp Huber" in report.skipped[0]
    assert names(tournament) == [(1, "Sepp Huber"), (2, "Resi Maier")]


def test_taking_needs_the_right_to_edit_both_tournaments(tournament, other_tournament, referee, organiser):
    source = Participant.objects.create(tournament=other_tournament, number=1, name="Fremd")
    with pytest.raises(PermissionDenied):
        register.take_participants(organiser, tournament, participants=[source])  # not his
    with pytest.raises(PermissionDenied):
        register.take_participants(referee, tournament, persons=[Person.objects.create(name="X")])
    with pytest.raises(PermissionDenied):
        register.add_to_register(organiser, tournament)  # organiser, but no add_person
    assert tournament.participants.count() == 0


def test_fixed_numbers_stay_with_the_person_for_the_season(make_tournament, person, organiser, tournament):
    series = Series.objects.create(name="Cup", slug="cup", fixed_numbers=True)
    tournament.series = series
    tournament.save()
    anna, bert, carl = person("Anna"), person("Bert"), person("Carl")
    first = register.take_participants(organiser, tournament, persons=[anna, bert])
    assert [p.number for p in first.added] == [1, 2]
    second = make_tournament("zweiter", series=series)
    StaffRole.objects.create(tournament=second, user=organiser, role=StaffRole.Role.ORGANISER)
    Participant.objects.create(tournament=second, number=3, name="Gast")  # typed by hand
    taken = register.take_participants(organiser, second, persons=[bert, carl, anna])
    assert sorted((p.name, p.number) for p in taken.added) == [("Anna", 1), ("Bert", 2), ("Carl", 4)]
    assert dict(SeriesNumber.objects.values_list("person__name", "number")) == {
        "Anna": 1,
        "Bert": 2,
        "Carl": 4,
    }
    late = register.take_participants(organiser, second, persons=[person("Dora")])
    assert [p.number for p in late.added] == [5]


def test_without_fixed_numbers_numbers_follow_on_from_the_highest(tournament, person, organiser):
    tournament.series = Series.objects.create(name="Cup", slug="cup")
    tournament.save()
    Participant.objects.create(tournament=tournament, number=40, name="Gast")
    report = register.take_participants(organiser, tournament, persons=[person("Anna"), person("Bert")])
    assert [p.number for p in report.added] == [41, 42]
    assert not SeriesNumber.objects.exists()


def test_adding_to_the_register_keeps_the_numbers_of_a_fixed_series(tournament, add_players):
    tournament.series = Series.objects.create(name="Cup", slug="cup", fixed_numbers=True)
    tournament.save()
    add_players(tournament, 3, start=11)
    report = register.add_to_register(COMMAND_LINE, tournament)
    assert report.numbers == 3
    assert sorted(SeriesNumber.objects.values_list("number", flat=True)) == [11, 12, 13]
