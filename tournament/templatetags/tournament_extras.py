from django import template
from django.template.loader import get_template
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from ..names import comma_parts
from ..names import spoken as spoken_name
from ..results.rows import render_rows
from ..results.text import points_text
from ..standings import drawn

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``values|get_item:"points"``: a dictionary value by a key held in a variable."""
    return mapping.get(key) if mapping else None


@register.filter
def listed(name, letters=0):
    """A name in a printed list, the word before its comma kept with it on one line: "Nußbaumer,
    Hias" never wraps as "Nußbaumer / , Hias" (issue 28), not even in a column that breaks a long
    name anywhere (the class ``nobreak`` of the print stylesheets). ``letters``: only that many
    of the word's last letters kept with the comma (a word too long for its column)."""
    before, kept, after = comma_parts(str(name))
    if not kept:
        return name
    if letters and len(kept) > letters + 1:
        before, kept = before + kept[: -letters - 1], kept[-letters - 1 :]
    return get_template("print/_listed.html").render({"before": before, "kept": kept, "after": after})


@register.filter
def spoken(name):
    """A name as the person is called, given name first (a certificate): ``names.spoken``."""
    return spoken_name(str(name))


@register.filter
def points(values):
    """Four points as everywhere on the site, e.g. "+1 / -1 / +1 / -1"."""
    return points_text(values) if values else "—"


@register.simple_tag
def standings_lines(table) -> SafeString:
    """The rows of a page of the standings as HTML (``standings.drawn.line``, the same for a
    search answered from kept lines), or, drawing the frame of such searches, the mark where its
    lines go. A visitor's page of 50 rows is drawn again after results in every server process:
    the table's own template drew every cell through its column (0.6 ms a row)."""
    if getattr(table, "frame", False):  # django-tables2 draws the table in a context of its own
        return mark_safe(drawn.MARK)
    prefix = drawn.participant_prefix(table.slug)
    return drawn.joined([drawn.line(row.record, prefix) for row in table.paginated_rows])


@register.simple_tag(takes_context=True)
def standings_header(context, table) -> list[tuple[str, str, str | None]]:
    """The header cells of the standings (``{% standings_header table as cells %}``) as
    django-tables2's template draws them: (the cell's attributes, its text, the address of its
    link or None), each orderable column a link that orders by it (its
    ``querystring_replace``)."""
    query = dict(context["request"].GET)
    field = table.prefixed_order_by_field
    return [
        (
            column.attrs["th"].as_html(),  # django-tables2's own attributes, escaped by it
            column.header,
            "?" + urlencode({**query, field: str(column.order_by_alias.next)}, doseq=True)
            if column.orderable
            else None,
        )
        for column in table.columns
    ]


@register.simple_tag(takes_context=True)
def sheet_rows(context, rows, lead: int, dealer_column: bool = False, row_actions: str = ""):
    """A scoresheet's rows, each through templates/sheet/_row.html (``results.rows.render_rows``)."""
    return render_rows(context, rows, lead, dealer_column, row_actions)
