"""table-entry: the hall server while every table's phone enters its games and every player looks
at the standings; then the database checked against what the server confirmed."""

import asyncio
import dataclasses
import datetime
import random
from collections import Counter

from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Count

from scoring import Game, Result
from scoring.notation import format_game
from scoring.outcome import score_entry

from ..demo.generator import add_participants, random_entry
from ..draw import services as draw_service
from ..i18n import stored_text
from ..models import Approval, GameEntry, LogEntry, PhoneReceipt, Scoresheet, StaffRole, Tournament
from ..results.store import to_engine
from ..tournaments.permissions import COMMAND_LINE
from ..tournaments.services import create_tournament
from . import phone_bytes
from .figures import by_tens, percentile
from .load import GRACE_SECONDS, TableRun, table_phones
from .machine import machine_speed
from .server import hall_server


def phone_games(rules, rng: random.Random) -> tuple[list[str], dict[int, str]]:
    """The games of one table as its phone sends them (the taps say won or lost, Schneider,
    Schwarz: no card points), valid under the rules, and the games the supervisor approves
    beforehand (a Tout, a Sie, a late Solo or Wenz: without the approval it would be struck)."""
    notations: list[str] = []
    approved: dict[int, str] = {}
    scored: list = []
    for number in range(1, rules.games_per_match + 1):
        game = random_entry(number, rng)
        while not isinstance(game, Game):  # a sanction is the supervisor's, never the phone's
            game = random_entry(number, rng)
        if game.declarer_points is not None:
            points = game.declarer_points
            game = dataclasses.replace(
                game,
                declarer_points=None,
                result=Result.WON if points > 60 else Result.LOST,
                schneider=not game.schwarz and not 30 < points < 91,
            )
        result = score_entry(game, rules, scored)
        if result.needs_approval:
            approved[number] = game.contract.value
            game = dataclasses.replace(game, approved=True)
            result = score_entry(game, rules, scored)
        if result.problems or result.struck:
            raise CommandError(f"generated game {number} is not valid: {result.problems}")
        scored.append(result)
        notations.append(format_game(game))
    return notations, approved


def table_tournament(slug: str, tables: int) -> tuple[Tournament, list[tuple[str, list[str]]]]:
    """``tables`` × 4 participants with match 1 drawn and its sheets empty, the games each
    table's phone will send, and the approvals those games need, given beforehand."""
    Tournament.objects.filter(slug=slug).delete()
    tournament = create_tournament(
        COMMAND_LINE, name="Table entry", slug=slug, date=datetime.date(2026, 11, 21)
    )
    rng = random.Random(slug)
    add_participants(tournament, tables * 4, rng)
    match = draw_service.draw_one(COMMAND_LINE, tournament, 1, seed="table-entry")
    rules = tournament.rules
    supervisor = stored_text(StaffRole.Role.SUPERVISOR.label)
    plans, approvals = [], []
    for sheet in Scoresheet.objects.filter(match=match).order_by("table__number"):
        notations, approved = phone_games(rules, rng)
        plans.append((sheet.code, notations))
        approvals += [
            Approval(scoresheet=sheet, number=n, contract=c, approved_by_name=supervisor)
            for n, c in approved.items()
        ]
    Approval.objects.bulk_create(approvals)
    return tournament, plans


def table_entry(tables: int, players: int, seconds: int, warm: int) -> list[tuple[str, str, str]]:
    """The hall server while every table's phone enters its games and every player looks at
    the standings every 30 s; then, with the server stopped, the database is checked
    against what the server confirmed. Before that, on the idle server, the bytes of a
    phone's first load and of one later game (the last of a sheet, in a small tournament
    of its own, so that every table of the large one has its whole match ahead)."""
    _small, (sample, *_others) = table_tournament("bench-table-bytes", 2)
    tournament, plans = table_tournament("bench-table-entry", tables)
    with hall_server(f"/t/{tournament.slug}/standings/") as base:
        first_empty = phone_bytes.first_load(base, plans[-1][0])  # as the table sits down
        later_game, first_full = phone_bytes.later_game(base, *sample)
        speed_before = machine_speed()
        run = asyncio.run(table_phones(base, [(tournament.slug, plans, players)], seconds, warm))
        speed_after = machine_speed()
    lost, duplicated, unconfirmed = table_checks([tournament.matches.get(number=1)], run)
    errors = sum(run.errors.values())
    p50, p95, p99 = entry_latencies(run)
    rate = run.entries / seconds
    database = "postgresql" if connection.vendor == "postgresql" else connection.vendor
    return [
        (
            "table-entry",
            f"{database} {tables} tables {seconds} s, {run.entries:,} entries, {rate:.1f}/s, "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms, lost {lost}, "
            f"duplicated {duplicated}, errors {errors}",
            "≥ 50/s, p95 ≤ 150 ms, lost 0, duplicated 0, errors 0",
        ),
        (
            f"  entries per second ({tables} phones, {players:,} players reading)",
            f"{rate:.1f}/s",
            "≥ 50/s",
        ),
        ("  entry latency p95 (p50, p99)", f"{p95:.0f} ms ({p50:.0f} ms, {p99:.0f} ms)", "≤ 150 ms"),
        ("  entry latency p95 by 10 s of the run", by_tens(run.entry_log, seconds), "—"),
        (
            "  the machine's speed: 10 M Python additions, before and after the run",
            f"{speed_before:.2f} s, {speed_after:.2f} s (0.4 s when this machine is at its fastest)",
            "—",
        ),
        lost_row(run, lost, duplicated, unconfirmed),
        errors_row(run),
        meanwhile_row(run),
        (
            "  phone page, first load (HTML + CSS + JS, gzip)",
            f"{first_full / 1000:.1f} KB with 32 games, {first_empty / 1000:.1f} KB empty",
            "≤ 60 KB",
        ),
        ("  one later game (request + answer, gzip)", f"{later_game / 1000:.1f} KB", "≤ 5 KB"),
    ]


def entry_latencies(run: TableRun) -> tuple[float, float, float]:
    """p50, p95 and p99 of the games' answer times, in ms."""
    times = sorted(run.entry_times)
    p50, p95, p99 = (percentile(times, share) for share in (0.50, 0.95, 0.99))
    return p50, p95, p99


# The report's rows every run of table phones prints alike (table-entry and cluster).
def lost_row(run: TableRun, lost: int, duplicated: int, unconfirmed: int) -> tuple[str, str, str]:
    return (
        "  lost, duplicated games",
        f"{lost}, {duplicated} ({run.resent} resent with the same key, {unconfirmed} stored unconfirmed)",
        "0, 0",
    )


def errors_row(run: TableRun) -> tuple[str, str, str]:
    errors = sum(run.errors.values())
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(run.errors.items()) if count)
    reasons = ", ".join(
        [f"{run.cut_off:,} unanswered {GRACE_SECONDS} s after the end"]
        + [f"{count:,} {why}" for why, count in run.why.most_common()]
    )
    return (
        "  errors: non-2xx, no answer, refused (whole run)",
        f"{errors} of {sum(run.requests.values()):,} requests" + (f" ({kinds}; {reasons})" if kinds else ""),
        "0",
    )


def meanwhile_row(run: TableRun) -> tuple[str, str, str]:
    polls, reads = sorted(run.poll_times), sorted(run.read_times)
    return (
        "  meanwhile: standings p95, table polls p95",
        f"{percentile(reads, 0.95):.0f} ms ({len(reads):,}), "
        f"{percentile(polls, 0.95):.0f} ms ({len(polls):,})",
        "—",
    )


def table_checks(matches: list, run: TableRun) -> tuple[int, int, int]:
    """Lost: a game the server confirmed that the database does not hold as sent, or holds
    without the receipt of its key (a resend would be carried out again). Duplicated: a
    stored game no phone sent, a game stored twice, a key kept twice, or a resend carried
    out again instead of answered from its receipt. Unconfirmed: stored, but its answer
    never reached the phone (a resend would get it)."""
    rules = {match.pk: match.tournament.rules for match in matches}
    entries = GameEntry.objects.filter(scoresheet__match__in=matches).select_related("scoresheet")
    stored = {
        (sheet.code, entry.number): format_game(to_engine(entry, {}, rules[sheet.match_id]))
        for entry in entries
        if (sheet := entry.scoresheet)
    }
    keys = PhoneReceipt.objects.filter(scoresheet__match__in=matches).values_list("key", flat=True)
    receipts = Counter(keys)
    lost = sum(
        1
        for place, (notation, key) in run.confirmed.items()
        if stored.get(place) != notation or key not in receipts
    )
    twice = (
        LogEntry.objects.filter(scoresheet__match__in=matches, action="entry.create")
        .values("scoresheet", "game")
        .annotate(times=Count("id"))
        .filter(times__gt=1)
    )
    duplicated = (
        len(set(stored) - set(run.sent))
        + sum(t["times"] - 1 for t in twice)
        + sum(times - 1 for times in receipts.values())
        + run.not_repeated
    )
    return lost, duplicated, len(set(stored) - set(run.confirmed))
