"""Password spraying and reset floods are throttled (issue 27, item 12); nobody is locked out
from an address that is not his, also behind the reverse proxy."""

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("steady_clock")]

LOCKED = "Zu viele falsche Passwörter"
TOO_MANY_RESETS = "Zu viele Anfragen für ein neues Passwort. Bitte in einer Stunde erneut versuchen."


def log_in(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def test_one_password_tried_on_many_users_locks_the_address(client, organiser):
    for n in range(19):  # never more than one try per user: the pair's limit is never reached
        assert log_in(client, f"user{n}", "Sommer2026").status_code == 200
    twentieth = log_in(client, "user19", "Sommer2026")
    assert twentieth.status_code == 429
    assert LOCKED in twentieth.content.decode()
    assert log_in(client, "orga", "pw-orga").status_code == 429  # the right one neither, from there
    assert log_in(client, "orga", "pw-orga", REMOTE_ADDR="10.0.0.7").status_code == 302  # elsewhere


def test_a_right_password_of_the_sprayer_does_not_clear_the_address(client, organiser, make_user):
    make_user("sprayer")
    for n in range(10):
        log_in(client, f"user{n}", "Sommer2026")
    assert log_in(client, "sprayer", "pw-sprayer").status_code == 302
    client.post(reverse("logout"))
    for n in range(10, 19):
        assert log_in(client, f"user{n}", "Sommer2026").status_code == 200
    assert log_in(client, "user19", "Sommer2026").status_code == 429


def test_a_user_locked_from_one_address_logs_in_from_another(client, organiser):
    for _attempt in range(5):
        log_in(client, "orga", "falsch", REMOTE_ADDR="10.0.0.66")
    assert log_in(client, "orga", "pw-orga", REMOTE_ADDR="10.0.0.66").status_code == 429
    assert log_in(client, "orga", "pw-orga", REMOTE_ADDR="10.0.0.7").status_code == 302


def test_behind_the_proxy_a_guesser_does_not_lock_out_everybody(client, organiser, settings):
    settings.PROXY = True  # the test client's connection comes from 127.0.0.1: the proxy's
    for _attempt in range(5):
        log_in(client, "orga", "falsch", HTTP_X_FORWARDED_FOR="10.0.0.66")
    assert log_in(client, "orga", "pw-orga", HTTP_X_FORWARDED_FOR="10.0.0.66").status_code == 429
    assert log_in(client, "orga", "pw-orga", HTTP_X_FORWARDED_FOR="10.0.0.7").status_code == 302


def test_without_proxy_a_forwarded_for_does_not_escape_the_lock(client, organiser, settings):
    settings.PROXY = False
    for n in range(5):
        log_in(client, "orga", "falsch", HTTP_X_FORWARDED_FOR=f"10.1.0.{n}")
    assert log_in(client, "orga", "pw-orga", HTTP_X_FORWARDED_FOR="10.2.0.1").status_code == 429


def reset(client, email, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def test_five_reset_requests_an_hour_from_one_address(client, organiser):
    for n in range(5):
        assert reset(client, f"someone{n}@example.org").status_code == 302
    refused = reset(client, "orga@example.org")
    assert refused.status_code == 429
    assert TOO_MANY_RESETS in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert reset(client, "orga@example.org", REMOTE_ADDR="10.0.0.7").status_code == 302


def test_three_reset_mails_an_hour_to_one_mailbox(client, organiser):
    organiser.email = "orga@example.org"
    organiser.save()
    for n in range(3):
        assert reset(client, "orga@example.org", REMOTE_ADDR=f"10.0.0.{n}").status_code == 302
    assert reset(client, "Orga@Example.org", REMOTE_ADDR="10.0.0.9").status_code == 429
    assert len(mail.outbox) == 3
