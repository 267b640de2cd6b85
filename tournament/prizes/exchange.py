"""The prize declaration in the exchange document (issue 17): the added top-level field
``prizes``, written by the writer, checked by the reader and restored by the importer. Readers
that do not know it ignore it.

``{"entry_fee": 15, "charity_per_entry": 5, "charity_name": "Kinderkrebshilfe",
"payout_percent": 100, "lines": [{"places": "range", "first": 1, "last": 3, "kind": "amount",
"amount": 50}, {"places": "last", "kind": "goods", "goods": "Holzlöffel"}]}``"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from ..tournaments.models import Tournament
from .models import PrizeDeclaration, PrizeLine
from .reckoning import Line, check_lines

MAX_EUROS = Decimal("9999999.99")  # what the columns hold (9 digits, 2 after the point)


def _number(value: Decimal) -> int | float:
    """An amount as a JSON number: whole when it is, else with its cents."""
    return int(value) if value == value.to_integral_value() else float(value)


def prizes_object(tournament: Tournament) -> dict | None:
    declaration = PrizeDeclaration.objects.filter(tournament=tournament).first()
    if declaration is None:
        return None
    lines = []
    for line in declaration.lines.all():
        item: dict[str, Any] = {"places": line.places}
        if line.first is not None:
            item["first"] = line.first
        if line.last is not None:
            item["last"] = line.last
        item["kind"] = line.kind
        if line.kind == PrizeLine.Kind.AMOUNT and line.amount is not None:
            item["amount"] = _number(line.amount)
        if line.kind == PrizeLine.Kind.SHARE and line.share is not None:
            item["share"] = _number(line.share)
        if line.kind == PrizeLine.Kind.GOODS:
            item["goods"] = line.goods
        lines.append(item)
    return {
        "entry_fee": _number(declaration.entry_fee),
        "charity_per_entry": _number(declaration.charity_per_entry),
        **({"charity_name": declaration.charity_name} if declaration.charity_name else {}),
        "payout_percent": _number(declaration.payout_percent),
        "lines": lines,
    }


def _amount(reader, value: Any, where: str, what: str, high: Decimal = MAX_EUROS) -> Decimal | None:
    """A number 0 … high with at most two decimals (JSON number or its text)."""
    amount = None
    if not isinstance(value, bool) and isinstance(value, int | float | str):
        try:
            amount = Decimal(str(value))
        except InvalidOperation:
            amount = None
    if amount is None or not amount.is_finite() or not 0 <= amount <= high or amount != round(amount, 2):
        reader.error(
            where,
            _("%(what)s must be a number 0–%(high)s with at most two decimals, not %(value)s.")
            % {"what": what, "high": high, "value": str(value)[:60]},
        )
        return None
    return amount


def read_prizes(reader, value: Any) -> dict | None:
    """The declaration checked, or None when the document has none. ``reader`` is the exchange
    reader, which collects every problem with where it is."""
    if value is None:
        return None
    where = _("Prize list")
    known = len(reader.errors)
    data = reader.obj(value, where, "prizes")
    values = {
        "entry_fee": _amount(reader, data.get("entry_fee", 0), where, _("The entry fee")),
        "charity_per_entry": _amount(
            reader, data.get("charity_per_entry", 0), where, _("The charity's part")
        ),
        "charity_name": reader.text(data.get("charity_name"), where, _("The charity"), 200, required=False),
        "payout_percent": _amount(
            reader, data.get("payout_percent", 100), where, _("The share paid out"), Decimal(100)
        ),
    }
    lines = []
    for index, item in enumerate(reader.array(data.get("lines"), where, "lines"), start=1):
        line = _("line %(n)s") % {"n": index}
        at = f"{where}, {line}"
        item = reader.obj(item, at, "line")
        places = reader.choice(item.get("places", "range"), PrizeLine.Places.values, at, "places")
        kind = reader.choice(item.get("kind", "amount"), PrizeLine.Kind.values, at, "kind")
        first, last = (
            reader.integer(item[key], at, _("The place")) if item.get(key) is not None else None
            for key in ("first", "last")
        )
        amount, share = (
            _amount(reader, item[key], at, what, high) if item.get(key) is not None else None
            for key, what, high in (
                ("amount", _("The amount"), MAX_EUROS),
                ("share", _("The share"), Decimal(100)),
            )
        )
        goods = reader.text(item.get("goods"), at, _("The goods"), 200, required=False)
        lines.append(Line(index, places or "range", first, last, kind or "amount", amount, share, goods))
    if len(reader.errors) > known:
        return None
    for problem in check_lines(lines):
        reader.error(where, problem)
    return {"values": values, "lines": lines}


def restore_prizes(tournament: Tournament, prizes: dict | None) -> None:
    if not prizes:
        return
    declaration = PrizeDeclaration.objects.create(tournament=tournament, **prizes["values"])
    PrizeLine.objects.bulk_create(
        PrizeLine(declaration=declaration, **line.fields(order))
        for order, line in enumerate(prizes["lines"], start=1)
    )
