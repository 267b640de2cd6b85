"""Teams in the exchange document (issue 17): an added top-level field other readers ignore,

    "teams": [{"name": "SK Moosach I", "members": [3, 7, 12, 15]}]

each team by its name with its members' start numbers. Written when the tournament has teams,
checked with the rest of the document, restored on import.

A team that the latest team lot placed carries that lot (``TeamLotDraw``), an added field too:

    "lot": {"seed": "5f2a9c01", "rank": 3, "key": [-16, 0, 0, 0, 0, 0], "order": 2}

the lot's seed, the rank its tied group shared, the group's sums (points and the 5.4.2 counts)
and the team's place in the order the lot decided (1 first). Only the latest draw counts for
the standings, so only it is written; a group of it with a team deleted since can never tie
again as drawn and is left out, which ranks the teams the same."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..participants.models import Participant, Team
from ..participants.teams import MAX_NAME
from ..tournaments.models import Tournament
from .models import TeamLotDraw

MAX_KEY = 10  # the sums of a lot's group: points and the 5.4.2 counts
MAX_SUM = 2_147_483_647


def _written_lots(tournament: Tournament, teams: set[int]) -> dict[int, dict]:
    """Each team's place in the latest team lot, by team id."""
    lot = TeamLotDraw.objects.filter(tournament=tournament).first()
    placed: dict[int, dict] = {}
    for group in lot.groups if lot else []:
        if not set(group["members"]) <= teams:
            continue  # a team deleted since: the group never ties as drawn again
        for order, team_id in enumerate(group["members"], start=1):
            placed[team_id] = {"seed": lot.seed, "rank": group["rank"], "key": group["key"], "order": order}
    return placed


def written_teams(tournament: Tournament) -> list[dict]:
    members: dict[int, list[int]] = {}
    for team_id, number in (
        tournament.participants.filter(team__isnull=False).order_by("number").values_list("team_id", "number")
    ):
        members.setdefault(team_id, []).append(number)
    teams = list(Team.objects.filter(tournament=tournament).order_by("name").values_list("id", "name"))
    lots = _written_lots(tournament, {team_id for team_id, _name in teams})
    written = []
    for team_id, name in teams:
        team = {"name": name, "members": members.get(team_id, [])}
        if team_id in lots:
            team["lot"] = lots[team_id]
        written.append(team)
    return written


def _read_lot(reader, value: Any, where: str) -> dict | None:
    """One team's place in the lot, checked; None when it is wrong (the error is reported)."""
    item = reader.obj(value, where, "lot")
    if not isinstance(value, dict):
        return None
    seed = reader.text(item.get("seed"), where, _("The seed"), 64)
    key = item.get("key")
    if (
        not isinstance(key, list)
        or not 0 < len(key) <= MAX_KEY
        or any(isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_SUM for v in key)
    ):
        reader.error(where, _("the lot's key must be a list of whole numbers (the group's sums)."))
        return None
    rank = reader.integer(item.get("rank"), where, _("The rank"))
    order = reader.integer(item.get("order"), where, _("The place in the lot"))
    if not seed or not isinstance(rank, int) or not isinstance(order, int):
        return None
    return {"seed": seed, "rank": rank, "key": key, "order": order}


def _check_lots(reader, teams: list[dict]) -> None:
    """The teams' places in the lot make one draw: one seed, and in each group (rank and sums)
    the places 1 to n, n at least 2."""
    placed = [team for team in teams if "lot" in team]
    seeds = sorted({team["lot"]["seed"] for team in placed})
    if len(seeds) > 1:
        reader.error(
            _("Team lots"),
            _("the teams' lots give different seeds: %(seeds)s.") % {"seeds": ", ".join(seeds)},
        )
    groups: dict[tuple, list[dict]] = {}
    for team in placed:
        groups.setdefault((team["lot"]["rank"], tuple(team["lot"]["key"])), []).append(team)
    for (rank, _key), group in groups.items():
        orders = sorted(team["lot"]["order"] for team in group)
        if len(group) < 2 or orders != list(range(1, len(group) + 1)):
            reader.error(
                _("Team lots"),
                _("the lot of the teams tied on rank %(rank)s (%(names)s) must place them 1 to %(n)s.")
                % {"rank": rank, "names": ", ".join(team["name"] for team in group), "n": len(group)},
            )


def read_teams(reader, value: Any, numbers: set[int]) -> list[dict]:
    """The document's teams, every problem reported through ``reader`` (the exchange reader:
    ``error``, ``array``, ``obj``, ``text``) with the team's name; ``numbers`` are the
    document's start numbers."""
    teams: list[dict] = []
    names: dict[str, str] = {}
    placed: dict[int, str] = {}  # start number: its team
    for index, item in enumerate(reader.array(value, "", "teams")):
        item = reader.obj(item, _("Team %(n)s") % {"n": index + 1}, "team")
        name = reader.text(item.get("name"), _("Team %(n)s") % {"n": index + 1}, _("The name"), MAX_NAME)
        if not name:
            continue
        where = _("Team “%(name)s”") % {"name": name}
        if name.casefold() in names:
            reader.error(
                where,
                _("there is already a team of this name (“%(other)s”).") % {"other": names[name.casefold()]},
            )
            continue
        names[name.casefold()] = name
        members = []
        for number in reader.array(item.get("members"), where, "members"):
            if isinstance(number, bool) or not isinstance(number, int) or number not in numbers:
                shown = (
                    number if isinstance(number, int) and not isinstance(number, bool) else repr(number)[:40]
                )
                reader.error(where, _("start number %(n)s is not a participant.") % {"n": shown})
            elif number in placed:
                other = placed[number]
                reader.error(
                    where,
                    _("start number %(n)s is given twice in this team.") % {"n": number}
                    if other == name
                    else _("start number %(n)s is already in the team “%(other)s”.")
                    % {"n": number, "other": other},
                )
            else:
                placed[number] = name
                members.append(number)
        team = {"name": name, "members": members}
        if item.get("lot") is not None:
            lot = _read_lot(reader, item["lot"], where)
            if lot is not None:
                team["lot"] = lot
        teams.append(team)
    _check_lots(reader, teams)
    return teams


def restore_teams(tournament: Tournament, teams: list[dict], people: dict[int, Participant]) -> None:
    """The checked teams of an imported document, with their members (``people`` by number)."""
    created = Team.objects.bulk_create(Team(tournament=tournament, name=team["name"]) for team in teams)
    members = []
    for team, plan in zip(created, teams, strict=True):
        for number in plan["members"]:
            people[number].team = team
            members.append(people[number])
    Participant.objects.bulk_update(members, ["team"], batch_size=2000)
    groups: dict[tuple, list[tuple[int, int]]] = {}
    seed = ""
    for team, plan in zip(created, teams, strict=True):
        if "lot" in plan:
            lot = plan["lot"]
            seed = lot["seed"]
            groups.setdefault((lot["rank"], tuple(lot["key"])), []).append((lot["order"], team.pk))
    if groups:
        TeamLotDraw.objects.create(
            tournament=tournament,
            seed=seed,
            groups=[
                {"key": list(key), "rank": rank, "members": [team_id for _order, team_id in sorted(placed)]}
                for (rank, key), placed in sorted(groups.items())
            ],
        )
