"""Log-in, throttled; passwords changed by the user and reset by e-mail (issue 13)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_wrong_passwords_are_throttled(client, organiser):
    url = reverse("login")
    for _attempt in range(4):
        response = client.post(url, {"username": "orga", "password": "falsch"})
        assert response.status_code == 200
    fifth = client.post(url, {"username": "orga", "password": "falsch"})
    assert fifth.status_code == 429
    assert "Zu viele falsche Passwörter für diesen Benutzer" in fifth.content.decode()
    locked = client.post(url, {"username": "orga", "password": "pw-orga"})  # even the right one now
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_right_password_clears_the_count(client, organiser):
    url = reverse("login")
    for _attempt in range(4):
        client.post(url, {"username": "orga", "password": "falsch"})
    assert client.post(url, {"username": "orga", "password": "pw-orga"}).status_code == 302
    client.post(reverse("logout"))
    for _attempt in range(4):
        assert client.post(url, {"username": "orga", "password": "falsch"}).status_code == 200


def test_staff_change_their_password(client, organiser):
    client.force_login(organiser)
    page = client.get(reverse("password_change")).content.decode()
    assert "Passwort ändern" in page
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-orga",
            "new_password1": "Sauspiel-mit-der-Alten",
            "new_password2": "Sauspiel-mit-der-Alten",
        },
    )
    assert response.status_code == 302
    organiser.refresh_from_db()
    assert organiser.check_password("Sauspiel-mit-der-Alten")


def test_a_forgotten_password_is_reset_by_mail_and_lifts_the_lock(client, organiser):
    organiser.email = "orga@example.org"
    organiser.save()
    for _attempt in range(5):
        client.post(reverse("login"), {"username": "orga", "password": "falsch"})
    assert client.post(reverse("login"), {"username": "orga", "password": "pw-orga"}).status_code == 429
    client.post(reverse("password_reset"), {"email": "orga@example.org"})
    (message,) = mail.outbox
    assert message.to == ["orga@example.org"] and "Passwort" in message.subject
    link = re.search(r"http://testserver(/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Neues Passwort" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "Wenz-Tout-1234", "new_password2": "Wenz-Tout-1234"}
    )
    assert done.status_code == 302
    organiser.refresh_from_db()
    assert organiser.check_password("Wenz-Tout-1234")
    assert (
        client.post(reverse("login"), {"username": "orga", "password": "Wenz-Tout-1234"}).status_code == 302
    )
