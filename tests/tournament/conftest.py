"""Shared factories of the Django tests: users with roles, tournaments, players, drawn and played
tournaments, signatures. Every test module takes them as fixtures; none imports another."""

import base64
import datetime
import io
import os
import random
import shutil
import types
import warnings
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from PIL import Image, ImageDraw
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from scoring import Contract, Game, Result, Suit
from tournament import throttle
from tournament.demo import generator
from tournament.draw import services as draw_service
from tournament.draw.services import sync_matches
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.models import Organisation, OrganisationMember, Participant, Scoresheet, StaffRole, Tournament
from tournament.results import services as sheet_service
from tournament.results import signing
from tournament.tournaments.permissions import COMMAND_LINE

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)


def _club():
    """The organisation every tournament of the tests belongs to unless one is named (issue 29)."""
    return Organisation.objects.get_or_create(slug="verein", defaults={"name": "Verein"})[0]


def _tournament(slug="kirchweih", **fields):
    defaults = {
        "name": "Kirchweih-Schafkopf",
        "date": datetime.date(2026, 11, 21),
        "venue": "Gasthof Post",
        "organisation": fields.get("organisation") or _club(),
    }
    tournament = Tournament.objects.create(slug=slug, **{**defaults, **fields})
    sync_matches(tournament)
    return tournament


def _players(tournament, count, start=1, **fields):
    return Participant.objects.bulk_create(
        [
            Participant(tournament=tournament, number=n, name=f"Spieler {n:03d}", **fields)
            for n in range(start, start + count)
        ]
    )


@pytest.fixture
def make_user(db):
    """``make_user("name", **fields)``: a user whose password is ``pw-name``."""
    return _user


@pytest.fixture
def make_tournament(db):
    """``make_tournament(slug, **fields)``: a tournament with its matches, nobody on its staff."""
    return _tournament


@pytest.fixture
def add_players(db):
    """``add_players(tournament, count, start=1, **fields)``: "Spieler 001" and on."""
    return _players


@pytest.fixture
def club(db):
    """The organisation of the tests' tournaments ("verein", as the migration names it)."""
    return _club()


@pytest.fixture
def club_b(db):
    """A second organisation on the same site, with an administrator ("vorstand-b") and a
    member ("mitglied-b") of its own, and a tournament ("b-turnier") that the administrator
    organises: none of them has anything to do with the first organisation."""
    organisation = Organisation.objects.create(name="SK Bergfeld", slug="sk-bergfeld")
    admin, member = _user("vorstand-b"), _user("mitglied-b")
    OrganisationMember.objects.create(organisation=organisation, user=admin, is_admin=True)
    OrganisationMember.objects.create(organisation=organisation, user=member)
    tournament = _tournament("b-turnier", name="Bergfelder Schafkopf", organisation=organisation)
    StaffRole.objects.create(tournament=tournament, user=admin, role=StaffRole.Role.ORGANISER)
    return types.SimpleNamespace(organisation=organisation, admin=admin, member=member, tournament=tournament)


@pytest.fixture
def tournament(db):
    return _tournament()


@pytest.fixture
def other_tournament(db):
    return _tournament("fasching", name="Faschings-Schafkopf")


def _staff(tournament, username, role):
    user = _user(username)
    StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def organiser(tournament):
    """The tournament's organiser, a member (not an administrator) of its organisation: he may
    create tournaments for it."""
    user = _staff(tournament, "orga", StaffRole.Role.ORGANISER)
    OrganisationMember.objects.create(organisation=tournament.organisation, user=user)
    return user


@pytest.fixture
def supervisor(tournament):
    return _staff(tournament, "aufsicht", StaffRole.Role.SUPERVISOR)


@pytest.fixture
def referee(tournament):
    return _staff(tournament, "schiri", StaffRole.Role.REFEREE)


@pytest.fixture
def foreign_organiser(other_tournament):
    return _staff(other_tournament, "fremd", StaffRole.Role.ORGANISER)


@pytest.fixture
def drawn(tournament, organiser):
    """Eight players on two tables in both matches, no game entered."""
    _players(tournament, 8)
    draw_service.draw_all(organiser, tournament, seed="liste")
    return tournament


@pytest.fixture
def played(tournament, organiser):
    """Twelve players, both matches drawn and every sheet complete with valid random games."""
    _players(tournament, 12)
    draw_service.draw_all(organiser, tournament, seed="druck")
    generator.fill_results(COMMAND_LINE, tournament, random.Random(8))
    return tournament


@pytest.fixture
def demo(db):
    """The demo tournament of fixtures/demo.json."""
    return import_plan(COMMAND_LINE, read_document((FIXTURES / "demo.json").read_bytes()))


def _sheet_of(tournament, match=1, table=1):
    return Scoresheet.objects.select_related("match__tournament", "table").get(
        match__tournament=tournament,
        match__number=match,
        match__discarded_at__isnull=True,
        table__number=table,
    )


@pytest.fixture
def sheet_of():
    """``sheet_of(tournament, match=1, table=1)``: that table's scoresheet, read afresh."""
    return _sheet_of


@pytest.fixture
def steady_clock(monkeypatch):
    """The throttles' windows (tournament/throttle.py) do not turn over during the test."""
    monkeypatch.setattr(throttle, "time", types.SimpleNamespace(time=lambda: 1_800_000_000.0))


@pytest.fixture
def enter():
    """``enter(user, sheet, entry, replace=False)``: through the service, at the current version."""

    def enter(user, sheet, entry, replace=False):
        sheet.refresh_from_db()
        return sheet_service.save_entry(user, sheet, entry, sheet.version, replace=replace)

    return enter


def _png(drawn: bool = True) -> str:
    image = Image.new("RGBA", (300, 100), (0, 0, 0, 0))
    if drawn:
        ImageDraw.Draw(image).line((10, 80, 120, 20, 250, 70), fill=(0, 0, 0, 255), width=3)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


@pytest.fixture
def signature_png():
    """``signature_png(drawn=True)``: what the signature pad sends, a PNG data URL."""
    return _png


def _sign(user, sheet, positions=(1, 2, 3, 4)):
    for position in positions:
        sheet.refresh_from_db()
        signing.sign_with_pad(user, sheet, position, _png(), sheet.version)
    sheet.refresh_from_db()
    return sheet


@pytest.fixture
def sign():
    """``sign(user, sheet, positions=(1, 2, 3, 4))``: those seats sign on the pad."""
    return _sign


@pytest.fixture
def sign_and_correct():
    """``sign_and_correct(referee, supervisor, sheet)``: four signatures, then the supervisor
    corrects game 2 of the locked sheet (5.3.4)."""

    def sign_and_correct(referee, supervisor, sheet):
        _sign(referee, sheet)
        signing.correct(
            supervisor,
            sheet,
            Game(2, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON),
            "Zahlendreher",
        )
        sheet.refresh_from_db()
        return sheet

    return sign_and_correct


# Browser tests: headless Chromium through Selenium against pytest-django's live server.
CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
PHONE = (390, 844)
DESK = (1366, 900)


def _chrome(size: tuple[int, int], mobile: bool, arguments: tuple[str, ...] = ()):
    if not (CHROMIUM and CHROMEDRIVER):
        message = "Chromium or chromedriver is missing: run `make install` (apt: chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        warnings.warn(f"BROWSER TESTS SKIPPED: {message}", stacklevel=2)
        pytest.skip(f"BROWSER TESTS SKIPPED: {message}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    for argument in arguments:
        options.add_argument(argument)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.add_argument("--lang=de")
    options.add_experimental_option("prefs", {"intl.accept_languages": "de"})
    if mobile:
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 3}}
        )
    driver = webdriver.Chrome(service=ChromeService(executable_path=CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    return driver


class Browser:
    """A headless Chromium on the live server, with the helpers the tests share."""

    def __init__(self, driver, live_server, client):
        self.driver, self.live_server, self.client = driver, live_server, client

    def get(self, path: str) -> None:
        self.driver.get(self.live_server.url + path)

    def login(self, user) -> None:
        self.client.force_login(user)
        self.get("/")
        self.driver.add_cookie(
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": self.client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        )

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait_for(self, condition, seconds: float = 10):
        # A page part that htmx swapped while the condition looked at it is looked at again.
        return WebDriverWait(self.driver, seconds, ignored_exceptions=[StaleElementReferenceException]).until(
            condition
        )

    def wait_text(self, css: str, text: str, seconds: float = 10) -> None:
        self.wait_for(
            expected_conditions.text_to_be_present_in_element((By.CSS_SELECTOR, css), text), seconds
        )

    def in_view(self, element) -> bool:
        """Whether the element is on screen, not scrolled away."""
        return self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            "return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;",
            element,
        )

    def screenshot(self, name: str) -> None:
        folder = os.environ.get("SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(folder) / f"{name}.png"))


@pytest.fixture
def desk(live_server, client):
    """Chromium at a desk's screen (1366 × 900)."""
    driver = _chrome(DESK, mobile=False)
    yield Browser(driver, live_server, client)
    driver.quit()


@pytest.fixture
def phone(live_server, client):
    """Chromium as a phone (390 × 844, touch)."""
    driver = _chrome(PHONE, mobile=True)
    yield Browser(driver, live_server, client)
    driver.quit()
