"""The prize list as a worksheet of the Excel workbook (issue 17): who gets what, then the
money, or what the numbers contradict."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..tournaments.models import Tournament
from .services import prize_list


def prize_worksheets(tournament: Tournament) -> list[tuple[str, list, list]]:
    """The worksheet "Preisliste" when a prize list is declared, else none."""
    prizes = prize_list(tournament)
    if not prizes.declared:
        return []
    header = [_("Place"), _("No."), _("Name"), _("Amount (€)"), _("Goods"), _("Note")]
    rows: list[list] = []
    if prizes.ranked:
        for award in prizes.awards:
            note = ""
            if award.shared:
                notes = [
                    _("%(n)s tied on places %(first)s–%(last)s")
                    % {"n": award.tied, "first": award.first, "last": award.last}
                ]
                if award.amount:
                    notes.append(_("the cash shared equally"))
                if award.goods:
                    notes.append(_("the goods shared, or lots decide"))
                note = "; ".join(notes)
            elif award.by_lot:
                note = _("decided by lot")
            rows.append([award.place, award.number, award.name, award.amount, award.goods_text, note])
    else:
        rows += [[prize.place, None, None, prize.amount, prize.goods, ""] for prize in prizes.places]
    rows += [[], *([_("Problem"), None, problem] for problem in prizes.problems)]
    money = prizes.money
    rows += [
        [_("Money taken"), None, None, money.taken],
        [_("To charity or the pot"), None, money.charity_name, money.charity],
        [_("Paid out"), None, f"{money.payout_percent:g} %", money.payout],
        [_("Cash prizes"), None, None, prizes.cash_total],
        [_("Rest of the payout"), None, None, prizes.rest],
        [_("Kept by the organiser"), None, None, prizes.kept],
    ]
    if prizes.ranked and prizes.unsigned:
        unsigned = ngettext(
            "%(n)s scoresheet is not signed yet.", "%(n)s scoresheets are not signed yet.", prizes.unsigned
        )
        rows.append([_("Provisional"), None, unsigned % {"n": prizes.unsigned}])
    return [(_("Prize list"), header, rows)]
