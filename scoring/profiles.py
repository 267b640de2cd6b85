"""Rule profiles (RULINGS 15): one typed declaration of every number a tournament may change.

A profile changes the numbers of the rulings, never their logic. It is read from and written to
the ``rules`` object of the exchange format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .problems import Code, Problem


@dataclass(frozen=True)
class PointTable:
    """Points per player (5.2.7, RULINGS 3).

    ``rufer``: each player at normal, Schneider, Schwarz. ``solo``: (declarer, each defender)
    at normal, Schneider, Schwarz. ``tout`` and ``sie``: (declarer, each defender)."""

    rufer: tuple[int, int, int] = (1, 2, 3)
    solo: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = ((6, 2), (9, 3), (12, 4))
    tout: tuple[int, int] = (18, 6)
    sie: tuple[int, int] = (24, 8)


@dataclass(frozen=True)
class SanctionTable:
    """Sanction points (3.4.17, RULINGS 9). ``rufer``: (liable, each opponent of the liable);
    ``solo`` and ``tout``: what the liable player loses."""

    rufer: tuple[int, int] = (4, 2)
    solo: int = 9
    tout: int = 18


MAX_POINT_VALUE = 1000  # far beyond any table seen (official Sie: 24); keeps totals in range


@dataclass(frozen=True)
class RuleProfile:
    name: str
    matches: int
    games_per_match: int
    solo_approval_from: int  # the n-th soloist game needs approval (5.2.16, RULINGS 7)
    min_age: int  # 5.2.12
    points: PointTable = field(default_factory=PointTable)
    sanctions: SanctionTable = field(default_factory=SanctionTable)
    # A field that does not fill tables of four seats some tables of five, where the dealer
    # sits out the game he dealt (tables of five, README readings).
    tables_of_five: bool = True

    def games_for(self, seats: int) -> int:
        """The games of a match at a table of ``seats``: at five each seat deals as often as at
        four, so every player plays ``games_per_match`` games (tables of five, README readings)."""
        if seats not in (4, 5):
            raise ValueError(f"a table has 4 or 5 seats, not {seats}")
        return self.games_per_match * seats // 4  # whole rounds: games_per_match % 4 == 0

    def problems(self) -> list[Problem]:
        """Every reason this profile cannot be used: numbers out of range, a table whose games
        would not sum to zero, a match that is not whole rounds."""
        found: list[Problem] = []

        def bad(name: str, value: Any, code: Code = Code.PROFILE_VALUE_INVALID) -> None:
            found.append(Problem(code, field=name, value=str(value)))

        if not 1 <= self.matches <= 20:
            bad("matches", self.matches)
        if not 4 <= self.games_per_match <= 96 or self.games_per_match % 4:
            bad("games_per_match", self.games_per_match)  # whole rounds: RULINGS 1, 11
        if not 1 <= self.solo_approval_from <= self.games_per_match + 1:
            bad("solo_approval_from", self.solo_approval_from)
        if not 0 <= self.min_age <= 120:
            bad("min_age", self.min_age)
        pts = self.points
        every_value = [
            *pts.rufer,
            *(v for pair in pts.solo for v in pair),
            *pts.tout,
            *pts.sie,
            *self.sanctions.rufer,
            self.sanctions.solo,
            self.sanctions.tout,
        ]
        if any(v > MAX_POINT_VALUE for v in every_value):
            bad("points", max(every_value))  # a game's points must fit what is stored
        if any(v <= 0 for v in pts.rufer) or list(pts.rufer) != sorted(set(pts.rufer)):
            bad("points.rufer", list(pts.rufer))
        for name, pair in [
            ("points.solo", pts.solo[0]),
            ("points.solo", pts.solo[1]),
            ("points.solo", pts.solo[2]),
            ("points.tout", pts.tout),
            ("points.sie", pts.sie),
        ]:
            declarer, defender = pair
            if declarer <= 0 or defender <= 0:
                bad(name, list(pair))
            elif declarer != 3 * defender:  # RULINGS 3: every game sums to zero
                bad(name, list(pair), Code.PROFILE_NOT_ZERO_SUM)
        if [d for d, _ in pts.solo] != sorted({d for d, _ in pts.solo}):
            bad("points.solo", [list(p) for p in pts.solo])
        liable, opponent = self.sanctions.rufer
        if liable <= 0 or opponent <= 0:
            bad("sanctions.rufer", [liable, opponent])
        elif liable != 2 * opponent:  # RULINGS 9: liable pays both opponents
            bad("sanctions.rufer", [liable, opponent], Code.PROFILE_NOT_ZERO_SUM)
        for name, value in (("sanctions.solo", self.sanctions.solo), ("sanctions.tout", self.sanctions.tout)):
            if value <= 0:
                bad(name, value)
            elif value % 3:  # a liable declarer pays each of three defenders
                bad(name, value, Code.PROFILE_NOT_ZERO_SUM)
        return found

    # Exchange format (EXCHANGE.md, ``tournament.rules``)
    def to_exchange(self) -> dict[str, Any]:
        return {
            "profile": self.name,
            "matches": self.matches,
            "games_per_match": self.games_per_match,
            "solo_approval_from": self.solo_approval_from,
            "min_age": self.min_age,
            "tables_of_five": self.tables_of_five,
            "points": {
                "rufer": list(self.points.rufer),
                "solo": [list(pair) for pair in self.points.solo],
                "tout": list(self.points.tout),
                "sie": list(self.points.sie),
            },
            "sanctions": {
                "rufer": list(self.sanctions.rufer),
                "solo": self.sanctions.solo,
                "tout": self.sanctions.tout,
            },
        }

    def overrides(self) -> dict[str, Any]:
        """What this profile changes against the named base profile, in exchange form."""
        base = PROFILES[self.name].to_exchange()
        mine = self.to_exchange()
        changed: dict[str, Any] = {}
        for key, value in mine.items():
            if key == "profile":
                continue
            if isinstance(value, dict):
                inner = {k: v for k, v in value.items() if base[key].get(k) != v}
                if inner:
                    changed[key] = inner
            elif base[key] != value:
                changed[key] = value
        return changed


SCHAFKOPFSCHULE_2007 = RuleProfile(
    name="schafkopfschule-2007",
    matches=2,
    games_per_match=32,  # 5.2.1
    solo_approval_from=5,  # 5.2.16
    min_age=16,  # 5.2.12
)

TURNIERREGELN_3X16 = RuleProfile(
    name="turnierregeln-3x16",
    matches=3,
    games_per_match=16,
    solo_approval_from=5,
    min_age=16,
)

PROFILES: dict[str, RuleProfile] = {
    profile.name: profile for profile in (SCHAFKOPFSCHULE_2007, TURNIERREGELN_3X16)
}
DEFAULT_PROFILE = SCHAFKOPFSCHULE_2007
CUSTOM = "custom"


class ProfileError(ValueError):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(", ".join(f"{p.code}:{p.field}" for p in problems))
        self.problems = problems


def _int(value: Any, name: str, found: list[Problem]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        found.append(Problem(Code.PROFILE_VALUE_INVALID, field=name, value=str(value)))
        return None
    return value


def _bool(value: Any, name: str, found: list[Problem]) -> bool | None:
    if not isinstance(value, bool):
        found.append(Problem(Code.PROFILE_VALUE_INVALID, field=name, value=str(value)))
        return None
    return value


def _ints(value: Any, length: int, name: str, found: list[Problem]) -> tuple[int, ...] | None:
    if not isinstance(value, list | tuple) or len(value) != length:
        found.append(Problem(Code.PROFILE_VALUE_INVALID, field=name, value=str(value)))
        return None
    numbers = [_int(v, name, found) for v in value]
    return None if None in numbers else tuple(numbers)  # type: ignore[arg-type]


def _mapping(overrides: Mapping[str, Any], name: str, found: list[Problem]) -> Mapping[str, Any]:
    value = overrides.get(name) or {}
    if not isinstance(value, Mapping):
        found.append(Problem(Code.PROFILE_VALUE_INVALID, field=name, value=str(value)))
        return {}
    return value


def build_profile(name: str | None = None, overrides: Mapping[str, Any] | None = None) -> RuleProfile:
    """The named profile (default: the official one) with the given overrides, which have the
    shape of the exchange format's ``rules`` object. Raises ProfileError listing every problem."""
    name = name or DEFAULT_PROFILE.name
    if not isinstance(name, str) or name not in PROFILES:
        raise ProfileError([Problem(Code.UNKNOWN_PROFILE, field="profile", value=str(name))])
    profile = PROFILES[name]
    overrides = overrides or {}
    found: list[Problem] = []
    top: dict[str, Any] = {}
    for key in ("matches", "games_per_match", "solo_approval_from", "min_age"):
        if key in overrides:
            top[key] = _int(overrides[key], key, found)
    if "tables_of_five" in overrides:
        top["tables_of_five"] = _bool(overrides["tables_of_five"], "tables_of_five", found)
    points = profile.points
    given_points = _mapping(overrides, "points", found)
    point_changes: dict[str, Any] = {}
    if "rufer" in given_points:
        point_changes["rufer"] = _ints(given_points["rufer"], 3, "points.rufer", found)
    if "solo" in given_points:
        levels = given_points["solo"]
        if not isinstance(levels, list | tuple) or len(levels) != 3:
            found.append(Problem(Code.PROFILE_VALUE_INVALID, field="points.solo", value=str(levels)))
        else:
            point_changes["solo"] = tuple(_ints(pair, 2, "points.solo", found) for pair in levels)
    for key in ("tout", "sie"):
        if key in given_points:
            point_changes[key] = _ints(given_points[key], 2, f"points.{key}", found)
    sanctions = profile.sanctions
    given_sanctions = _mapping(overrides, "sanctions", found)
    sanction_changes: dict[str, Any] = {}
    if "rufer" in given_sanctions:
        sanction_changes["rufer"] = _ints(given_sanctions["rufer"], 2, "sanctions.rufer", found)
    for key in ("solo", "tout"):
        if key in given_sanctions:
            sanction_changes[key] = _int(given_sanctions[key], f"sanctions.{key}", found)
    if found:
        raise ProfileError(found)
    result = replace(
        profile,
        points=replace(points, **point_changes),
        sanctions=replace(sanctions, **sanction_changes),
        **top,
    )
    problems = result.problems()
    if problems:
        raise ProfileError(problems)
    return result


def profile_from_exchange(rules: Mapping[str, Any] | None) -> RuleProfile:
    """Read the exchange format's ``rules`` object: a base profile plus whatever it states."""
    rules = rules or {}
    name = rules.get("profile")
    if name == CUSTOM:  # RULINGS 15: the official profile with the overrides given beside it
        name = DEFAULT_PROFILE.name
    return build_profile(name, {k: v for k, v in rules.items() if k != "profile"})
