"""python manage.py verify SLUG: every stored total from its games, every signed sheet against
its digest; each difference by match and table, and a non-zero exit on any."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...results.verify import verify_tournament
from ..lookup import tournament_named


class Command(BaseCommand):
    help = (
        "Recompute every signed scoresheet's digest and every stored seat total from the games; "
        "print each difference by match and table and exit non-zero on any."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, slug, **options):
        tournament = tournament_named(slug, self.stderr)
        checked, signed, found = verify_tournament(tournament)
        current = {m.number: m.draw for m in tournament.matches.all()}
        for finding in found:
            values = {
                "match": finding.match,
                "table": finding.table,
                "draw": finding.draw,
                "text": finding.text,
            }
            if current.get(finding.match) == finding.draw:
                self.stdout.write(_("Match %(match)s, table %(table)s: %(text)s") % values)
            else:
                self.stdout.write(
                    _("Match %(match)s, discarded draw %(draw)s, table %(table)s: %(text)s") % values
                )
        summary = _("%(name)s: %(checked)s scoresheets checked, %(signed)s of them signed") % {
            "name": tournament.name,
            "checked": checked,
            "signed": signed,
        }
        if found:
            raise CommandError(
                ngettext(
                    "%(summary)s: %(count)s difference.", "%(summary)s: %(count)s differences.", len(found)
                )
                % {"summary": summary, "count": len(found)}
            )
        self.stdout.write(_("%(summary)s: everything holds.") % {"summary": summary})
