"""The table's phone in a real browser (issue 16): a whole sheet by taps, an approval called
from the table and answered by the supervisor in a second browser, games typed without a
connection and a reload, four signatures and the lock."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

from tournament.models import ApprovalCall, GameEntry, PhoneReceipt, Scoresheet
from tournament.results.sheet import sheet_view

pytestmark = pytest.mark.django_db(transaction=True)


def _tap(browser, css: str, fits, moves: bool = True) -> None:
    """Tap the first button under ``css`` whose text fits, and wait for the panel to move on."""

    def drawn(driver):
        return driver.find_element(By.ID, "step").get_attribute("data-drawn")

    def tapped(driver):
        button = next((b for b in driver.find_elements(By.CSS_SELECTOR, css) if fits(b.text.strip())), None)
        if button is None:
            return False
        before = drawn(driver)
        button.click()  # a stale button (the panel drawn again) is looked for again
        return before

    try:
        before = browser.wait_for(tapped)
        if moves:
            browser.wait_for(lambda d: drawn(d) != before, 5)
    except Exception:
        browser.driver.save_screenshot("/tmp/tap-failed.png")
        print(browser.driver.find_element(By.TAG_NAME, "body").text)
        raise


def tap(browser, text: str, moves: bool = True) -> None:
    """Tap the entry panel's button with this text."""
    _tap(browser, "#step button", lambda shown: shown == text, moves)


def tap_starting(browser, text: str) -> None:
    """Tap the entry panel's button whose text starts with this one ("2 ·", "Herz-Tout")."""
    _tap(browser, "#step button", lambda shown: shown.startswith(text))


def tap_seat(browser, position: int) -> None:
    _tap(browser, "#step .seats button", lambda shown: shown.startswith(f"{position} ·"))


def sauspiel(browser, suit: str, declarer: int, partner: int, won: bool, level: str = "keins") -> None:
    tap(browser, f"Sauspiel {suit}")
    tap_seat(browser, declarer)
    tap_seat(browser, partner)
    tap(browser, "gewonnen" if won else "verloren")
    tap(browser, level)


def wait_stored(browser, sheet, count: int, seconds: float = 20) -> None:
    """Wait for the page to show every game sent and confirmed, then look in the database (the
    test's SQLite in memory is not read while the live server writes)."""
    browser.wait_for(lambda d: not d.find_element(By.ID, "queue").is_displayed(), seconds)
    browser.wait_for(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sheet tr[data-game]")) == count, seconds
    )
    assert GameEntry.objects.filter(scoresheet=sheet).count() == count


def open_table(phone, sheet) -> None:
    phone.get(f"/tisch/{sheet.code}/")
    phone.wait_text("#sheet .keeper", "Schreiber")


GAMES = [  # (suit, declarer, partner, won, level): 32 Sauspiele, none needs approval
    (
        ("Eichel", "Gras", "Schellen")[n % 3],
        n % 4 + 1,
        (n + 1) % 4 + 1,
        n % 3 != 0,
        ("keins", "Schneider", "keins", "Schwarz")[n % 4],
    )
    for n in range(32)
]


def test_a_whole_sheet_by_taps_at_phone_width(phone, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    open_table(phone, sheet)
    assert "gibt" in phone.find("#sheet thead").text  # the dealer of the next game is marked
    for number, (suit, declarer, partner, won, level) in enumerate(GAMES[:5], start=1):
        phone.wait_text("#entry-title", f"Spiel {number}")
        sauspiel(phone, suit, declarer, partner, won, level)
    wait_stored(phone, sheet, 5)
    phone.screenshot("table-phone-5-games")
    # Change game 3 from its row; afterwards the panel is back at the next new game.
    phone.find("#sheet tr[data-game='3']").click()
    tap(phone, "ändern")
    phone.wait_text("#entry-title", "Spiel 3 ändern")
    sauspiel(phone, "Gras", 2, 4, False)
    phone.wait_text("#entry-title", "Spiel 6")
    phone.wait_text("#sheet tr[data-game='3']", "verloren")
    wait_stored(phone, sheet, 5)
    assert GameEntry.objects.get(scoresheet=sheet, number=3).declarer == 2
    for number, (suit, declarer, partner, won, level) in enumerate(GAMES[5:], start=6):
        phone.wait_text("#entry-title", f"Spiel {number}")
        sauspiel(phone, suit, declarer, partner, won, level)
    wait_stored(phone, sheet, 32, seconds=40)
    phone.wait_text(".final", "Endstand")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.COMPLETE
    assert PhoneReceipt.objects.filter(scoresheet=sheet).count() == 33
    # the phone shows the totals the desk computes
    view = sheet_view(sheet)
    footer = phone.find("#sheet tfoot").text
    for total in view.totals:
        assert str(total) in footer
    assert "0 ✓" in footer
    phone.screenshot("table-phone-complete")


def test_an_approval_called_from_the_table(phone, desk, drawn, sheet_of, supervisor):
    sheet = sheet_of(drawn, 1, 1)
    desk.login(supervisor)
    desk.get(f"/referee/{drawn.slug}/match/1/")
    desk.wait_text(".calls", "Kein Tisch wartet")
    open_table(phone, sheet)
    sauspiel(phone, "Eichel", 1, 3, True)  # a Tout in game 1 would count as a plain Solo (5.2.15)
    wait_stored(phone, sheet, 1)
    tap(phone, "Herz-Tout")
    tap_seat(phone, 2)
    phone.wait_text("#step", "Turnierleitung")
    for card in ("EO", "GO", "HO", "SO", "EU", "GU", "HA", "H10"):
        tap(phone, card, moves=False)
    tap(phone, "Turnierleitung rufen")
    phone.wait_text("#step", "wartet auf die Turnierleitung")  # the panel waits, no contract to tap
    assert not phone.driver.find_elements(By.CSS_SELECTOR, "#step .sauspiel")
    # the supervisor's board shows the call by itself
    desk.wait_text(".calls", "Tisch 1 (Durchgang 1)", seconds=15)
    desk.screenshot("table-call-on-board")
    desk.driver.find_element(By.CSS_SELECTOR, ".call-item button.approve").click()
    desk.wait_text(".calls", "genehmigt")
    # the table sees the answer within seconds and enters the result
    phone.wait_text("#answer", "genehmigt von", seconds=15)
    phone.wait_text("#step", "genehmigt")
    tap(phone, "Ergebnis eintragen")
    tap(phone, "gewonnen")
    wait_stored(phone, sheet, 2)
    entry = GameEntry.objects.get(scoresheet=sheet, number=2)
    assert entry.contract == "solo_tout" and entry.approved and not entry.struck
    call = ApprovalCall.objects.get(scoresheet=sheet)
    assert call.status == "approved" and call.hand
    phone.screenshot("table-approved-tout")


def test_games_typed_without_a_connection_are_sent_once(phone, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    open_table(phone, sheet)
    driver = phone.driver
    driver.set_network_conditions(offline=True, latency=0, download_throughput=-1, upload_throughput=-1)
    sauspiel(phone, "Eichel", 1, 3, True)
    sauspiel(phone, "Gras", 2, 4, False, "Schneider")
    phone.wait_text("#queue", "2 Spiele noch nicht gesendet")
    phone.wait_text("#net", "keine Verbindung")
    phone.screenshot("table-offline")
    assert not GameEntry.objects.filter(scoresheet=sheet).exists()
    driver.refresh()  # the games wait in the browser's storage, also over a reload
    phone.wait_text("#queue", "2 Spiele noch nicht gesendet")
    driver.delete_network_conditions()
    wait_stored(phone, sheet, 2, seconds=20)
    assert list(GameEntry.objects.filter(scoresheet=sheet).values_list("number", "declarer")) == [
        (1, 1),
        (2, 2),
    ]
    assert PhoneReceipt.objects.filter(scoresheet=sheet).count() == 2
    phone.wait_text("#entry-title", "Spiel 3")


def draw_signature(phone) -> None:
    canvas = phone.find("#sign canvas")
    ActionChains(phone.driver).move_to_element_with_offset(canvas, -60, 0).click_and_hold().move_by_offset(
        40, -20
    ).move_by_offset(50, 25).move_by_offset(30, -10).release().perform()


def sign_in_turn(phone, positions) -> None:
    """Those seats sign on the pad in turn; each next player takes the phone once the
    signature before his is stored (the last one locks the sheet)."""
    for count, position in enumerate(positions, start=1):
        phone.wait_text("#sign-title", f"Platz {position}:")
        draw_signature(phone)
        phone.find("#sign-save").click()
        if count < len(positions):
            phone.wait_for(lambda d, n=count: d.find_element(By.CSS_SELECTOR, ".final").text.count("✓") == n)


def test_four_signatures_at_the_table_lock_the_sheet(phone, played, sheet_of):
    sheet = sheet_of(played, 1, 1)
    open_table(phone, sheet)
    phone.wait_text(".final", "Endstand")
    # The final totals stand above the pad: the players check the sheet, then sign.
    assert phone.driver.execute_script(
        "return document.querySelector('#sign').firstElementChild.classList.contains('final')"
    )
    phone.screenshot("table-sign")
    sign_in_turn(phone, (1, 2, 3, 4))
    phone.wait_text("#sheet", "gesperrt")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED and sheet.digest
    assert not phone.find("#entry").is_displayed() and not phone.find("#sign").is_displayed()
    phone.screenshot("table-signed")
    phone.driver.refresh()
    phone.wait_text("body", "unterschrieben und gesperrt")
    assert "Platz 1" in phone.find("body").text  # the totals as signed


def test_a_table_of_five_by_taps_where_the_dealer_sits_out(phone, tournament, organiser, add_players):
    """Nine players: table 2 seats five (issue 18). The dealer is not offered as declarer or
    partner, the sitting-out seat's 0 is shown, 40 games make the sheet, five sign."""
    from tournament.draw import services as draw_service

    add_players(tournament, 9)
    draw_service.draw_all(organiser, tournament, seed="fuenf")
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=1, table__number=2)
    assert sheet.size == 5
    open_table(phone, sheet)
    assert len(phone.driver.find_elements(By.CSS_SELECTOR, "#sheet thead th.p")) == 5
    for number in range(1, 41):
        dealer = (number - 1) % 5 + 1
        playing = [seat for seat in range(1, 6) if seat != dealer]
        phone.wait_text("#entry-title", f"Spiel {number}")
        if number == 1:  # seat 1 deals game 1: he is not offered as declarer
            tap(phone, "Sauspiel Eichel")
            offered = [
                b.text.split(" ·")[0]
                for b in phone.driver.find_elements(By.CSS_SELECTOR, "#step .seats button")
            ]
            assert offered == ["2", "3", "4", "5"]
            tap_seat(phone, 2)
            offered = [
                b.text.split(" ·")[0]
                for b in phone.driver.find_elements(By.CSS_SELECTOR, "#step .seats button")
            ]
            assert offered == ["3", "4", "5"]  # neither the declarer nor the dealer as partner
            tap_seat(phone, 3)
            tap(phone, "gewonnen")
            tap(phone, "keins")
            phone.screenshot("table-of-five-game-1")
        else:
            sauspiel(phone, "Gras", playing[number % 4], playing[(number + 1) % 4], number % 3 != 0)
    wait_stored(phone, sheet, 40, seconds=60)
    first = GameEntry.objects.get(scoresheet=sheet, number=1)
    assert first.points == (0, 1, 1, -1, -1)
    assert "0" in phone.find("#sheet tr[data-game='1'] td.out").text
    phone.wait_text(".final", "Endstand")
    sign_in_turn(phone, (1, 2, 3, 4, 5))
    phone.wait_text("#sheet", "gesperrt")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED and sheet.signatures.count() == 5


def test_a_game_typed_offline_under_a_renewed_code_stays_in_view(phone, drawn, sheet_of, referee):
    """The walk's table 2: a game waits offline, the desk renews the code, the phone comes back.
    The game is refused as not stored, with the reason; after a reload of the old address the
    page says the code was renewed and still lists the game, until the players remove the list.
    A long surname heads its column on lines of its own at phone width, within the column (a
    word longer than the column cut short rather than broken inside, issue 28)."""
    from tournament.models import Participant
    from tournament.tablephone.supervisor import renew_code

    sheet = sheet_of(drawn, 1, 1)
    seat = sheet.table.seats.get(position=2)
    Participant.objects.filter(pk=seat.participant_id).update(name="Franz Xaver Großhuber-Weißenbacher")
    open_table(phone, sheet)
    head = phone.driver.find_elements(By.CSS_SELECTOR, "#sheet thead th.p .who")[1]  # seat 2
    assert phone.driver.execute_script(
        "const e = arguments[0]; return e.textContent.trim() === 'Großhuber-Weißenbacher'"
        " && e.closest('th').scrollWidth <= e.closest('th').clientWidth",
        head,
    )
    driver = phone.driver
    driver.set_network_conditions(offline=True, latency=0, download_throughput=-1, upload_throughput=-1)
    sauspiel(phone, "Eichel", 1, 3, True)
    phone.wait_text("#queue", "noch nicht gesendet")
    old = sheet.code
    renew_code(referee, sheet)
    driver.delete_network_conditions()
    phone.wait_text("#refusals", "Nicht gespeichert", seconds=20)
    phone.wait_text("#refusals", "erneuert")
    phone.wait_text("#net", "Code ungültig")
    assert not GameEntry.objects.filter(scoresheet=sheet).exists()
    phone.screenshot("table-code-renewed")
    phone.get(f"/tisch/{old}/")
    phone.wait_text("main", "erneuert")
    phone.wait_text("#leftover", "Spiel 1")
    phone.screenshot("table-code-renewed-reload")
    phone.find("#leftover button").click()
    phone.driver.refresh()
    phone.wait_text("main", "erneuert")
    assert not phone.find("#leftover").is_displayed()


def test_signatures_are_given_again_after_a_change_and_every_phone_sees_the_lock(
    phone, desk, played, sheet_of
):
    """5.3.2 as the walk found it missing: a game deleted after seat 1 signed withdraws the
    signature (the table is told), the game entered again, all four sign the sheet as it is; a
    second phone at the table, which signed nothing, shows the signed totals by itself."""
    sheet = sheet_of(played, 1, 1)
    open_table(phone, sheet)
    desk.get(f"/tisch/{sheet.code}/")  # the second phone
    desk.wait_text(".final", "Endstand")
    sign_in_turn(phone, (1,))
    phone.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, ".final").text.count("✓") == 1)
    phone.find("#sheet tr[data-game='32']").click()
    tap(phone, "löschen", moves=False)
    phone.wait_for(expected_conditions.alert_is_present())
    phone.driver.switch_to.alert.accept()  # "Spiel 32 löschen? Der Verlauf behält es."
    phone.wait_text("#answer", "bitte neu unterschreiben", seconds=15)
    assert not sheet.signatures.exists()
    phone.screenshot("table-signature-withdrawn")
    phone.wait_text("#entry-title", "Spiel 32")
    sauspiel(phone, "Gras", 1, 2, True)
    phone.wait_text(".final", "Endstand")
    sign_in_turn(phone, (1, 2, 3, 4))
    phone.wait_text("#sheet", "gesperrt")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED and sheet.signatures.count() == 4
    desk.wait_text("#sheet", "gesperrt", seconds=25)  # its next poll
    assert not desk.find("#sign").is_displayed() and "Endstand" not in desk.find("body").text
    assert "unterschrieben" in desk.find("#net").text
    desk.screenshot("table-second-phone-locked")


def test_the_phone_names_the_later_solo_its_change_strikes(phone, drawn, sheet_of, referee, enter):
    """Issue 26: game 2 changed into a Solo makes game 6's Wenz the fifth Solo without approval
    (5.2.16): the phone's answer says so under the message, and the row shows it struck."""
    from tournament.results.notation import typed_game

    from .test_phone_effects import SHEET

    sheet = sheet_of(drawn, 1, 1)
    for number, notation in SHEET.items():
        enter(referee, sheet, typed_game(notation, number))
    open_table(phone, sheet)
    phone.find("#sheet tr[data-game='2']").click()
    tap(phone, "ändern")
    phone.wait_text("#entry-title", "Spiel 2 ändern")
    tap(phone, "Eichel-Solo")
    tap_seat(phone, 2)
    tap(phone, "gewonnen")
    tap(phone, "keins")
    phone.wait_text("#answer .effects", "Spiel 6", seconds=15)
    told = phone.find("#answer .effects").text
    assert "gestrichen" in told and "Spiel 2" in told.split("Spiel 6", 1)[1]
    assert phone.find("#answer").text.startswith("Spiel 2:")
    phone.wait_text("#sheet tr[data-game='6']", "gestrichen")
    assert GameEntry.objects.get(scoresheet=sheet, number=6).struck
    # the game is crossed out, the rule that struck it is not (the walk found it crossed out too)
    crossed = phone.driver.execute_script(
        "const flag = document.querySelector(\"#sheet tr[data-game='6'] .flag\");"
        "const out = e => getComputedStyle(e).textDecorationLine.includes('line-through');"
        "let e = flag, above = false;"
        "while (e && e.tagName !== 'TABLE') { above = above || out(e); e = e.parentElement; }"
        "return [out(document.querySelector(\"#sheet tr[data-game='6'] .game\")), above];"
    )
    assert crossed == [True, False], crossed
    phone.screenshot("table-effect-struck")
