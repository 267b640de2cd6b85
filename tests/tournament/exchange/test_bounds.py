"""Imports that crashed (issue 27, item 10): a list where a start number belongs, a lone
surrogate in a name, a prize line of a billion places; each is refused with a message naming
where, and a refused import leaves no scan file behind. A property test sends every field of
every section a value of each wrong JSON type: a message, never an exception."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.tournament.exchange.documents import damage, paths
from tests.tournament.exchange.test_backup import everything  # noqa: F401  (a fixture)
from tests.tournament.exchange.test_hostile import deep
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import export_document
from tournament.models import Tournament
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def refused(document) -> list[str]:
    with pytest.raises(DocumentError) as error:
        import_plan(COMMAND_LINE, read_document(json.dumps(document), slug="kopie"))
    assert error.value.messages and all(m.strip() for m in error.value.messages)
    return error.value.messages


@pytest.fixture
def document(played):
    return export_document(played)


def test_a_list_where_a_start_number_belongs_is_refused(document):
    document["substitutions"] = [{"number": [1], "name": "Maier, Resi", "from_match": 1}]
    (message,) = refused(document)
    assert "[1]" in message


def test_a_lone_surrogate_in_a_name_is_refused_naming_the_field(document):
    document["participants"][2]["name"] = "Hu\ud800ber"
    (message,) = refused(document)
    assert message.startswith("participants[2].name")


def test_a_prize_line_of_a_billion_places_is_refused(document):
    document["prizes"] = {"lines": [{"places": "range", "first": 1, "last": 10**9, "amount": 1}]}
    (message,) = refused(document)
    assert "1000000000" in message


def files() -> set[Path]:
    return {path for path in Path(settings.PRIVATE_ROOT).rglob("*") if path.is_file()}


def test_a_refused_import_leaves_no_scan_file_behind(everything, monkeypatch):  # noqa: F811
    """The importer refuses after writing the scans (a sheet sealed in the earlier form is checked
    once written): the rollback removes the rows, the importer the files."""
    document = export_document(everything)
    assert document["matches"][0]["tables"][1]["scan"]["base64"]
    plan = read_document(json.dumps(document), slug="kopie")

    def refuse(*args):
        raise DocumentError(["Durchgang 1, Tisch 1: geändert"])

    monkeypatch.setattr("tournament.exchange.importer.restore_prizes", refuse)
    before, tournaments = files(), Tournament.objects.count()
    with pytest.raises(DocumentError):
        import_plan(COMMAND_LINE, plan)
    assert files() == before and Tournament.objects.count() == tournaments


WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.sampled_from(["", "x" * 300, "a\x00b", "\ud800", "Hu\udfffber", "10" * 40, "2026-02-30"]),
    st.lists(st.integers(), max_size=2),
    st.just(deep(40)),
    st.dictionaries(st.sampled_from(["number", "name", "x"]), st.integers(), max_size=2),
)


@hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_field_of_every_section_answers_a_wrong_value_with_a_message(document, data):
    copy = json.loads(json.dumps(document))
    copy["prizes"] = {"entry_fee": 10, "lines": [{"places": "range", "first": 1, "last": 3, "amount": 5}]}
    damage(copy, data, WRONG)
    try:
        plan = read_document(json.dumps(copy), slug="kopie")
        tournament = import_plan(COMMAND_LINE, plan)
    except DocumentError as error:
        assert error.messages and all(m.strip() for m in error.messages)
        return
    tournament.delete()


def test_the_upload_page_answers_a_wrong_value_with_a_message(document, organiser, client):
    client.force_login(organiser)
    document["substitutions"] = [{"number": [1], "name": "Hu\ud800ber", "from_match": 1}]
    url = reverse("organiser:import_document")
    text = json.dumps(document).encode()
    response = client.post(url, {"file": SimpleUploadedFile("t.json", text)}, follow=True)
    assert response.status_code == 200 and response.context["errors"]
    response = client.post(url, {"action": "import"}, follow=True)
    assert response.status_code == 200 and Tournament.objects.count() == 1


EVERY_WRONG = [None, True, -1, 0, 2**70, 1.5, "", "a\x00b", "Hu\ud800ber", [1], {"x": 1}, deep(40)]


@pytest.mark.long
def test_every_field_answers_every_wrong_type_with_a_message(document):
    """The exhaustive variant: each field (the first row that has it standing for all) gets
    each wrong value in turn."""
    document["prizes"] = {"entry_fee": 10, "lines": [{"places": "range", "first": 1, "last": 3, "amount": 5}]}
    fields: dict[tuple, tuple] = {}
    for path in paths(document):
        fields.setdefault(tuple("#" if isinstance(k, int) else k for k in path), path)
    for path in list(fields.values())[1:]:
        for value in EVERY_WRONG:
            copy = json.loads(json.dumps(document))
            target = copy
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            try:
                import_plan(COMMAND_LINE, read_document(json.dumps(copy), slug="kopie")).delete()
            except DocumentError as error:
                assert error.messages, (path, value)
