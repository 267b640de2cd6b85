"""The register at the desk (issue 29): an organisation's administrator adds a tournament's
participants to its register from the participant list, as the README says; an organiser who
is not one of its administrators is not offered the button."""

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from tournament.models import OrganisationMember, Person, StaffRole

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

BUTTON = "//button[normalize-space()='Alle in die Spielerkartei aufnehmen']"


def test_the_organisations_administrator_adds_all_to_the_register_from_the_participant_list(
    desk, club, tournament, add_players, make_user
):
    add_players(tournament, 4)
    chef = make_user("vorstand")  # no model permission of Django's: the organisation makes him
    OrganisationMember.objects.create(organisation=club, user=chef, is_admin=True)
    desk.login(chef)
    desk.get(reverse("organiser:participants", args=[tournament.slug]))
    desk.driver.find_element(By.XPATH, BUTTON).click()
    desk.wait_text("body", "Spielerkartei: 4 neu")
    assert Person.objects.filter(organisation=club).count() == 4
    assert tournament.participants.filter(person__isnull=True).count() == 0
    desk.screenshot("register-from-participants")


def test_an_organiser_who_does_not_keep_the_register_is_not_offered_it(desk, tournament, make_user):
    organiser = make_user("veranstalter")
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    desk.login(organiser)
    desk.get(reverse("organiser:participants", args=[tournament.slug]))
    desk.wait_text("main", "Teilnehmer")
    assert not desk.driver.find_elements(By.XPATH, BUTTON)
    assert desk.driver.find_elements(By.LINK_TEXT, "Teilnehmer anmelden")  # his page it is
