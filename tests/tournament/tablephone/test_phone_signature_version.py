"""Issue 27, item 11: a signature is given to the sheet as the players read it. One sent without
the sheet's version, or with a version another write has since raised, is refused with a clear
message (the phone, the desk and the paper original alike) and nothing is stored."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from scoring import Contract, Game, Result, Suit
from tournament.errors import ServiceError
from tournament.models import PhoneReceipt, Signature
from tournament.results import signing

CHECK_AGAIN = "bitte die Liste noch einmal prüfen"


def jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 200, 200)).save(buffer, "JPEG")
    return buffer.getvalue()


def send(client, sheet, key, **data):
    response = client.post(
        reverse("table:send", args=[sheet.code]),
        json.dumps({"key": key, "action": "sign", "data": data}),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    return response.json()


def changed_meanwhile(referee, sheet, enter):
    """The desk changes game 32 after the phone read the sheet: it stays complete."""
    enter(
        referee,
        sheet,
        Game(32, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON),
        replace=True,
    )


def test_a_phone_signature_without_the_version_is_refused(client, played, sheet_of, signature_png):
    sheet = sheet_of(played, 1, 1)
    answer = send(client, sheet, "n" * 16, position=1, image=signature_png())
    assert not answer["ok"] and CHECK_AGAIN in answer["message"]
    assert not Signature.objects.filter(scoresheet=sheet).exists()
    assert PhoneReceipt.objects.get(scoresheet=sheet, key="n" * 16).answer["ok"] is False


def test_a_phone_signature_on_a_sheet_changed_meanwhile_is_refused(
    client, played, sheet_of, referee, enter, signature_png
):
    sheet = sheet_of(played, 1, 1)
    seen = sheet.version
    changed_meanwhile(referee, sheet, enter)
    sheet.refresh_from_db()
    assert sheet.version != seen and sheet.status == "complete"
    answer = send(client, sheet, "s" * 16, position=1, image=signature_png(), base=seen)
    assert not answer["ok"] and CHECK_AGAIN in answer["message"]
    assert not Signature.objects.filter(scoresheet=sheet).exists()
    # checked again: with the sheet's version now the signature is stored
    answer = send(client, sheet, "t" * 16, position=1, image=signature_png(), base=sheet.version)
    assert answer["ok"], answer
    assert Signature.objects.filter(scoresheet=sheet, position=1).exists()


@pytest.mark.parametrize("stale", [None, "old"])
def test_the_services_require_the_version(played, sheet_of, referee, enter, signature_png, stale):
    sheet = sheet_of(played, 1, 1)
    version = None if stale is None else sheet.version
    if stale:
        changed_meanwhile(referee, sheet, enter)
        sheet.refresh_from_db()
    with pytest.raises(ServiceError, match=CHECK_AGAIN):
        signing.sign_with_pad(referee, sheet, 1, signature_png(), version)
    scan = SimpleUploadedFile("liste.jpg", jpeg(), content_type="image/jpeg")
    with pytest.raises(ServiceError, match=CHECK_AGAIN):
        signing.record_paper_signatures(referee, sheet, scan, version)
    assert not Signature.objects.filter(scoresheet=sheet).exists() and not sheet.paper_scan
    signing.record_paper_signatures(referee, sheet, scan, sheet.version)
    sheet.refresh_from_db()
    assert sheet.status == "signed"
