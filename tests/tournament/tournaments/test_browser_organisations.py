"""A club comes to the site (issue 29, item 2), in Chromium at a desk: a user asks for an
organisation, the site administrator approves it, and the new administrator's tournament is on
the club's page, the other club's register out of his sight."""

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tournament.models import Organisation, OrganisationMember, Person, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_requested_club_is_approved_and_runs_its_own_tournament(desk, make_user, tournament):
    Person.objects.create(name="Geheim Gustl", organisation=tournament.organisation)  # club A's
    wirt = make_user("wirt")
    admin = make_user("admin", is_superuser=True, is_staff=True)

    desk.login(wirt)
    desk.get(reverse("organisation:request"))
    desk.find("input[name=name]").send_keys("Wirtshaus Post")
    desk.find("textarea[name=reason]").send_keys("Die Schafkopfabende im Nebenzimmer")
    desk.find("main form button[type=submit]").click()
    desk.wait_text(".history", "offen")

    desk.login(admin)
    desk.get(reverse("organisation:requests"))
    assert "Die Schafkopfabende im Nebenzimmer" in desk.find("main").text
    desk.find("input[name=slug]").send_keys("post")
    desk.find("button[name=approve]").click()
    desk.wait_for(lambda d: Organisation.objects.filter(slug="post").exists())
    desk.screenshot("organisation-requests")

    desk.login(wirt)
    desk.get(reverse("organiser:create"))
    desk.find("input[name=name]").send_keys("Post-Schafkopf")
    desk.driver.execute_script("document.querySelector('input[name=date]').value = '2026-12-05'")
    desk.find("main form button[type=submit]").click()
    desk.wait_for(lambda d: "/manage/post-schafkopf/" in d.current_url)

    desk.get(reverse("organisation:page", args=["post"]))
    page = desk.find("main").text
    assert "Post-Schafkopf" in page and "Kirchweih-Schafkopf" not in page
    assert desk.driver.find_elements(By.CSS_SELECTOR, "a[href='/verein/post/members/']")  # his to manage
    desk.screenshot("organisation-page")
    desk.get(reverse("series:register") + "?q=Gustl")
    assert "Geheim Gustl" not in desk.find("main").text


def test_a_member_of_two_clubs_chooses_where_his_tournament_goes(desk, organiser, club_b, tournament):
    """Walk: the first club of the list was preselected, so a tournament went where its organiser
    never chose. Now nothing is chosen for him, and without a choice the page says so."""
    OrganisationMember.objects.get_or_create(organisation=tournament.organisation, user=organiser)
    OrganisationMember.objects.create(organisation=club_b.organisation, user=organiser, is_admin=True)
    desk.login(organiser)
    desk.get(reverse("organiser:create"))
    choice = Select(desk.find("select[name=organisation]"))
    assert choice.first_selected_option.text == "(bitte wählen)"
    desk.find("input[name=name]").send_keys("Zweiter Abend")
    desk.driver.execute_script("document.querySelector('input[name=date]').value = '2026-12-05'")
    # the browser's own check let through, as an old browser would: the page answers
    desk.driver.execute_script("document.querySelector('main form').noValidate = true")
    desk.find("main form button[type=submit]").click()
    desk.wait_text("main", "Sie gehören zu mehreren Vereinen")
    assert not Tournament.objects.filter(name="Zweiter Abend").exists()
    Select(desk.find("select[name=organisation]")).select_by_visible_text("SK Bergfeld")
    desk.find("main form button[type=submit]").click()
    desk.wait_for(lambda d: "/manage/zweiter-abend/" in d.current_url)
    assert Tournament.objects.get(name="Zweiter Abend").organisation == club_b.organisation
    # from a club's page, "Neues Turnier" comes with that club chosen (still to be changed)
    desk.get(reverse("organisation:page", args=[club_b.organisation.slug]))
    desk.driver.find_element(By.LINK_TEXT, "Neues Turnier").click()
    desk.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "select[name=organisation]"))
    assert Select(desk.find("select[name=organisation]")).first_selected_option.text == "SK Bergfeld"


def test_the_administrator_renames_his_organisation(desk, club, tournament, make_user):
    """Walk: a site from before issue 29 has its one organisation named "Verein", beside every
    tournament on the public pages, and nobody could rename it (the admin shows it read only)."""
    chef = make_user("vorstand")
    OrganisationMember.objects.create(organisation=club, user=chef, is_admin=True)
    desk.login(chef)
    desk.get(reverse("organisation:members", args=[club.slug]))
    field = desk.find("input[name=name]")
    assert field.get_attribute("value") == "Verein"
    field.clear()
    field.send_keys("SK Dachau")
    desk.find("button[name=rename]").click()
    desk.wait_text(".history", "Verein umbenannt: SK Dachau")
    club.refresh_from_db()
    assert club.name == "SK Dachau" and club.slug == "verein"  # the address stays
    desk.get(reverse("organisation:page", args=[club.slug]))
    desk.wait_text("h1", "SK Dachau")
    assert tournament.name in desk.find("main").text  # its tournaments under the new name
    # an empty name is refused on the page, nothing saved
    desk.get(reverse("organisation:members", args=[club.slug]))
    desk.driver.execute_script("document.querySelector('input[name=name]').removeAttribute('required')")
    desk.find("input[name=name]").clear()
    desk.find("button[name=rename]").click()
    desk.wait_text("main", "Dieses Feld ist zwingend erforderlich")
    club.refresh_from_db()
    assert club.name == "SK Dachau"
