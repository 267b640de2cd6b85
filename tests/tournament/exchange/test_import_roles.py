"""Issue 27, item 6: a copy imported with results carries "nobody changes his own roles once
results exist" from its first moment. The importer becomes organiser of the copy but takes over
no other role the document names for him (supervisor would let him discard and correct results);
another organiser of the copy grants it, in the log."""

import json

import pytest

from tournament.errors import ServiceError
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.exchange.writer import export_document
from tournament.models import LogEntry
from tournament.tournaments import services as tournament_service
from tournament.tournaments.permissions import Perm, has_perm


def with_importer_as_supervisor(tournament, username):
    document = export_document(tournament)
    document["staff"].append({"username": username, "role": "supervisor"})
    return json.dumps(document)


def test_the_importer_is_no_supervisor_of_a_copy_with_results(played, organiser, supervisor):
    document = with_importer_as_supervisor(played, organiser.username)
    copy = import_plan(organiser, read_document(document, slug="kopie"))
    assert set(copy.staff.filter(user=organiser).values_list("role", flat=True)) == {"organiser"}
    assert not has_perm(organiser, copy, Perm.CORRECT)
    assert copy.staff.filter(user=supervisor, role="supervisor").exists()  # the others' roles stay
    withheld = LogEntry.objects.get(tournament=copy, action="staff.withheld")
    assert withheld.data["roles"] == ["supervisor"] and withheld.user == organiser
    with pytest.raises(ServiceError, match="eigenen Rollen"):  # nor does he grant it himself
        tournament_service.grant_role(organiser, copy, organiser.username, "supervisor")


def test_without_results_the_document_roles_come_back(drawn, organiser):
    document = with_importer_as_supervisor(drawn, organiser.username)
    copy = import_plan(organiser, read_document(document, slug="kopie"))
    assert set(copy.staff.filter(user=organiser).values_list("role", flat=True)) == {
        "organiser",
        "supervisor",
    }
    assert not LogEntry.objects.filter(tournament=copy, action="staff.withheld").exists()
