"""A player's page on a phone (issue 30): his numbers, his tournaments and the chart of his
placings and rating, drawn as SVG on the server, fit the width of 390 px without scrolling."""

import datetime

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By

from tournament.models import Person

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_players_page_with_its_chart_fits_a_phone(phone, sheets):
    persons = {n: Person.objects.create(name=f"Huber, Sepp {n}", public_stats=True) for n in range(1, 10)}
    for month in (3, 4, 5):
        sheets(f"abend-{month}", datetime.date(2026, month, 1), persons)
    phone.get(reverse("series:player", args=[persons[1].pk]))
    phone.wait_text("h1", "Huber, Sepp 1")
    charts = phone.driver.find_elements(By.CSS_SELECTOR, ".player-chart svg")
    assert len(charts) == 2  # placings, rating
    width = phone.driver.execute_script("return window.innerWidth")
    for chart in charts:
        assert 200 < chart.rect["width"] <= width and chart.rect["height"] > 50
        dots = chart.find_elements(By.CSS_SELECTOR, "circle")
        assert len(dots) == 3  # one dot per evening, drawn inside the chart (numbers not localised)
        assert all(chart.rect["x"] < d.rect["x"] < chart.rect["x"] + chart.rect["width"] for d in dots)
        assert len({round(d.rect["x"]) for d in dots}) == 3
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= width
    text = phone.find("main").text
    assert "Turniere" in text and "Wertung" in text and "Platzierung" in text
    phone.screenshot("player-phone")
