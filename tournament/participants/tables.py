import django_tables2 as tables
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import Participant


class ParticipantTable(tables.Table):
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    # German order (DIN 5007-1): the table is given a list, sorted in Python (names.sort_key).
    name = tables.Column(verbose_name=_("name"), order_by=("name_order", "number"))
    club = tables.Column(verbose_name=_("club"), order_by=("club_order", "name_order", "number"))
    birth_date = tables.DateColumn(verbose_name=_("date of birth"), format="d.m.Y")
    status = tables.Column(verbose_name=_("status"))
    substitutes = tables.Column(verbose_name=_("substitutes"), empty_values=(), orderable=False)
    edit = tables.Column(
        verbose_name="",
        empty_values=(),
        orderable=False,
        linkify=lambda record: reverse("organiser:participant", args=[record.tournament.slug, record.number]),
    )

    class Meta:
        model = Participant
        fields = ("number", "name", "club", "birth_date", "status")
        attrs = {"class": "data"}
        row_attrs = {"class": lambda record: f"status-{record.status}"}

    def render_substitutes(self, record):
        subs = record.substitutions.all()
        return (
            ", ".join(
                _("%(name)s from match %(match)s, game %(game)s")
                % {"name": s.name, "match": s.from_match, "game": s.from_game}
                for s in subs
            )
            or "—"
        )

    def render_edit(self):
        return _("edit")  # the link is the column's (linkify)


def empty_text(query: str) -> str:
    """What an empty list says: nobody found for a search, or nobody yet."""
    if query:
        return gettext("Nobody found for “%(query)s”: type a name, part of it, or a start number.") % {
            "query": query
        }
    return gettext("No participants yet.")
