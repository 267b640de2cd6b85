"""pages: the public standings page of the large and the small tournament, measured in a fresh
process (``manage.py bench --pages``) as a server process would serve it."""

import json
import os
import statistics
import subprocess
import sys
import time

from django.core.management.base import CommandError
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from ..models import Tournament
from ..tournaments.audit import raise_results_version
from .figures import median_seconds


def standings_pages(slugs: dict[int, str], runs: int) -> list[tuple[str, str, str]]:
    # Measured in a fresh process, as a server process would serve the page.
    measured = json.loads(
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "bench",
                "--pages",
                slugs[16],
                slugs[2000],
                "--runs",
                str(runs),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        ).stdout
    )
    small, large = measured[slugs[16]], measured[slugs[2000]]
    return [
        (
            "standings page, 2,000 participants, 48,000 games",
            f"{large['warm'] * 1000:.0f} ms, {large['queries']} queries",
            "≤ 150 ms, ≤ 12 queries",
        ),
        ("  the same, first request after a write", f"{large['cold'] * 1000:.0f} ms", "≤ 150 ms"),
        (
            "standings page, 16 participants",
            f"{small['warm'] * 1000:.0f} ms, {small['queries']} queries",
            "≤ 12 queries",
        ),
        ("standings page, 2,000 vs 16 participants", f"{large['warm'] / small['warm']:.1f} ×", "≤ 3 ×"),
    ]


def pages(slugs: list[str], runs: int) -> dict:
    """Time the public standings page of each tournament: warm (standings kept for the
    current results) and cold (the first request after a write), with its queries."""
    client = Client(HTTP_HOST="localhost")
    result = {}
    for slug in slugs:
        url = reverse("public:standings", args=[slug])
        tournament = Tournament.objects.get(slug=slug)
        page = client.get(url)
        if page.status_code != 200 or b'id="standings"' not in page.content:
            raise CommandError(f"the standings page of {slug} answered {page.status_code}")
        counted = []

        def count(execute, sql, params, many, context, counted=counted):
            counted.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url)
        warm, _result = median_seconds(lambda u=url: client.get(u), runs)

        def cold(t=tournament, u=url):
            # A result written, and no page younger than it kept: computed and drawn afresh.
            with override_settings(STANDINGS_FRESH_SECONDS=0):
                raise_results_version(t)
                start = time.perf_counter()
                client.get(u)
                return time.perf_counter() - start

        result[slug] = {
            "warm": warm,
            "queries": len(counted),
            "cold": statistics.median(cold() for _run in range(runs)),
        }
    return result
