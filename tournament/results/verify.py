"""Checking that what is stored is what was entered and signed (5.3.2, 5.3.5).

Every sheet: each entry's stored points and marks are what the rules engine gives for it, and
each seat's stored points and tie-break counts (which the standings add up) are the sum of the
entries. Every signed sheet besides: its players are those who signed, its content gives the
digest it was sealed with, and its seal is signed with the key it names and follows the seal
before it in the tournament's chain (issue 27; results/seals.py); the links a later seal of the
same sheet superseded are checked too. A sheet signed before seals existed keeps its digest only
and is reported as such. Nothing here writes; a difference is reported, by match and table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ..sealkey import public_key
from ..tournaments.models import Tournament
from .document import sheet_digest
from .load import LoadedSheet, load_sheets
from .models import Scoresheet
from .seals import Chain, chain_problems, keys_used, old_digest_only, sheet_seal_problems
from .store import TALLY_FIELDS, scored_fields


@dataclass(frozen=True)
class Finding:
    match: int
    draw: int
    table: int
    text: str


def check(read: LoadedSheet, chain: Chain | None = None) -> list[str]:
    """What differs on one sheet (as ``load_sheets`` read it, signatures included), its seal
    checked against ``chain`` (its tournament's, read here when not given); an empty list when
    everything holds."""
    sheet = read.sheet
    rules = sheet.match.tournament.rules
    seats = read.seats
    view = read.view(rules)
    found = []
    for game in view.entered:
        stored = {key: getattr(game.entry, key) for key in scored_fields(game.row.scored)}
        if stored != scored_fields(game.row.scored):
            found.append(
                _("Game %(game)s: the stored points %(stored)s are not what the game gives, %(computed)s.")
                % {
                    "game": game.number,
                    "stored": "/".join(str(p) for p in game.entry.points),
                    "computed": "/".join(str(p) for p in game.points),
                }
            )
    for seat in seats:
        position = seat.position - 1
        expected = [view.totals[position], *(getattr(view.score.tallies[position], f) for f in TALLY_FIELDS)]
        stored = [seat.points, *(getattr(seat, f) for f in TALLY_FIELDS)]
        if stored != expected:
            found.append(
                _("Seat %(seat)s: the standings count %(stored)s, the games give %(computed)s.")
                % {"seat": seat.position, "stored": stored[0], "computed": expected[0]}
                if stored[0] != expected[0]
                else _("Seat %(seat)s: the tie-break counts stored differ from the games.")
                % {"seat": seat.position}
            )
    if sheet.digest:
        if sheet.signed_as and [s["number"] for s in sheet.signed_as["seats"]] != [
            seat.participant.number for seat in sorted(seats, key=lambda seat: seat.position)
        ]:
            found.append(_("The players on the seats are not those who signed."))
        recomputed = sheet_digest(sheet, rules)
        if recomputed != sheet.digest:
            found.append(_("The content differs from what was signed: it does not give the digest."))
        chain = chain if chain is not None else Chain.of(sheet.match.tournament_id)
        found += sheet_seal_problems(sheet, recomputed, chain)
    return found


def findings(sheets: Iterable[Scoresheet], chains: dict[int, Chain] | None = None) -> list[Finding]:
    result = []
    chains = {} if chains is None else chains
    for read in load_sheets(sheets):
        sheet = read.sheet
        tournament = sheet.match.tournament_id
        if tournament not in chains:
            chains[tournament] = Chain.of(tournament)
        for text in check(read, chains[tournament]):
            result.append(Finding(sheet.match.number, sheet.match.draw, sheet.table.number, text))
    return result


@dataclass
class Report:
    """What ``verify`` found in a tournament."""

    checked: int  # scoresheets
    signed: int  # of them signed
    findings: list[Finding]
    sealed: int = 0  # seals in the chain
    old: list[Finding] = field(default_factory=list)  # signed before seals: the old digest only
    keys: dict[str, list[int]] = field(default_factory=dict)  # public key → its seals
    server_key: str = ""  # this server's

    def __iter__(self):
        """(checked, signed, findings), as verify_tournament answered before the seals."""
        return iter((self.checked, self.signed, self.findings))

    def __getitem__(self, index: int):
        return (self.checked, self.signed, self.findings)[index]

    @property
    def foreign_keys(self) -> dict[str, list[int]]:
        """The keys of seals made elsewhere (a restored backup, an import): checked with the key
        recorded with them, which should be the one the original server published."""
        return {key: seals for key, seals in self.keys.items() if key != self.server_key}


def verify_tournament(tournament: Tournament) -> Report:
    """Every draw of the tournament, and its whole chain of seals."""
    sheets = list(
        Scoresheet.objects.filter(match__tournament=tournament)
        .select_related("match", "table")
        .order_by("match__number", "match__draw", "table__number")
    )
    chain = Chain.of(tournament.pk)
    found = findings(sheets, {tournament.pk: chain})
    for link, text in chain_problems(chain):
        found.append(Finding(link.match, link.draw, link.table, text))
    return Report(
        checked=len(sheets),
        signed=sum(1 for sheet in sheets if sheet.digest),
        findings=found,
        sealed=len(chain.links),
        old=[
            Finding(s.match.number, s.match.draw, s.table.number, _("old digest only (signed before seals)"))
            for s in sheets
            if old_digest_only(s, chain)
        ],
        keys=keys_used(chain.links),
        server_key=public_key(),
    )
