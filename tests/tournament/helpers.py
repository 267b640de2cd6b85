"""Helpers of the tournament tests that several modules share."""

from __future__ import annotations

from contextlib import contextmanager

from tournament.tournaments.audit import raise_results_version
from tournament.tournaments.models import Tournament


def results_version(tournament: Tournament) -> int:
    """The tournament's results version as the database has it now."""
    return Tournament.objects.values_list("results_version", flat=True).get(pk=tournament.pk)


@contextmanager
def results_moved(tournament: Tournament, moved: bool = True):
    """Asserts that what runs inside raises the tournament's results version (or, ``moved``
    False, leaves it as it was): every cache of the standings follows that version."""
    before = results_version(tournament)
    yield
    after = results_version(tournament)
    if moved:
        assert after > before, "the write left the results version as it was: cached standings stay stale"
    else:
        assert after == before, f"the results version moved from {before} to {after}"


def written_around_the_services(tournament: Tournament) -> None:
    """A test that changed rows directly (not through a service, which records the write) tells
    the caches, as the record of a write would."""
    raise_results_version(tournament)
