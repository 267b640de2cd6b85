"""The organiser asks for a whole match's scoresheets in a real browser: the downloads page
shows the job waiting, follows it by itself while the worker makes it, and offers the file
without a reload (issue 15)."""

import io

import pytest
from django.core.management import call_command

from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.printing import views as printing_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_downloads_page_follows_a_job_to_its_file(desk, played, organiser, monkeypatch):
    monkeypatch.setattr(printing_views, "AT_ONCE_SHEETS", {True: 1, False: 1})
    desk.login(organiser)
    desk.get(f"/manage/{played.slug}/")
    desk.find(f'a[href="/manage/{played.slug}/print/1/scoresheets.pdf"]').click()
    desk.wait_text(".messages", "wird im Hintergrund erstellt")
    job = Job.objects.get()
    row = desk.find(f"#job-{job.pk}")
    assert "Spiellisten mit Spielen, Durchgang 1" in row.text and "wartet" in row.text
    assert desk.find(f"#job-{job.pk} progress").is_displayed()
    desk.screenshot("downloads-waiting")

    call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO())

    # htmx asks again every 2 s: the link appears without the organiser reloading the page.
    desk.wait_text(f"#job-{job.pk}", f"{played.slug}-match1-filled.pdf", seconds=15)
    link = desk.find(f"#job-{job.pk} a")
    assert link.get_attribute("href").endswith(f"/downloads/{job.pk}/file")
    desk.screenshot("downloads-ready")
    # The nav leads here from every organiser page.
    desk.get(f"/manage/{played.slug}/participants/")
    desk.find(f'nav a[href="/manage/{played.slug}/downloads/"]').click()
    desk.wait_text(f"#job-{job.pk}", "match1-filled.pdf")


def test_a_waiting_job_is_cancelled_with_its_button(desk, played, organiser):
    job = runner.start(played, Job.Kind.RANKINGS, "Rangliste", user=organiser)
    desk.login(organiser)
    desk.get(f"/manage/{played.slug}/downloads/")
    desk.find(f"#job-{job.pk} button").click()
    desk.wait_text(".messages", "„Rangliste“ wurde abgebrochen.")
    assert "abgebrochen" in desk.find(f"#job-{job.pk}").text
    assert Job.objects.get(pk=job.pk).status == "cancelled"
    desk.screenshot("downloads-cancelled")
