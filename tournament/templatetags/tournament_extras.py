from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..results.text import points_text

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``values|get_item:"points"``: a dictionary value by a key held in a variable."""
    return mapping.get(key) if mapping else None


@register.filter
def points(values):
    """Four points as everywhere on the site, e.g. "+1 / -1 / +1 / -1"."""
    return points_text(values) if values else "—"


@register.simple_tag
def standings_rows(table) -> SafeString:
    """The rows of a page of the standings (public/_standings_table.html), written here from the
    records rather than by the template language: a visitor's page of 50 rows is drawn again
    after results in every server process, and the template spent about 20 ms of the hall
    laptop on it, this about 1 ms. The cells are those of StandingsTable's columns, in order."""
    one = reverse("public:participant", args=[table.slug, 1])  # …/p/1/: the address of number 1
    prefix = one[: -len("1/")]
    by_lot = escape(_("decided by lot"))  # outside the f-string: makemessages does not look there
    lot = f'<span class="lot" title="{by_lot}">*</span>'
    html = []
    for index, row in enumerate(table.paginated_rows):
        r = row.record
        parity = "odd" if index % 2 else "even"
        name = f'<a href="{prefix}{r.number}/">{escape(r.name)}</a>'
        if r.club:
            name += f'<span class="club">{escape(r.club)}</span>'
        for sub in r.substitutes:  # 5.2.11, RULINGS 14: the start number keeps its points
            text = _("substitute from match %(match)s, game %(game)s: %(name)s") % {
                "match": sub.from_match,
                "game": sub.from_game,
                "name": sub.name,
            }
            name += f'<span class="sub">{escape(text)}</span>'
        metrics = "".join(f'<td class="num">{value}</td>' for value in r.key)
        rank = f"{r.rank}{lot}" if r.by_lot else r.rank
        html.append(
            f'<tr id="p{r.number}" class="{parity}"><td class="num rank">{rank}</td>'
            f'<td class="num">{r.number}</td><td>{name}</td>{metrics}</tr>'
        )
    return mark_safe("\n".join(html))  # noqa: S308 (every text in it is escaped above)


@register.simple_tag(takes_context=True)
def standings_header(context, table) -> SafeString:
    """The header cells of the standings (public/_standings_table.html) as django-tables2's
    template draws them, each orderable column a link that orders by it (its
    ``querystring_replace``); written here for the same reason as the rows: every visitor's
    search for his own line draws the table anew, and the template spent most of it here."""
    query = dict(context["request"].GET)
    field = table.prefixed_order_by_field
    html = []
    for column in table.columns:
        header = conditional_escape(column.header)
        if column.orderable:
            link = escape("?" + urlencode({**query, field: str(column.order_by_alias.next)}, doseq=True))
            header = f'<a href="{link}">{header}</a>'
        html.append(f"<th {column.attrs['th'].as_html()}>{header}</th>")
    return mark_safe("".join(html))  # noqa: S308 (every text in it is escaped above)
