"""Signing (5.3.2), locking and the digest, corrections (5.3.4), void sheets (5.3.6)."""

import base64
import html
import io
import random

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from scoring import Contract, Game, Result, Suit
from tests.tournament.helpers import written_around_the_services
from tournament.demo import generator
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import Correction, Scoresheet
from tournament.participants import services as participant_service
from tournament.printing import pdf as printing
from tournament.results import services as sheet_service
from tournament.results import signing, substitutes
from tournament.results.document import sheet_digest
from tournament.results.history import log_change
from tournament.standings import standings
from tournament.tournaments import services as tournament_service
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


@pytest.fixture
def complete(tournament, organiser, add_players):
    add_players(tournament, 8)
    draw_service.draw_all(organiser, tournament, seed="unterschrift")
    generator.fill_results(COMMAND_LINE, tournament, random.Random(3))
    return Scoresheet.objects.get(match__tournament=tournament, match__number=1, table__number=1)


def test_only_a_complete_sheet_is_signed(tournament, organiser, referee, add_players, signature_png):
    add_players(tournament, 4)
    draw_service.draw_all(organiser, tournament, seed="x")
    sheet = Scoresheet.objects.get(match__number=1)
    with pytest.raises(ServiceError, match="vollständige"):
        signing.sign_with_pad(referee, sheet, 1, signature_png(), sheet.version)


def test_four_signatures_lock_the_sheet_with_a_digest(complete, referee, sign, signature_png):
    signing.sign_with_pad(referee, complete, 1, signature_png(), complete.version)
    complete.refresh_from_db()
    assert complete.status == "complete" and not complete.digest
    with pytest.raises(ServiceError, match="schon unterschrieben"):
        signing.sign_with_pad(referee, complete, 1, signature_png(), complete.version)
    sheet = sign(referee, complete, (2, 3, 4))
    assert sheet.status == "signed" and sheet.locked_at
    assert len(sheet.digest) == 64 and sheet.digest == sheet_digest(sheet)
    assert [s.name for s in sheet.signatures.all()] == [
        seat.participant.name for seat in sheet.table.seats.order_by("position")
    ]


@pytest.mark.parametrize(
    ("image", "message"),
    [
        ("", "fehlt"),
        ("data:image/png;base64,@@@", "nicht gelesen"),
        ("data:image/png;base64," + base64.b64encode(b"GIF89a....").decode(), "nicht gelesen"),
    ],
)
def test_unreadable_signatures_are_refused(complete, referee, image, message):
    with pytest.raises(ServiceError, match=message):
        signing.sign_with_pad(referee, complete, 1, image, complete.version)
    assert not complete.signatures.exists()


def _plain_png(colour) -> str:
    buffer = io.BytesIO()
    Image.new("RGBA", (300, 100), colour).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


@pytest.mark.parametrize("colour", [None, (255, 255, 255, 255), (250, 250, 250, 255), (0, 0, 0, 0)])
def test_an_empty_signature_is_refused(complete, referee, signature_png, colour):
    image = signature_png(drawn=False) if colour is None else _plain_png(colour)
    with pytest.raises(ServiceError, match="leer"):
        signing.sign_with_pad(referee, complete, 1, image, complete.version)
    assert not complete.signatures.exists()


def test_a_locked_sheet_refuses_every_change_but_a_correction(complete, referee, supervisor, sign):
    sheet = sign(referee, complete)
    game = Game(5, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON)
    for user in (referee, supervisor):
        with pytest.raises(ServiceError, match="gesperrt"):
            sheet_service.save_entry(user, sheet, game, sheet.version, replace=True)
        with pytest.raises(ServiceError, match="gesperrt"):
            sheet_service.delete_entry(user, sheet, 5, sheet.version)
    with pytest.raises(ServiceError, match="gesperrt"):
        sheet_service.approve(supervisor, sheet, 6, "sie")
    with pytest.raises(PermissionDenied):
        signing.correct(referee, sheet, game, "Schreibfehler")
    with pytest.raises(ServiceError, match="Grund"):
        signing.correct(supervisor, sheet, game, "  ")
    old_digest = sheet.digest
    old_points = sheet.entries.get(number=5).points
    correction = signing.correct(supervisor, sheet, game, "Schreibfehler auf der Liste")
    sheet.refresh_from_db()
    assert sheet.status == "signed"
    assert sheet.entries.get(number=5).points == (1, 1, -1, -1)
    assert correction.before["points"] == list(old_points)
    assert correction.initials == "AUF"
    assert correction.digest_before == old_digest != correction.digest_after == sheet.digest
    assert Correction.objects.count() == 1
    # one line in the history for the correction, with its reason (not a second "changed" line)
    after_signing = sheet.log.filter(game=5, created__gte=sheet.locked_at)
    assert list(after_signing.values_list("action", flat=True)) == ["sheet.correct"]
    line = log_change(after_signing.get())  # issue 28, item 12: the history says why
    assert line.endswith("(Grund: Schreibfehler auf der Liste)") and "→" in line


def test_the_digest_is_stable_and_changes_with_any_content_signed(complete, referee, sign):
    sheet = sign(referee, complete)
    assert sheet_digest(sheet) == sheet_digest(sheet) == sheet.digest
    entry = sheet.entries.get(number=3)
    entry.points_1, entry.points_2 = entry.points_2, entry.points_1
    entry.save()
    assert sheet_digest(sheet) != sheet.digest
    entry.points_1, entry.points_2 = entry.points_2, entry.points_1
    entry.save()
    assert sheet_digest(sheet) == sheet.digest
    signature = sheet.signatures.get(position=4)
    signature.name = "Anders, Hans"
    signature.save()
    assert sheet_digest(sheet) != sheet.digest


def test_renaming_after_signing_keeps_every_digest(complete, referee, organiser, sign):
    """The digest covers the names as they were signed (issue 13)."""
    sheet = sign(referee, complete)
    signed_name = sheet.signed_as["seats"][1]["name"]
    participant = sheet.table.seats.get(position=2).participant
    participant_service.update_participant(organiser, participant, name="Anders, Hans")
    tournament = sheet.match.tournament
    tournament_service.update_tournament(organiser, tournament, name="Neuer Name")
    sheet.refresh_from_db()
    assert sheet_digest(sheet) == sheet.digest
    assert sheet.signed_as["seats"][1]["name"] == signed_name != "Anders, Hans"
    assert sheet.signed_as["tournament"]["name"] == "Kirchweih-Schafkopf"


def test_the_paper_original_with_its_scan(complete, referee, settings, tmp_path):
    settings.PRIVATE_ROOT = tmp_path
    with pytest.raises(ServiceError, match="Foto"):
        signing.record_paper_signatures(referee, complete, None, complete.version)
    scan = SimpleUploadedFile("liste.jpg", b"\xff\xd8\xff\xe0 scan", content_type="image/jpeg")
    signing.record_paper_signatures(referee, complete, scan, complete.version)
    complete.refresh_from_db()
    assert complete.status == "signed" and complete.paper_scan.name.endswith(".jpg")
    assert {s.method for s in complete.signatures.all()} == {"paper"}
    assert (tmp_path / complete.paper_scan.name).exists()
    # private: an unguessable name, no address of its own (only the staff's view serves it)
    folder, name = complete.paper_scan.name.split("/")
    assert folder == "scans" and len(name) > 30 and complete.match.tournament.slug not in name
    with pytest.raises(ValueError, match="no address"):
        complete.paper_scan.url  # noqa: B018


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("liste.jpg", b"hello, not a photo"),
        ("liste.html", b"<html><script>alert(1)</script></html>"),
        ("leer.png", b""),
    ],
)
def test_a_scan_that_is_no_photo_or_pdf_is_refused_and_nothing_is_saved(
    complete, referee, settings, tmp_path, name, content
):
    settings.PRIVATE_ROOT = tmp_path
    scan = SimpleUploadedFile(name, content)
    with pytest.raises(ServiceError, match=name.replace(".", r"\.")):
        signing.record_paper_signatures(referee, complete, scan, complete.version)
    complete.refresh_from_db()
    assert complete.status != "signed" and not complete.paper_scan and not complete.signatures.exists()
    assert not list(tmp_path.rglob("*"))


def test_a_scan_is_known_by_its_content_and_bounded(complete, referee, settings, tmp_path):
    settings.PRIVATE_ROOT = tmp_path
    with pytest.raises(ServiceError, match="20 MB"):
        big = SimpleUploadedFile("gross.pdf", b"%PDF-1.7" + b"0" * signing.MAX_SCAN_BYTES)
        signing.record_paper_signatures(referee, complete, big, complete.version)
    signing.record_paper_signatures(
        referee, complete, SimpleUploadedFile("scan", b"%PDF-1.7\n..."), complete.version
    )
    complete.refresh_from_db()
    assert complete.paper_scan.name.endswith(".pdf")


def test_a_void_sheet_counts_for_nothing(complete, supervisor, referee):
    numbers = [s.participant.number for s in complete.table.seats.all()]
    before = {row.number: row.values["points"] for row in standings.compute(complete.match.tournament).rows}
    with pytest.raises(PermissionDenied):
        signing.declare_void(referee, complete, "unleserlich")
    with pytest.raises(ServiceError):
        signing.declare_void(supervisor, complete, "")
    signing.declare_void(supervisor, complete, "Liste unleserlich (5.3.6)")
    after = {row.number: row.values["points"] for row in standings.compute(complete.match.tournament).rows}
    points = dict(
        zip(range(1, 5), [complete.table.seats.get(position=p).points for p in range(1, 5)], strict=True)
    )
    for position, number in enumerate(numbers, start=1):
        assert after[number] == before[number] - points[position]
    with pytest.raises(ServiceError, match="ungültig"):
        sheet_service.save_entry(
            referee, complete, Game(1, Contract.WENZ, 1, result=Result.WON), None, replace=True
        )
    # visibly: the printed sheet says so above its struck-through games

    complete.refresh_from_db()
    html = printing.render_html([complete], blank=False)
    assert 'class="sheet void"' in html
    text = PdfReader(io.BytesIO(printing.scoresheets_pdf([complete], blank=False))).pages[0].extract_text()
    assert "für ungültig erklärt (Liste unleserlich (5.3.6))" in " ".join(text.split())


def test_signing_through_the_page(complete, referee, supervisor, client, signature_png):

    url = reverse("referee:sheet", args=[complete.match.tournament.slug, 1, 1])
    client.force_login(referee)
    page = client.get(url).content.decode()
    assert 'class="signature-pad"' in page and "signature-pad.js" in page
    for position in (1, 2, 3, 4):
        complete.refresh_from_db()
        fields = {"action": "sign", "sheet": complete.pk, "position": position, "image": signature_png()}
        refused = client.post(url, fields)  # without the page's version a stale page is not seen
        assert refused.status_code == 400 and "Seite neu laden" in refused.content.decode()
        response = client.post(url, {**fields, "version": complete.version})
        assert response.status_code == 302
    page = client.get(url).content.decode()
    complete.refresh_from_db()
    assert complete.digest in page and "Unterschrieben und gesperrt" in page
    fourth = complete.signatures.get(position=4).name
    assert f"Platz 4, {fourth}, am Bildschirm" in html.unescape(page)  # the history says who signed
    assert 'name="notation"' not in page  # no more entry
    assert 'value="delete"' not in page and "?edit=" not in page  # nor change or delete offered
    response = client.post(
        url,
        {
            "action": "game",
            "sheet": complete.pk,
            "version": complete.version,
            "number": 3,
            "notation": "re13+",
            "replace": "on",
        },
    )
    assert "gesperrt" in response.content.decode()
    client.force_login(supervisor)
    client.post(
        url,
        {
            "action": "correct",
            "sheet": complete.pk,
            "version": complete.version,
            "number": 3,
            "notation": "re13+",
            "reason": "Zahlendreher",
        },
    )
    page = client.get(url).content.decode()
    assert "Spiel 3, berichtigt von AUF: Zahlendreher" in page
    assert 'value="delete"' not in page and "?edit=" not in page  # a supervisor corrects instead
    assert complete.entries.get(number=3).points == (1, -1, 1, -1)


def test_empty_pad_is_refused_on_the_page(complete, referee, client):

    url = reverse("referee:sheet", args=[complete.match.tournament.slug, 1, 1])
    client.force_login(referee)
    response = client.post(
        url, {"action": "sign", "sheet": complete.pk, "position": 1, "image": "", "version": complete.version}
    )
    assert "Die Unterschrift fehlt." in response.content.decode()
    assert not complete.signatures.exists()


def test_a_signed_sheet_still_counts_in_the_standings(complete, referee, sign):
    """Signing confirms the points; it must not take them away (5.3.2, 5.4.1)."""
    tournament = complete.match.tournament
    before = [(r.number, r.key) for r in standings.compute(tournament).rows]
    sign(referee, complete)
    assert [(r.number, r.key) for r in standings.compute(tournament).rows] == before
    for status in ("open", "complete", "signed"):
        Scoresheet.objects.filter(pk=complete.pk).update(status=status)
        written_around_the_services(tournament)
        assert [(r.number, r.key) for r in standings.compute(tournament).rows] == before


def test_a_huge_signature_image_is_refused_before_decoding(complete, referee):
    image = Image.new("1", (13000, 13000), 0)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    with pytest.raises(ServiceError, match="nicht gelesen"):
        signing.sign_with_pad(referee, complete, 1, data, complete.version)


def test_the_scan_is_for_staff_only(complete, referee, foreign_organiser, client, settings, tmp_path):

    settings.PRIVATE_ROOT = tmp_path
    scan = SimpleUploadedFile("liste.jpg", b"\xff\xd8\xff\xe0 scan", content_type="image/jpeg")
    signing.record_paper_signatures(referee, complete, scan, complete.version)
    url = reverse("referee:scan", args=[complete.match.tournament.slug, 1, 1])
    assert client.get(url).status_code == 302  # to log in
    client.force_login(foreign_organiser)
    assert client.get(url).status_code == 403
    client.force_login(referee)
    response = client.get(url)
    assert response.status_code == 200 and b"".join(response.streaming_content).endswith(b"scan")
    assert response["Content-Disposition"].startswith("attachment;")  # never a page of this site
    assert response["Content-Security-Policy"].startswith("sandbox")
    assert (response["Content-Type"], response["X-Content-Type-Options"]) == ("image/jpeg", "nosniff")
    board = reverse("referee:board", args=[complete.match.tournament.slug, 1])
    assert "state-signed" in client.get(board).content.decode()


def test_forms_of_a_stale_page_are_refused(complete, referee, supervisor, client, sign, signature_png):
    """Two supervisors correct the same signed sheet from pages loaded at the same version: the
    second is told, instead of silently winning (issue 13). The same for voiding and signing."""
    sheet = sign(referee, complete)
    url = reverse("referee:sheet", args=[sheet.match.tournament.slug, 1, 1])
    client.force_login(supervisor)
    loaded_at = sheet.version
    first = {"action": "correct", "sheet": sheet.pk, "version": loaded_at, "number": 2, "notation": "rg13+"}
    client.post(url, {**first, "reason": "Zahlendreher"})
    second = {**first, "notation": "re13-", "reason": "anders gesehen"}
    text = client.post(url, second, follow=True).content.decode()
    assert "Inzwischen hat jemand anderes diese Spielliste gespeichert" in text
    assert [c.reason for c in sheet.corrections] == ["Zahlendreher"]
    text = client.post(
        url, {"action": "void", "sheet": sheet.pk, "version": loaded_at, "reason": "x"}, follow=True
    ).content.decode()
    assert "Inzwischen hat jemand anderes" in text
    sheet.refresh_from_db()
    assert sheet.status == "signed"


def test_every_signature_and_scan_is_in_the_log(complete, referee, sign):
    sign(referee, complete, positions=(1, 2))
    actions = list(
        complete.log.filter(action="sheet.sign").order_by("id").values_list("data__seat", flat=True)
    )
    assert actions == [1, 2]


def test_a_game_changed_at_the_desk_after_signatures_withdraws_them(played, sheet_of, referee, sign):
    from tournament.models import LogEntry, Signature
    from tournament.results import services, writing
    from tournament.results.store import to_engine

    sheet = sign(referee, sheet_of(played, 1, 1), positions=(1, 2, 3))
    assert sheet.status == "complete"
    stored = sheet.entries.get(number=32)
    as_it_was = to_engine(stored, services.approvals_of(sheet), played.rules, sheet.size)
    # Entered again as it was: nothing that was signed changed, the signatures stay.
    assert services.enter(referee, sheet, as_it_was, sheet.version, replace=True).withdrawn == []
    sheet.refresh_from_db()
    assert sheet.signatures.count() == 3
    changed = next(
        game
        for game in (
            Game(32, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON),
            Game(32, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.LOST),
        )
        if game != as_it_was
    )
    entered = services.enter(referee, sheet, changed, sheet.version, replace=True)
    assert len(entered.withdrawn) == 3 and not Signature.objects.filter(scoresheet=sheet).exists()
    assert LogEntry.objects.filter(scoresheet=sheet, action="sheet.signatures_withdrawn").count() == 1
    sheet = sign(referee, sheet, positions=(1, 2, 3, 4))
    assert sheet.status == "signed"  # all four signed the sheet as it is now
    # Approvals and deletions withdraw them too; a sheet with none to withdraw writes no line.
    assert writing.withdraw_signatures(referee, sheet) == []


def test_a_substitute_taking_a_seat_withdraws_the_signatures_given(
    played, sheet_of, referee, organiser, sign
):
    """The sheet is signed again with the substitute's name on his seat (5.2.11, 5.3.2)."""
    from tournament.models import LogEntry

    sheet = sign(referee, sheet_of(played, 1, 1), positions=(1, 2))
    player = sheet.table.seats.get(position=2).participant
    substitutes.substitute(organiser, player, "Ersatz, Sepp", from_match=1, from_game=1)
    assert not sheet.signatures.exists()
    log = LogEntry.objects.get(scoresheet=sheet, action="sheet.signatures_withdrawn")
    assert log.data["seats"] == [1, 2]
    sheet = sign(referee, sheet, positions=(1, 2, 3, 4))
    assert sheet.status == "signed" and "Ersatz, Sepp" in sheet.signatures.get(position=2).name
