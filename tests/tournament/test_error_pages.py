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
