import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .standings import METRICS


class StandingsTable(tables.Table):
    """The standings with every tie-break criterion as a column (5.4.2), so anyone can see why
    one participant ranks above another. The metric columns come from ``standings.METRICS``."""

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"), order_by=("name_order", "number"))  # German order

    class Meta:
        attrs = {"class": "data standings"}
        # The cells are written out by the template's tags from the records (a cell through its
        # column cost far more than the page can afford); the columns give the header, the
        # order and the pages.
        template_name = "public/_standings_table.html"

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
