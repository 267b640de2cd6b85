"""The ``standings`` command's output of the two demos, as written by the main branch before the
code was arranged by capability (issue 12): it must not change by a byte."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.tournaments.permissions import COMMAND_LINE

GOLDEN = Path(__file__).resolve().parent / "golden"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("document", "slug"), [("demo.json", "kirchweih-2026"), ("demo-3x16.json", "vereinsmeisterschaft-3x16")]
)
def test_standings_csv_of_the_demos_is_unchanged(document, slug):
    import_plan(COMMAND_LINE, read_document((FIXTURES / document).read_bytes()))
    expected = sorted(GOLDEN.glob(f"{slug}*.csv"))
    assert expected
    for path in expected:
        arguments = [slug, "--format", "csv"]
        if "-match" in path.stem:
            arguments += ["--match", path.stem.rsplit("-match", 1)[1]]
        out = io.StringIO()
        call_command("standings", *arguments, stdout=out)
        assert out.getvalue() == path.read_text(), path.name
