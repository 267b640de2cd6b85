"""Persons of the register fall under the retention of their tournaments (5.3.5): anonymised
when the last of them is purged, not before."""

import datetime

import pytest
from django.utils.translation import gettext_lazy as _

from tournament.i18n import stored_text
from tournament.models import Person, Series, SeriesNumber, Tournament
from tournament.site.retention import purge
from tournament.tournaments.models import RETENTION_MONTHS, add_months

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today()


def anonymous(person) -> str:
    return stored_text(_("Player %(n)s")) % {"n": person.pk}


@pytest.fixture
def kept_for(played_by):
    """``kept_for(slug, days_ago, points)``: a tournament played ``days_ago`` days ago, kept the
    usual 6 months from its day."""

    def kept_for(slug, days_ago, points):
        tournament = played_by(slug, TODAY - datetime.timedelta(days=days_ago), points)
        day = tournament.date
        Tournament.objects.filter(pk=tournament.pk).update(retention_until=add_months(day, RETENTION_MONTHS))
        tournament.refresh_from_db()
        return tournament

    return kept_for


def test_a_person_is_anonymised_with_the_last_of_his_tournaments(kept_for, person):
    born = datetime.date(1960, 1, 1)
    sepp = person("Sepp Huber", club="SK Au", birth_date=born)
    only_old = person("Resi Alt", club="SK Au", birth_date=born)
    others = [person(f"P{n}") for n in range(5)]
    old = kept_for("alt", 400, {sepp: 1, only_old: 2, others[0]: 3, others[1]: 4})
    older = kept_for("aelter", 500, {sepp: 1, others[2]: 2, others[3]: 3, others[4]: 4})
    young = kept_for("jung", 30, {sepp: 1, others[2]: 2, others[3]: 3, others[4]: 4})
    SeriesNumber.objects.create(series=Series.objects.create(name="Cup", slug="cup"), person=sepp, number=7)

    report = purge(old)
    assert report.persons == 3  # Resi and two others of "alt" only; Sepp plays on in "jung"
    only_old.refresh_from_db()
    sepp.refresh_from_db()
    assert (only_old.name, only_old.club, only_old.birth_date) == (anonymous(only_old), "", None)
    assert (sepp.name, sepp.birth_date) == ("Sepp Huber", born)

    purge(older, delete=True)
    sepp.refresh_from_db()
    assert sepp.name == "Sepp Huber"  # "jung" is still kept

    Tournament.objects.filter(pk=young.pk).update(retention_until=TODAY - datetime.timedelta(days=1))
    young.refresh_from_db()
    report = purge(young, dry_run=True)
    assert report.persons == 4
    sepp.refresh_from_db()
    assert sepp.name == "Sepp Huber"  # a dry run changes nothing
    purge(young)
    sepp.refresh_from_db()
    assert (sepp.name, sepp.club, sepp.birth_date) == (anonymous(sepp), "", None)
    assert SeriesNumber.objects.get(person=sepp).number == 7  # no personal data in it
    assert purge(young).persons == 0  # nothing left to anonymise


def test_a_person_whose_only_tournament_is_deleted_is_anonymised(kept_for, person):
    persons = [person(f"Q{n}", birth_date=datetime.date(1970, 1, n + 1)) for n in range(4)]
    old = kept_for("alt", 400, dict.fromkeys(persons, 0))
    purge(old, delete=True)
    assert not Person.objects.exclude(birth_date=None).exists()
    assert set(Person.objects.values_list("name", flat=True)) == {anonymous(p) for p in persons}
