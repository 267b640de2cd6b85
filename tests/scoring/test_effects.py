"""What a write did to the other games of a sheet (issue 26): the sheet scored before against
the sheet scored after, checked by hand on the walk's example (5.2.14, 5.2.16, 5.2.17)."""

from dataclasses import replace

from scoring import DEFAULT_PROFILE, score_sheet
from scoring.effects import Effect, changes
from tests.scoring.helpers import rufer, solo, solo_tout, wenz

P = DEFAULT_PROFILE  # the 5th Solo or Wenz of a match needs approval (5.2.16)


def walk(approved: bool = False, without: int | None = None):
    """Games 1, 3 and 4 Solos, game 2 a Gras-Tout (approved or not), game 5 a Sauspiel, game 6 a
    Wenz of seat 4: the walk's table."""
    entries = [
        solo(1, declarer=1),
        replace(solo_tout(2, declarer=2), approved=approved),
        solo(3, declarer=2),
        solo(4, declarer=3),
        rufer(5, declarer=2, partner=4),
        wenz(6, declarer=4),
    ]
    return score_sheet([e for e in entries if e.number != without], P)


def test_nothing_changed_is_no_change():
    assert changes(walk(), walk()) == ()


def test_the_tout_without_approval_is_struck_and_the_wenz_counts():
    sheet = walk()
    assert sheet.row(2).scored.struck and not sheet.row(6).scored.struck
    assert sheet.row(6).scored.points == (-2, -2, -2, 6)


def test_approving_the_tout_strikes_the_wenz_as_the_fifth_solo():
    found = changes(walk(), walk(approved=True))
    assert [change.number for change in found] == [2, 6]
    tout, wenz_6 = found
    assert tout.effect is Effect.COUNTS_AGAIN and tout.before.rule == "5.2.14" and tout.after.rule is None
    assert wenz_6.effect is Effect.STRUCK
    assert wenz_6.before.points == (-2, -2, -2, 6) and wenz_6.after.points == (0, 0, 0, 0)
    assert wenz_6.after.rule == "5.2.16" and wenz_6.after.nth_solo == 5
    assert wenz_6.before.nth_solo == 4 and not wenz_6.before.struck


def test_withdrawing_the_approval_restores_the_wenz():
    found = changes(walk(approved=True), walk())
    assert [(c.number, c.effect) for c in found] == [(2, Effect.STRUCK), (6, Effect.COUNTS_AGAIN)]
    assert found[0].after.rule == "5.2.14"
    assert found[1].after.points == (-2, -2, -2, 6) and found[1].before.rule == "5.2.16"


def test_deleting_an_earlier_solo_makes_the_wenz_count_again():
    found = changes(walk(approved=True), walk(approved=True, without=3))
    assert [(c.number, c.effect) for c in found] == [(3, Effect.DELETED), (6, Effect.COUNTS_AGAIN)]
    assert found[0].after is None and found[0].before.points == (-2, 6, -2, -2)
    assert found[1].after.nth_solo == 4


def test_entering_the_tout_approved_strikes_the_wenz():
    found = changes(walk(without=2), walk(approved=True))
    assert [(c.number, c.effect) for c in found] == [(2, Effect.ENTERED), (6, Effect.STRUCK)]
    assert found[0].before is None and found[0].after.points == (-6, 18, -6, -6)  # Tout: 18/6


def test_a_changed_game_with_other_points_is_a_points_change():
    before = score_sheet([rufer(1), rufer(2)], P)
    after = score_sheet([rufer(1), rufer(2, schneider=True)], P)
    (change,) = changes(before, after)
    assert change.number == 2 and change.effect is Effect.POINTS


def test_a_tout_in_game_one_is_downgraded():
    before = score_sheet([solo(1)], P)
    after = score_sheet([solo_tout(1, approved=True)], P)
    (change,) = changes(before, after)
    assert change.effect is Effect.DOWNGRADED and change.after.downgraded
