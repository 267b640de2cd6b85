"""Plausible tournaments for tests, demos and benchmarks: Bavarian names, and scoresheets filled
with valid random games in realistic proportions, written in bulk.

Every game is played through the rules engine, so the result is valid under the rules: every
sheet complete, every checksum zero, approvals present where needed except now and then (those
games are struck, as they would be). At a table of five the dealer sits out the game he dealt:
he is never declarer, partner or liable, and the match has ``games_for(5)`` games (tables of
five, README readings)."""

from __future__ import annotations

import random
from dataclasses import replace

from scoring import Contract, Game, Result, Sanction, Suit
from scoring.cards import CALLABLE_ACES
from scoring.entries import playing
from scoring.outcome import score_entry

from ..i18n import stored_text
from ..participants.models import Participant
from ..results import services as sheet_service
from ..results.models import Scoresheet
from ..tournaments.models import StaffRole, Tournament

FIRST_NAMES = (
    "Sepp",
    "Resi",
    "Toni",
    "Vroni",
    "Xaver",
    "Kathi",
    "Wastl",
    "Burgi",
    "Hias",
    "Zenzi",
    "Schorsch",
    "Leni",
    "Girgl",
    "Fanny",
    "Beni",
    "Rosi",
    "Lugge",
    "Traudl",
    "Maxl",
    "Liesl",
    "Korbinian",
    "Monika",
    "Florian",
    "Agathe",
    "Quirin",
    "Walburga",
    "Michl",
    "Gretl",
)
LAST_NAMES = (
    "Huber",
    "Maier",
    "Bauer",
    "Gruber",
    "Hofer",
    "Wimmer",
    "Brandl",
    "Aigner",
    "Obermeier",
    "Kellner",
    "Zwickl",
    "Lechner",
    "Stangl",
    "Pichler",
    "Riedl",
    "Schmid",
    "Wagner",
    "Moser",
    "Steiner",
    "Forster",
    "Hintermaier",
    "Kronseder",
    "Weißgerber",
    "Lindinger",
    "Ostermeier",
)
CLUBS = (
    "SK Moosach",
    "Schafkopffreunde Dachau",
    "Sauspiel Erding",
    "Wenz-Club Freising",
    "Trumpf Ober Landshut",
    "Die Unter Rosenheim",
    "",
)


def names(count: int, rng: random.Random) -> list[tuple[str, str]]:
    """(name, club) pairs, "Surname, First name" as on a tournament list, no name twice; a
    large field gets second first names, as real lists do."""
    combos = [f"{last}, {first}" for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(combos)
    while len(combos) < count:
        combos += [
            f"{name} {rng.choice([f for f in FIRST_NAMES if not name.endswith(f)])}"
            for name in combos[: count - len(combos)]
        ]
        combos = list(dict.fromkeys(combos))
    return [(name, rng.choice(CLUBS)) for name in combos[:count]]


def add_participants(tournament: Tournament, count: int, rng: random.Random) -> None:
    Participant.objects.bulk_create(
        Participant(tournament=tournament, number=n, name=name, club=club)
        for n, (name, club) in enumerate(names(count, rng), start=1)
    )


def random_entry(number: int, rng: random.Random, seats: int = 4):
    """One game as tables play them: mostly Sauspiel, some Solo and Wenz, rare Touts and Sie,
    a few sanctions; at a table of ``seats``, among the four who play game ``number``."""
    players = playing(number, seats)

    def _seat(*others: int) -> int:
        return rng.choice([s for s in players if s not in others])

    roll = rng.random()
    declarer = _seat()
    if roll < 0.01:
        contract = rng.choice([Contract.RUFER, Contract.SOLO, Contract.WENZ, Contract.SOLO_TOUT])
        partner = _seat(declarer) if contract is Contract.RUFER else None
        return Sanction(number, contract, declarer, _seat(), partner)
    if roll < 0.012 and number > 1:
        return Game(number, Contract.SIE, declarer)
    if roll < 0.03:
        contract = rng.choice([Contract.SOLO_TOUT, Contract.WENZ_TOUT])
        suit = rng.choice(list(Suit)) if contract is Contract.SOLO_TOUT else None
        result = Result.WON if rng.random() < 0.7 else Result.LOST
        return Game(number, contract, declarer, suit=suit, result=result)
    if roll < 0.25:
        contract = rng.choice([Contract.SOLO, Contract.SOLO, Contract.WENZ])
        suit = rng.choice(list(Suit)) if contract is Contract.SOLO else None
        points = min(120, max(0, int(rng.gauss(68, 22))))
        return Game(
            number,
            contract,
            declarer,
            suit=suit,
            declarer_points=points,
            schwarz=points in (0, 120) and rng.random() < 0.5,
        )
    partner = _seat(declarer)
    points = min(120, max(0, int(rng.gauss(64, 20))))
    return Game(
        number,
        Contract.RUFER,
        declarer,
        suit=rng.choice(CALLABLE_ACES),
        partner=partner,
        declarer_points=points,
        schwarz=points in (0, 120) and rng.random() < 0.5,
    )


def play_sheet(rules, rng: random.Random, approve_rate: float = 0.95, seats: int = 4):
    """The games of one table of ``seats`` in one match, and the game numbers the supervisor
    approved."""
    entries, scored, approved = [], [], {}
    for number in range(1, rules.games_for(seats) + 1):
        entry = random_entry(number, rng, seats)
        result = score_entry(entry, rules, scored, seats)
        if result.needs_approval and rng.random() < approve_rate:
            entry = replace(entry, approved=True)
            approved[number] = entry.contract.value
            result = score_entry(entry, rules, scored, seats)
        entries.append(entry)
        scored.append(result)
    return entries, approved


def fill_results(user, tournament: Tournament, rng: random.Random, approve_rate: float = 0.95) -> int:
    """Fill every empty scoresheet of the drawn matches, through the scoresheet service.
    Returns the number of games."""
    sheets = (
        Scoresheet.objects.filter(
            match__tournament=tournament, match__discarded_at__isnull=True, entries__isnull=True
        )
        .select_related("table")
        .order_by("pk")
    )
    rules = tournament.rules
    played = [(sheet, *play_sheet(rules, rng, approve_rate, sheet.size)) for sheet in sheets]
    supervisor = stored_text(StaffRole.Role.SUPERVISOR.label)
    return sheet_service.fill_sheets(user, tournament, played, approved_by_name=supervisor)
