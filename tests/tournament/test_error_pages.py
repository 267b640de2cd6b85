"""Error pages in the site's look, German first and English second (issue 14, finding 13)."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.views import defaults

pytestmark = pytest.mark.django_db


def test_not_found_and_forbidden_speak_both_languages(client, tournament, referee):
    missing = client.get("/t/gibt-es-nicht/")
    assert missing.status_code == 404
    text = missing.content.decode()
    assert "Seite nicht gefunden" in text and "Page not found" in text and "site.css" in text
    client.force_login(referee)
    forbidden = client.get(reverse("organiser:edit", args=[tournament.slug]))
    assert forbidden.status_code == 403
    text = forbidden.content.decode()
    assert "Kein Zugriff" in text and "Forbidden" in text and "403 Forbidden" not in text


def test_a_server_error_page_needs_nothing_that_could_fail_again():
    response = defaults.server_error(RequestFactory().get("/"))
    text = response.content.decode()
    assert response.status_code == 500
    assert "Da ist etwas schiefgegangen" in text and "Something went wrong" in text


def test_an_expired_form_says_what_to_do(tournament, organiser):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(reverse("organiser:edit", args=[tournament.slug]), {"name": "x"})
    assert response.status_code == 403
    assert "Die Seite ist abgelaufen" in response.content.decode()


def test_forbidden_says_whose_page_it_is(client, club_b, tournament, make_user, organiser):
    """Walk (issue 29): a page of an organisation's administrators, or creating a tournament
    without an organisation, was answered with the tournament roles' text."""
    from tournament.models import Series

    series = Series.objects.create(name="Cup A", slug="cup-a", organisation=tournament.organisation)
    client.force_login(club_b.admin)
    page = client.get(reverse("series:manage", args=[series.slug]))
    assert page.status_code == 403
    text = page.content.decode()
    assert "Verwaltern eines Vereins" in text and "administrators of an organisation" in text
    assert "Rolle in diesem Turnier" not in text
    page = client.get(reverse("organisation:members", args=[tournament.organisation.slug]))
    assert page.status_code == 403 and "Verwaltern eines Vereins" in page.content.decode()
    nobody = make_user("niemand")
    client.force_login(nobody)
    for name in ("organiser:create", "organiser:import_document"):
        page = client.get(reverse(name))
        text = page.content.decode()
        assert page.status_code == 403 and "Mitglieder eines Vereins" in text and "/verein/request/" in text
    requests = client.get(reverse("organisation:requests")).content.decode()
    assert "nur der Administrator dieser Seite" in requests
    # a tournament's page keeps the roles' text
    client.force_login(organiser)
    page = client.get(reverse("organiser:edit", args=[club_b.tournament.slug]))
    assert page.status_code == 403 and "Rolle in diesem Turnier" in page.content.decode()
