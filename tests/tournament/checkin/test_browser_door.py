"""The door on a phone (noticed in the walk of issue 28): a late arrival half typed in stays
while the clerk searches or checks someone in, and each label stays beside its field."""

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from tournament.models import Participant

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def middle(element) -> float:
    return element.rect["y"] + element.rect["height"] / 2


def test_a_half_typed_late_arrival_survives_search_and_check_in(phone, door, organiser):
    phone.login(organiser)
    phone.get(reverse("organiser:checkin", args=[door.slug]))
    name = phone.find("#door-register input[name=name]")
    name.send_keys("Wastl Zehetmair")
    phone.find("#door-register input[name=club]").send_keys("SK Moosach")
    phone.screenshot("door-phone")

    # every label of the late arrival's form on the line of its field, not wrapped away
    for field in phone.driver.find_elements(By.CSS_SELECTOR, "#door-register .door-field"):
        label = field if field.tag_name == "label" else field.find_element(By.TAG_NAME, "label")
        control = field.find_element(By.CSS_SELECTOR, "input")
        assert abs(middle(label) - middle(control)) < control.rect["height"], field.text

    search = phone.find("#door-q")
    search.send_keys("Bäuml")
    phone.wait_for(lambda d: "Sepp Huber" not in d.find_element(By.ID, "door-results").text)
    assert phone.find("#door-register input[name=name]").get_attribute("value") == "Wastl Zehetmair"

    phone.find("#p-4 button.door-in").click()
    phone.wait_text("#p-4", "eingecheckt")
    assert phone.find("#door-register input[name=name]").get_attribute("value") == "Wastl Zehetmair"
    assert phone.find("#door-register input[name=club]").get_attribute("value") == "SK Moosach"

    # registering clears the form and lists him checked in
    phone.find("#door-register button.door-in").click()
    phone.wait_for(lambda d: Participant.objects.filter(tournament=door, name="Wastl Zehetmair").exists())
    cleared = (By.CSS_SELECTOR, "#door-register input[name=name]")
    phone.wait_for(lambda d: d.find_element(*cleared).get_attribute("value") == "")
