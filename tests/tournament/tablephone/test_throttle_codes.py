"""Wrong table codes are throttled per address (issue 27, item 12): twenty unknown codes a
minute, then 429 for the rest of the minute, for right codes too; other addresses go on."""

import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.usefixtures("steady_clock")

TOO_MANY = "Zu viele falsche Tischcodes. Bitte in einer Minute erneut versuchen."


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def wrong(n: int) -> str:
    return f"zzzzz{n:05d}"


def test_twenty_wrong_codes_a_minute_then_429_for_any_code(client, sheet):
    for n in range(20):
        assert client.get(reverse("table:sheet", args=[wrong(n)])).status_code == 404
    refused = client.get(reverse("table:sheet", args=[wrong(20)]))
    assert refused.status_code == 429
    assert TOO_MANY in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 60
    # Not even a right code is looked up: else the guessing could go on among the refusals.
    assert client.get(reverse("table:sheet", args=[sheet.code])).status_code == 429


def test_other_addresses_are_counted_apart(client, sheet):
    for n in range(21):
        client.get(reverse("table:sheet", args=[wrong(n)]), REMOTE_ADDR="10.0.0.66")
    assert client.get(reverse("table:sheet", args=[sheet.code]), REMOTE_ADDR="10.0.0.66").status_code == 429
    assert client.get(reverse("table:sheet", args=[sheet.code]), REMOTE_ADDR="10.0.0.7").status_code == 200
    assert client.get(reverse("table:sheet", args=[wrong(99)]), REMOTE_ADDR="10.0.0.7").status_code == 404


def test_right_codes_are_not_counted(client, sheet):
    for _poll in range(30):
        assert client.get(reverse("table:part", args=[sheet.code])).status_code == 200
    assert client.get(reverse("table:sheet", args=[wrong(1)])).status_code == 404


def test_the_phone_is_told_in_json_and_typed_codes_count_too(client, sheet):
    for n in range(20):
        typed = client.get(reverse("table:enter"), {"code": wrong(n)})
        assert typed.status_code == 200 and "Diesen Tischcode gibt es nicht" in typed.content.decode()
    assert client.get(reverse("table:enter"), {"code": sheet.code}).status_code == 429
    sent = client.post(
        reverse("table:send", args=[sheet.code]),
        json.dumps({"key": "k" * 12, "action": "game", "data": {}}),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert sent.status_code == 429
    assert sent.json() == {"ok": False, "message": TOO_MANY}


def test_a_spoofed_forwarded_for_does_not_escape_without_proxy(client, sheet, settings):
    settings.PROXY = False
    for n in range(20):
        client.get(reverse("table:sheet", args=[wrong(n)]), HTTP_X_FORWARDED_FOR=f"10.1.0.{n}")
    fresh_header = client.get(reverse("table:sheet", args=[sheet.code]), HTTP_X_FORWARDED_FOR="10.2.0.1")
    assert fresh_header.status_code == 429


def test_behind_the_proxy_each_phone_is_counted_by_its_own_address(client, sheet, settings):
    settings.PROXY = True  # the test client's connection comes from 127.0.0.1: the proxy's
    for n in range(21):
        client.get(reverse("table:sheet", args=[wrong(n)]), HTTP_X_FORWARDED_FOR="10.1.0.1")
    guesser = client.get(reverse("table:sheet", args=[sheet.code]), HTTP_X_FORWARDED_FOR="10.1.0.1")
    assert guesser.status_code == 429
    phone = client.get(reverse("table:sheet", args=[sheet.code]), HTTP_X_FORWARDED_FOR="10.1.0.2")
    assert phone.status_code == 200
