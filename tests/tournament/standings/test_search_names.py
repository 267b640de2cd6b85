"""The public standings' search (issue 28): a name found however it is typed, the page cached per
address as before."""

import pytest
from django.urls import reverse

from tournament.models import Participant, Substitution

RENAMED = {1: "Sepp Huber", 2: "Xaver Müller", 3: "Resi Bäuml", 4: "Huber, Franz"}


@pytest.fixture
def named(drawn):
    for number, name in RENAMED.items():
        Participant.objects.filter(tournament=drawn, number=number).update(name=name)
    Substitution.objects.create(
        participant=Participant.objects.get(number=5), name="Aigner, Vroni", from_match=2
    )
    return drawn


def found(client, tournament, query) -> set[str]:
    page = client.get(reverse("public:standings", args=[tournament.slug]), {"q": query}).content.decode()
    return {name for name in [*RENAMED.values(), "Spieler 005"] if name in page}


@pytest.mark.parametrize(
    ("query", "who"),
    [
        ("Sepp Huber", {"Sepp Huber"}),
        ("Huber Sepp", {"Sepp Huber"}),
        ("Huber, Sepp", {"Sepp Huber"}),
        ("huber", {"Sepp Huber", "Huber, Franz"}),
        ("Franz Huber", {"Huber, Franz"}),
        ("muller", {"Xaver Müller"}),
        ("mueller", {"Xaver Müller"}),
        ("Müller", {"Xaver Müller"}),
        ("Bauml", {"Resi Bäuml"}),
        ("Bäuml", {"Resi Bäuml"}),
        ("Vroni Aigner", {"Spieler 005"}),  # the substitute, under the start number he plays for
    ],
)
def test_the_public_standings_find_a_name_however_it_is_typed(client, named, query, who):
    assert found(client, named, query) == who


def test_each_spelling_is_a_page_of_its_own_kept_in_the_cache(client, named, django_assert_max_num_queries):
    url = reverse("public:standings", args=[named.slug])
    first = client.get(url, {"q": "Huber, Sepp"}).content
    with django_assert_max_num_queries(2):
        assert client.get(url, {"q": "Huber, Sepp"}).content == first
    assert "Sepp Huber" in client.get(url, {"q": "Sepp Huber"}).content.decode()


def test_the_public_standings_by_name_are_in_german_order(client, named):
    page = client.get(reverse("public:standings", args=[named.slug]), {"sort": "name"}).content.decode()
    order = ["Resi Bäuml", "Huber, Franz", "Sepp Huber", "Xaver Müller"]  # by surname
    assert sorted(order, key=page.index) == order
