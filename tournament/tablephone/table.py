"""The players' writes on the table's phone (issue 16): a game entered, changed or deleted, the
supervisor called, the scorekeeper changed, a signature. Every write goes through the same
services as the desk (same scoring, same messages, same history), recorded as "Tisch 7 (Handy)";
a game through the desk's own flow (``results.writing.carry_out``).

Every write the phone sends carries a key the phone made for it. The answer is kept under that
key in the same transaction as the write, so a write resent after a lost connection is carried
out once and answered the same way each time."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import Contract, Suit
from scoring.entries import sitting_out
from scoring.hands import check_hand

from ..errors import ServiceError
from ..prepared import Update, insert
from ..problems import problem_messages
from ..results import services as sheet_service
from ..results import signing
from ..results.load import Known
from ..results.models import Approval, Scoresheet
from ..results.notation import typed_game
from ..results.store import locked_sheet
from ..results.text import saved_text
from ..results.writing import Outcome, carry_out
from ..tournaments.audit import record, version_raised_last
from .codes import KEY, Opened, TableActor, normalized, open_code
from .models import ApprovalCall, PhoneReceipt
from .phone_state import needless_call


@dataclass(frozen=True)
class Reply:
    """What a write answers beyond its message: the sheet as it left it (``Known``), so that the
    page sent back is drawn without reading the sheet again."""

    message: str
    known: Known | None = None
    effects: tuple[str, ...] = ()  # every other game the write changed, in words (issue 26)


@dataclass(frozen=True)
class Sent:
    """The answer kept under the write's key, the sheet written to as the code opened it, and
    the sheet as the write left it (only where this request carried the write out and the write
    knows it)."""

    answer: dict
    opened: Opened
    known: Known | None = None


def send(code: str, key: str, action: str, data: dict) -> Sent:
    """Carry out one write the table's phone sent to the sheet its ``code`` opens
    (``CodeRefused`` where it opens none), once: the answer (``ok``, ``message``, ``details``,
    the sheet's ``version`` after and the ``previous`` one) is kept under ``key`` and given
    again, unchanged, for the same key."""
    try:
        if not isinstance(key, str) or not KEY.fullmatch(key):
            open_code(code)  # a dead code is told as such, whatever came with it
            raise ServiceError(_("The entry came without a valid key: please reload the page."))
        if action == "game":
            return _send_game(code, key, data)
        with transaction.atomic(), version_raised_last():
            # The code looked up, the sheet locked and the write's receipt looked for in one
            # query (a write refused before it is carried out writes nothing).
            opened = open_code(code, lock=True, key=key)
            handler = ACTIONS.get(action)
            if handler is None:
                raise ServiceError(_("Unknown action."))
            return _send_once(opened, key, handler, data)
    except IntegrityError:
        # The same key arrived twice at the same moment: the other one was carried out.
        receipt = PhoneReceipt.objects.filter(scoresheet__code=normalized(code), key=key).first()
        if receipt is None:
            raise
        return Sent({**receipt.answer, "repeated": True}, open_code(code))


def _send_game(code: str, key: str, data: dict) -> Sent:
    """A game from the table's phone, through the desk's flow: planned on the sheet as the code
    opened it, outside the write lock, and written if the sheet is still as read once locked
    (planned again otherwise). A refusal is kept under the key as an answer is."""
    opened = open_code(code, key=key)
    if opened.receipt is not None:  # sent before: answered as then, nothing done again
        return Sent({**opened.receipt, "repeated": True}, opened)
    answers: list[dict] = []
    found = [opened]  # the sheet as last looked up, with what the lookup told about it

    def relock(sheet: Scoresheet) -> Scoresheet:
        # Written, signed or voided, its code renewed or its draw discarded since it was read:
        # the code looked up again, locked (a dead code refuses the game as it would have).
        found.append(open_code(code, lock=True, key=key))
        return found[-1].sheet

    def keep(outcome: Outcome) -> None:
        if outcome.entered is not None:
            close_calls(outcome.sheet, outcome.entered.saved.number)
            answer = {
                "ok": True,
                "message": entered_text(outcome.entered),
                "details": [],
                "effects": outcome.entered.written.texts,  # the other games it changed (issue 26)
            }
            version = outcome.entered.sheet.sheet.version
        else:
            answer = refusal_answer(outcome.refusal)
            version = outcome.previous
        answer.update(version=version, previous=outcome.previous)
        insert(PhoneReceipt(scoresheet=outcome.sheet, key=key, answer=answer))
        answers.append(answer)

    actor = TableActor(opened.sheet)
    try:
        entered = carry_out(
            lambda sheet: plan_game(actor, sheet, data, signed=found[-1].facts.signed > 0),
            opened.sheet,
            relock,
            keep,
        )
    except (ServiceError, PermissionDenied):
        return Sent(answers[0], opened)
    return Sent(answers[0], opened, entered.sheet)


def refusal_answer(refusal: Exception) -> dict:
    """A write refused, as the phone is told it."""
    if isinstance(refusal, ServiceError):
        return {"ok": False, "message": str(refusal.message), "details": [str(d) for d in refusal.details]}
    return {"ok": False, "message": _("The table's phone cannot do this: ask the referee."), "details": []}


def _send_once(opened: Opened, key: str, handler, data: dict) -> Sent:
    """The write, with the sheet locked in this transaction: the handlers write through the
    services with it (``locked=True``)."""
    if opened.receipt is not None:  # sent before: answered as then, nothing done again
        return Sent({**opened.receipt, "repeated": True}, opened)
    sheet = opened.sheet
    previous = sheet.version
    known, effects = None, []
    try:
        with transaction.atomic():
            reply = handler(TableActor(sheet), sheet, data)
        if isinstance(reply, Reply):
            reply, known, effects = reply.message, reply.known, list(reply.effects)
        answer = {"ok": True, "message": reply, "details": [], "effects": effects}
    except (ServiceError, PermissionDenied) as refusal:
        answer = refusal_answer(refusal)
    if known is not None:
        version = known.sheet.version  # the write's own sheet, at the version it stored
    else:
        version = Scoresheet.objects.filter(pk=sheet.pk).values_list("version", flat=True).get()
    answer.update(version=version, previous=previous)
    insert(PhoneReceipt(scoresheet=sheet, key=key, answer=answer))
    return Sent(answer, opened, known)


def _number(data: dict, sheet: Scoresheet, name: str = "number") -> int:
    return sheet_service.require_game(sheet.match.tournament.rules, data.get(name), sheet.size)


def _base(data: dict) -> int | None:
    value = data.get("base")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat(data: dict, name: str, sheet: Scoresheet) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sheet.size:
        raise ServiceError(_("Seat %(seat)s does not exist.") % {"seat": value})
    return value


def plan_game(actor, sheet: Scoresheet, data: dict, signed: bool | None = None) -> sheet_service.EntryPlan:
    """A game from the phone, in the desk's short notation (the phone builds it from the taps),
    checked and scored on ``sheet`` as read (``signed``: whether it had signatures). A new game
    needs only its number to be free; a change needs the sheet as the phone saw it (``base``):
    whatever the desk or another phone saved since is never overwritten unseen."""
    number = _number(data, sheet)
    replace = data.get("replace") is True
    game = typed_game(str(data.get("notation", ""))[:40], number, sheet.size)
    base = _base(data) if replace else None
    if replace and base is None:
        raise ServiceError(_("The change came without the sheet's version: please reload the page."))
    return sheet_service.plan_entry(actor, sheet, game, base, replace=replace, signed=signed)


def entered_text(entered: sheet_service.Entered) -> str:
    """What the table is told of a game stored: as the desk is, and whose signatures it withdrew."""
    text = saved_text(entered.saved)
    if entered.withdrawn:
        text += " " + sheet_service.withdrawn_text(entered.withdrawn)
    return text


def close_calls(sheet: Scoresheet, number: int) -> int:
    """A game entered closes the calls still waiting for it: it was played (an approval given
    later would be attached to a game it was not asked for). Every game a phone enters runs it,
    in the write lock: one UPDATE compiled once (the ORM's update() spent about 0.4 ms building it)."""
    return _CLOSE_CALLS(
        sheet.pk,
        number,
        ApprovalCall.Status.WAITING.value,
        status=ApprovalCall.Status.WITHDRAWN.value,
        answered=timezone.now(),
        reason=_("game entered"),
    )


_CLOSE_CALLS = Update(
    lambda sheet, number, waiting: ApprovalCall.objects.filter(
        scoresheet_id=sheet, number=number, status=waiting
    ),
    int,
    int,
    str,
    fields=("status", "answered", "reason"),
)


def delete_game(actor, sheet: Scoresheet, data: dict) -> Reply:
    number = _number(data, sheet)
    base = _base(data)
    if base is None:
        raise ServiceError(_("The change came without the sheet's version: please reload the page."))
    written = sheet_service.delete_entry(actor, sheet, number, base, locked=True)
    text = _("Game %(game)s was deleted; the history keeps it.") % {"game": number}
    if written.withdrawn:
        text = f"{text} {sheet_service.withdrawn_text(written.withdrawn)}"
    return Reply(text, effects=tuple(written.texts))


def call_supervisor(actor, sheet: Scoresheet, data: dict) -> str:
    """The table calls for approval before the game is played (5.2.14, 5.2.16)."""
    number = _number(data, sheet)
    declarer = _seat(data, "declarer", sheet)
    if declarer == sitting_out(number, sheet.size):  # tables of five (README readings)
        raise ServiceError(
            _("Seat %(seat)s deals game %(game)s and sits it out: he cannot play it.")
            % {"seat": declarer, "game": number}
        )
    try:
        contract = Contract(data.get("contract"))
        suit = Suit(data["suit"]) if data.get("suit") else None
    except ValueError:
        raise ServiceError(_("Unknown contract.")) from None
    if contract is Contract.RUFER:
        raise ServiceError(_("A Sauspiel needs no approval."))
    if contract in (Contract.SOLO, Contract.SOLO_TOUT) and suit is None:
        raise ServiceError(_("Name the trump suit of the Solo."))
    # A Sie in game 1 cannot count, a Tout there is a plain Solo (RULINGS 5, 6): nobody walks
    # to the table for it (issue 28, item 4).
    needless = needless_call(contract, number, sheet.match.tournament.rules, sheet.size)
    if needless:
        raise ServiceError(needless)
    if sheet.entries.filter(number=number).exists():
        raise ServiceError(
            _("Game %(game)s is already entered: the approval is asked before the game is played.")
            % {"game": number}
        )
    approval = Approval.objects.filter(scoresheet=sheet, number=number).first()
    if approval is not None and approval.contract == contract.value:
        raise ServiceError(
            _("Game %(game)s is already approved: %(contract)s, by %(who)s.")
            % {"game": number, "contract": approval.get_contract_display(), "who": approval.approved_by_name}
        )
    hand = data.get("hand") or None
    if hand is not None:
        if not isinstance(hand, list) or not all(isinstance(card, str) for card in hand):
            raise ServiceError(_("The cards could not be read."))
        problems = check_hand(hand, contract, suit).problems
        if any(p.code.name.startswith("HAND_") for p in problems):
            raise ServiceError(problem_messages(problems)[0])
    waiting = ApprovalCall.objects.filter(scoresheet=sheet, number=number, status=ApprovalCall.Status.WAITING)
    waiting.update(status=ApprovalCall.Status.WITHDRAWN, answered=timezone.now())  # called anew
    call = ApprovalCall.objects.create(
        scoresheet=sheet,
        number=number,
        contract=contract.value,
        suit=suit.value if suit else "",
        declarer=declarer,
        hand=hand,
    )
    record(
        sheet.match.tournament,
        actor,
        "approval.call",
        scoresheet=sheet,
        game=number,
        after={"contract": contract.value, "suit": call.suit, "declarer": declarer, "hand": hand},
    )
    return _("Game %(game)s: the supervisor is called for the %(contract)s.") % {
        "game": number,
        "contract": call.label,
    }


def withdraw_call(actor, sheet: Scoresheet, data: dict) -> str:
    number = _number(data, sheet)
    withdrawn = ApprovalCall.objects.filter(
        scoresheet=sheet, number=number, status=ApprovalCall.Status.WAITING
    ).update(status=ApprovalCall.Status.WITHDRAWN, answered=timezone.now())
    if not withdrawn:
        raise ServiceError(_("Game %(game)s has no call waiting.") % {"game": number})
    return _("Game %(game)s: the call is withdrawn.") % {"game": number}


def sign(actor, sheet: Scoresheet, data: dict) -> str:
    """A player signs on the table's phone (5.3.2); the last signature (the fourth, or the fifth
    at a table of five) locks the sheet. Only the sheet as the phone showed it (``base``, its
    version) is signed: one sent without it, or after another write, is refused."""
    position = _seat(data, "position", sheet)
    signature = signing.sign_with_pad(actor, sheet, position, data.get("image", ""), _base(data))
    return _("%(name)s has signed.") % {"name": signature.name}


def change_scorekeeper(actor, sheet: Scoresheet, data: dict) -> str:
    """The table agrees on another scorekeeper (5.3.1)."""
    position = _seat(data, "position", sheet)
    sheet = locked_sheet(sheet)
    if sheet.status in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID):
        raise ServiceError(_("This scoresheet is signed and locked."))
    table = sheet.table
    before = table.scorekeeper
    table.scorekeeper = position
    table.save(update_fields=["scorekeeper"])
    seat = table.seats.select_related("participant").get(position=position)
    name = seat.participant.player_name(sheet.match.number, 1)
    record(
        sheet.match.tournament,
        actor,
        "table.scorekeeper",
        scoresheet=sheet,
        before={"seat": before},
        after={"seat": position, "name": name},
    )
    return _("%(name)s (seat %(seat)s) keeps the scoresheet now (5.3.1).") % {"name": name, "seat": position}


ACTIONS = {
    "delete": delete_game,
    "call": call_supervisor,
    "withdraw_call": withdraw_call,
    "sign": sign,
    "scorekeeper": change_scorekeeper,
}
