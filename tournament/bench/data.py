"""The tournaments the parts measure: a bare one with its participants, and the large generated
one (2,000 participants, 48,000 games) with a small one beside it, made once for every part."""

import datetime
import io
import time

from django.core.management import call_command
from django.utils.translation import gettext as _

from ..models import Participant, Tournament
from ..tournaments.permissions import COMMAND_LINE
from ..tournaments.services import create_tournament


def bare_tournament(slug: str, players: int, matches: int) -> Tournament:
    Tournament.objects.filter(slug=slug).delete()
    tournament = create_tournament(
        COMMAND_LINE,
        name=slug,
        slug=slug,
        date=datetime.date(2026, 11, 21),
        rule_overrides={"matches": matches},
    )
    Participant.objects.bulk_create(
        Participant(tournament=tournament, number=n, name=f"{_('Participant %(n)s') % {'n': n}}")
        for n in range(1, players + 1)
    )
    return tournament


def generated(rows: list) -> dict[int, str]:
    """2,000 participants, 3 matches of 32 games (48,000 games), and 16 participants: made
    once for every part that needs them."""
    slugs = {}
    for players in (16, 2000):
        slug = f"results-{players}"
        if not Tournament.objects.filter(slug=slug).exists():
            start = time.perf_counter()
            call_command(
                "generate_tournament",
                players=players,
                matches=3,
                slug=slug,
                seed=str(players),
                results=True,
                stdout=io.StringIO(),
            )
            if players == 2000:
                rows.append(
                    (
                        "generator, 2,000 × 3 × 32 with results",
                        f"{time.perf_counter() - start:.1f} s",
                        "≤ 60 s",
                    )
                )
        slugs[players] = slug
    return slugs
