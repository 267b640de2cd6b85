"""The one sheet loader (results.load) reads what the old three did, with no more queries: a
table's phone entering a game and its page, the desk's page, the standings (issue 26)."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

# Measured before the loaders were made one (the phone's entry also bounded in test_table_phone);
# the standings count their unsigned sheets since ("vorläufig", issue 28 item 2): one query more;
# and read the stored totals' fingerprint when first drawn (issue 27, item 9): two more.
PHONE_ENTRY, PHONE_PAGE, DESK_PAGE, STANDINGS = 14, 8, 13, 9


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def test_the_query_counts_stay(client, drawn, sheet_of, referee):
    sheet = sheet_of(drawn, 1, 1)
    for number, notation in {1: "re13+", 2: "sh1+"}.items():  # warmed: a sheet with games
        client.post(
            reverse("table:send", args=[sheet.code]),
            json.dumps(
                {
                    "key": f"warm-{number:02d}-key-xx",
                    "action": "game",
                    "data": {"number": number, "notation": notation},
                }
            ),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )

    def entry():
        response = client.post(
            reverse("table:send", args=[sheet.code]),
            json.dumps({"key": "q" * 16, "action": "game", "data": {"number": 3, "notation": "rg24-"}}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
        assert response.json()["ok"], response.content

    counts = {"phone entry": queries(entry)}
    counts["phone page"] = queries(lambda: client.get(reverse("table:sheet", args=[sheet.code])))
    client.force_login(referee)
    counts["desk page"] = queries(lambda: client.get(reverse("referee:sheet", args=[drawn.slug, 1, 1])))
    client.logout()
    counts["standings"] = queries(lambda: client.get(reverse("public:standings", args=[drawn.slug])))
    assert counts == {
        "phone entry": PHONE_ENTRY,
        "phone page": PHONE_PAGE,
        "desk page": DESK_PAGE,
        "standings": STANDINGS,
    }
