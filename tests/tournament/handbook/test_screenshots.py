"""The handbook's pictures (issue 31), taken by Chromium from the demo tournament at the widths
their users have: the desk and the organiser at 1366 px, the phones at 390 px. They are written
to static/handbook/img/ only with HANDBOOK_SCREENSHOTS=1 (`make screenshots`), so that an
ordinary test run leaves the tree as it is; the pictures are committed, and a changed page gets
its new picture by running `make screenshots` again. Each page is checked to be the real page
(its heading or its part) before the picture is taken, so an error page is never pictured."""

import io
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from PIL import Image
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from tournament.draw import services as draw_service
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.models import Person, StaffRole
from tournament.series.services import add_to_register, attach, create_series, set_consent
from tournament.stats.awards import AWARDS
from tournament.tournaments.organisation_services import add_member
from tournament.tournaments.permissions import COMMAND_LINE

from ..tablephone.test_browser_table import tap_starting

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("HANDBOOK_SCREENSHOTS") != "1",
        reason="the handbook's pictures are taken with HANDBOOK_SCREENSHOTS=1 (make screenshots)",
    ),
]

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "static" / "handbook" / "img"


def picture(browser, name: str, width: int) -> None:
    """The browser's window as ``name``.png, ``width`` pixels wide, in few colours (small files)."""
    image = Image.open(io.BytesIO(browser.driver.get_screenshot_as_png())).convert("RGB")
    if image.width != width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    FOLDER.mkdir(parents=True, exist_ok=True)
    image.quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(FOLDER / f"{name}.png", optimize=True)


def shown(browser, text: str, seconds: float = 15) -> None:
    """Wait for the page to show ``text`` in its main part; else fail with what it shows."""
    try:
        browser.wait_text("main", text, seconds)
    except TimeoutException:
        body = browser.driver.find_element(By.TAG_NAME, "body").text
        pytest.fail(f"{browser.driver.current_url} does not show {text!r}: {body[:500]}")


def staff(demo, username, role, first, last):
    user = get_user_model().objects.create_user(username, password="x", first_name=first, last_name=last)
    StaffRole.objects.create(tournament=demo, user=user, role=role)
    return user


@pytest.fixture
def people(demo):
    return {
        "organiser": staff(demo, "veranstalter", "organiser", "Sepp", "Brandl"),
        "supervisor": staff(demo, "aufsicht", "supervisor", "Resi", "Huber"),
    }


DESK_PAGES = [  # (picture, user, address, text the real page shows)
    ("organiser-dashboard", "organiser", "/manage/{slug}/", "Kirchweih"),
    ("organiser-edit", "organiser", "/manage/{slug}/edit/", "Regel"),
    ("organiser-participants", "organiser", "/manage/{slug}/participants/", "Brandl"),
    ("organiser-checkin", "organiser", "/manage/{slug}/checkin/", "Einlass"),
    ("organiser-draw", "organiser", "/manage/{slug}/draw/", "Auslosung"),
    ("organiser-standings", "organiser", "/manage/{slug}/standings/", "Brandl"),
    ("organiser-prizes", "organiser", "/manage/{slug}/prizes/", "Preisliste"),
    ("organiser-staff", "organiser", "/manage/{slug}/staff/", "aufsicht"),
    ("referee-board", "supervisor", "/referee/{slug}/match/1/", "Tisch 1"),
    ("referee-sheet", "supervisor", "/referee/{slug}/match/1/table/1/", "Spiel"),
]


def test_the_desk_pages(desk, demo, people):
    for name, who, address, text in DESK_PAGES:
        desk.login(people[who])
        desk.get(address.format(slug=demo.slug))
        shown(desk, text)
        if name == "referee-sheet":  # the entry field and its keys, where the page puts the cursor
            picture(desk, "referee-entry", 1366)
            desk.driver.execute_script("window.scrollTo(0, 0)")
        picture(desk, name, 1366)


def test_the_phone_pages(phone, demo, people, sheet_of):
    slug = demo.slug
    for name, address, text in [
        ("phone-standings", f"/t/{slug}/standings/", "Brandl"),
        ("phone-participant", f"/t/{slug}/p/1/", "Brandl"),
        ("phone-code", "/tisch/", "Tischcode"),
    ]:
        phone.get(address)
        shown(phone, text)
        picture(phone, name, 780)
    # A complete sheet of the demo: the final totals and the signature pad.
    phone.get(f"/tisch/{sheet_of(demo, 1, 2).code}/")
    phone.wait_text(".final", "Endstand")
    picture(phone, "phone-sign", 780)
    # Match 2 drawn again: an empty sheet, the first game with "So geht's".
    draw_service.draw_one(COMMAND_LINE, demo, 2, seed="hilfe", discard_results=True)
    phone.get(f"/tisch/{sheet_of(demo, 2, 1).code}/")
    phone.wait_text("#entry-title", "Spiel 1")
    picture(phone, "phone-first-game", 780)
    tap_starting(phone, "Sauspiel Eichel")
    phone.wait_text("#step", "Wer spielt?")
    picture(phone, "phone-who-plays", 780)
    for button in ("1 ·", "3 ·", "gewonnen", "keins"):
        tap_starting(phone, button)
    phone.wait_text("#entry-title", "Spiel 2")
    tap_starting(phone, "Herz-Tout")
    tap_starting(phone, "2 ·")
    phone.wait_text("#step", "Turnierleitung rufen")
    picture(phone, "phone-call", 780)
    tap_starting(phone, "Turnierleitung rufen")
    phone.wait_text("body", "wartet auf die Turnierleitung")
    phone.login(people["supervisor"])
    phone.get(f"/referee/{slug}/calls/")
    shown(phone, "Herz-Tout")
    picture(phone, "phone-calls", 780)


def evening_before(demo):
    """The demo's tables and games a month earlier, the names seated otherwise (each start number
    another player of the demo), in the demo's organisation: a second evening of the season."""
    document = json.loads((ROOT / "fixtures" / "demo.json").read_text(encoding="utf-8"))
    document["tournament"].update(name="Martini-Schafkopf 2026", date="2026-10-17")
    people = document["participants"]
    identities = [{key: p[key] for key in ("name", "club", "birth_date") if key in p} for p in people]
    for participant, identity in zip(people, identities[5:] + identities[:5], strict=True):
        for key in ("name", "club", "birth_date"):
            participant.pop(key, None)
        participant.update(identity)
    return import_plan(COMMAND_LINE, read_document(json.dumps(document), "martini-2026"), demo.organisation)


def test_the_season_pages(phone, demo, people):
    """The club's page as its administrator sees it; the season statistics and a player's page of a
    series of the demo's organisation with two evenings, the cup's awards declared and every player
    agreeing to public statistics (issue 30)."""
    organisation = demo.organisation
    add_member(COMMAND_LINE, organisation, people["organiser"].get_username(), is_admin=True)
    series = create_series(
        COMMAND_LINE,
        organisation,
        name="Dachauer Schafkopf-Cup",
        slug="cup-2026",
        season="2026",
        # every award but the most tournaments attended: after two evenings all the players tie for it
        awards=[award.key for award in AWARDS if award.key != "attendances"],
        award_attendances=2,
        rating_matches=4,
    )
    for tournament in (evening_before(demo), demo):
        attach(COMMAND_LINE, series, tournament)
        add_to_register(COMMAND_LINE, tournament)
    for person in Person.objects.filter(organisation=organisation):
        set_consent(COMMAND_LINE, person, True)
    resi = Person.objects.get(organisation=organisation, name="Brandl, Resi")
    phone.get(f"/series/{series.slug}/stats/")
    shown(phone, "Saisonstatistik")
    shown(phone, "Pechvogel")
    phone.driver.execute_script("document.querySelector('.awards').scrollIntoView()")  # awards and list
    picture(phone, "phone-season", 780)
    phone.get(f"/series/players/{resi.pk}/")
    shown(phone, "Brandl, Resi")
    shown(phone, "Wertung")
    picture(phone, "phone-player", 780)
    phone.login(people["organiser"])
    phone.get(f"/verein/{organisation.slug}/")
    shown(phone, "Mitglieder")
    shown(phone, series.name)
    picture(phone, "phone-club", 780)
