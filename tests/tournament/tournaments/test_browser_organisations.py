"""A club comes to the site (issue 29, item 2), in Chromium at a desk: a user asks for an
organisation, the site administrator approves it, and the new administrator's tournament is on
the club's page, the other club's register out of his sight."""

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from tournament.models import Organisation, Person

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
