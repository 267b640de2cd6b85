import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from .standings import METRICS


class StandingsTable(tables.Table):
    """The standings with every tie-break criterion as a column (5.4.2), so anyone can see why
    one participant ranks above another. The metric columns come from ``standings.METRICS``."""

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"))

    class Meta:
        attrs = {"class": "data standings"}
        row_attrs = {"id": lambda record: f"p{record.number}"}

    def __init__(self, rows, slug: str, **kwargs):
        self.slug = slug
        extra = [
            (
                m.key,
                tables.Column(
                    verbose_name=m.short,
                    accessor=f"values__{m.key}",
                    attrs={"td": {"class": "num"}, "th": {"title": m.label}},
                ),
            )
            for m in METRICS
        ]
        super().__init__(rows, extra_columns=extra, **kwargs)

    def render_rank(self, record):
        if record.by_lot:
            return format_html('{}<span class="lot" title="{}">*</span>', record.rank, _("decided by lot"))
        return record.rank

    def render_name(self, record):
        url = reverse("public:participant", args=[self.slug, record.number])
        # 5.2.11, RULINGS 14: the start number keeps its points; the list shows who played.
        subs = format_html_join(
            "",
            '<span class="sub">{}</span>',
            (
                (
                    _("substitute from match %(match)s, game %(game)s: %(name)s")
                    % {"match": sub.from_match, "game": sub.from_game, "name": sub.name},
                )
                for sub in record.substitutes
            ),
        )
        club = record.club
        return format_html(
            '<a href="{}">{}</a>{}{}',
            url,
            record.name,
            format_html('<span class="club">{}</span>', club) if club else "",
            subs,
        )
