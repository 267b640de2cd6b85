"""python manage.py verify SLUG: every stored total from its games, every signed sheet against
its digest and its seal, the tournament's chain of seals; each difference by match and table,
and a non-zero exit on any. Sheets signed before seals are listed as "old digest only"; seals
made with another key than this server's (a restored backup) are checked with their own key and
named."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...results.verify import Finding, verify_tournament
from ...sealkey import spaced
from ..lookup import tournament_named


class Command(BaseCommand):
    help = (
        "Recompute every signed scoresheet's digest and every stored seat total from the games, "
        "check every seal's signature and chain; print each difference by match and table and "
        "exit non-zero on any."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, slug, **options):
        tournament = tournament_named(slug, self.stderr)
        report = verify_tournament(tournament)
        current = {m.number: m.draw for m in tournament.matches.all()}
        for finding in report.findings:
            self.stdout.write(self.place(finding, current))
        for finding in report.old:
            self.stdout.write(self.place(finding, current))
        for key, seals in report.foreign_keys.items():
            self.stdout.write(
                _(
                    "Seals %(seals)s were made with the key %(key)s, not this server's key %(ours)s "
                    "(a restored backup or an import): their signatures were checked with it; "
                    "compare it with the key the original server published."
                )
                % {"seals": _ranges(seals), "key": spaced(key), "ours": spaced(report.server_key)}
            )
        summary = _(
            "%(name)s: %(checked)s scoresheets checked, %(signed)s of them signed, %(sealed)s seals"
        ) % {
            "name": tournament.name,
            "checked": report.checked,
            "signed": report.signed,
            "sealed": report.sealed,
        }
        found = report.findings
        if found:
            raise CommandError(
                ngettext(
                    "%(summary)s: %(count)s difference.", "%(summary)s: %(count)s differences.", len(found)
                )
                % {"summary": summary, "count": len(found)}
            )
        self.stdout.write(_("%(summary)s: everything holds.") % {"summary": summary})

    def place(self, finding: Finding, current: dict[int, int]) -> str:
        values = {"match": finding.match, "table": finding.table, "draw": finding.draw, "text": finding.text}
        if current.get(finding.match) == finding.draw:
            return _("Match %(match)s, table %(table)s: %(text)s") % values
        return _("Match %(match)s, discarded draw %(draw)s, table %(table)s: %(text)s") % values


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5"."""
    parts: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}–{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(parts)
