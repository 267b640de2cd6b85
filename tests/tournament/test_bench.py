"""`manage.py bench PART` measures one part alone (the figures themselves are make bench's)."""

import io

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_one_part_alone():
    out = io.StringIO()
    call_command("bench", "draw", "--runs", "1", stdout=out)
    text = out.getvalue()
    assert "draw 2000 × 3, algorithm" in text and "0 repeated table-mates" in text
    assert "Excel" not in text and "generator" not in text


def test_an_unknown_part_is_refused():
    with pytest.raises(CommandError, match="invalid choice: 'excell'"):
        call_command("bench", "excell")
