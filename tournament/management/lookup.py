"""The tournament a management command names: by its short name, or by one it had before, as
the web addresses find it (tournaments/access.py redirects those)."""

from django.core.management.base import CommandError

from ..tournaments.models import OldSlug, Tournament
from ..tournaments.organisations import Organisation


def tournament_named(slug: str, stderr=None) -> Tournament:
    """The tournament called ``slug`` now or before; a note on ``stderr`` when the name is an
    old one (the output itself stays as it would be under the new name)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is not None:
        return tournament
    renamed = OldSlug.renamed(slug)
    if renamed is None:
        raise CommandError(f"There is no tournament '{slug}'.")
    if stderr is not None:
        stderr.write(f"'{slug}' is now called '{renamed.slug}'.")
    return renamed


def organisation_named(slug: str | None) -> Organisation | None:
    """The organisation of ``--organisation`` (issue 29); without one None, which means the
    site's only organisation: a clear error where the site has several."""
    known = ", ".join(Organisation.objects.values_list("slug", flat=True)) or "none"
    if slug:
        organisation = Organisation.objects.filter(slug=slug).first()
        if organisation is None:
            raise CommandError(f"There is no organisation '{slug}' (known: {known}).")
        return organisation
    if Organisation.objects.count() > 1:
        raise CommandError(f"This site has several organisations: name one with --organisation ({known})")
    return None
