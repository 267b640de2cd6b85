"""What to do when a service refuses (``tournament.errors.ServiceError``): every refusal the desk,
the door, the organiser's pages and the table phone can show, keyed by its English source text
(the message id of the German catalogue). ``tests/tournament/handbook/test_handbook.py`` reads
every ``ServiceError(_("…"))`` and ``CodeRefused`` of the app and fails for one without its line here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .codes import Advice

RELOAD = Advice(_("Reload the page (pull it down on the phone) and do it again; nothing was saved."))
NOTHING_TO_DO = Advice(_("Nothing to do: the page already shows what you wanted."))
ASK_ADMIN = Advice(_("Ask the site administrator: he creates the users. Then enter the user name again."))
TYPO = Advice(_("Correct what you typed and save again; nothing was saved."))
NEXT_FREE = Advice(_("Check the game number: the field offers the next free game."))
LOCKED = Advice(
    _(
        "The sheet is signed: a mistake is corrected by the supervisor with a reason, on the sheet at the "
        "desk."
    ),
    "5.3.4",
)
VOID = Advice(_("The sheet was declared void: its games count for nothing. Ask the supervisor."), "5.3.6")
REDRAW = Advice(
    _(
        "The organiser asks for the redraw on the draw page; the supervisor confirms on the board "
        "of the match, with the tick that the results are discarded."
    )
)
SIGNED_MATCH = Advice(
    _("A match with a signed or void sheet is never drawn again: keep the draw, or help with a substitute."),
    "5.3.5",
)
SIGN_AGAIN = Advice(
    _("Sign in the white box with a finger or the mouse, then press Save signature."), "5.3.2"
)
SCAN = Advice(_("Take a photo of the signed paper list with the phone, or scan it as a PDF, and attach it."))
NEW_CODE = Advice(_("The table was drawn again: print the new table cards and use the new code."))
MEMBER = Advice(
    _(
        "Ask an administrator of your club to take you in as a member (Members on the club's page); a "
        "club new to the site is requested on the page Organisations."
    )
)
SHORT_NAME = Advice(_("Choose another short name, e.g. with the town added; nothing was saved."))
SUBSTITUTE = Advice(
    _("A substitute takes over a start number from a game of a match whose sheet is still open."), "5.2.11"
)

SERVICES = {
    "%(name)s (no. %(number)s) has withdrawn: set him to playing first.": Advice(
        _("On the participant list set his status back to playing, then check him in.")
    ),
    "Match %(match)s is not drawn yet.": Advice(_("Draw the match first on the draw page.")),
    "Match %(match)s has no results: it can be drawn again without the supervisor.": Advice(
        _("Draw the match again yourself on the draw page.")
    ),
    "The redraw of match %(match)s is already asked for: the supervisor confirms or declines it.": REDRAW,
    "Nobody asks for a redraw of match %(match)s (any more).": REDRAW,
    "Match %(number)s is already drawn: the profile cannot have fewer matches.": Advice(
        _("Keep the number of matches; the rules are fixed once a match is drawn.")
    ),
    "Match %(match)s cannot be drawn again: the scoresheet of table %(tables)s is signed or declared void "
    "(5.3.5).": SIGNED_MATCH,
    "Match %(match)s already has results: only the supervisor can confirm that they are discarded for a new "
    "draw.": REDRAW,
    "Only the supervisor can discard entered results: ask for the redraw of the match on the draw page, and "
    "the supervisor confirms it there.": REDRAW,
    "Match %(match)s does not exist: the tournament has %(count)s matches.": NEXT_FREE,
    "The uploaded document is gone: upload it again.": Advice(_("Upload the file again on the import page.")),
    "You may not create tournaments.": MEMBER,
    "Start number %(number)s is already seated in a draw: it stays as it is.": Advice(
        _("Someone seated keeps his start number; for a player who leaves, enter a substitute.")
    ),
    "Unknown status.": RELOAD,
    "%(count)s rows would be refused: nothing was imported.": Advice(
        _("The preview names every refused row and why: correct them in the file and upload it again.")
    ),
    "Unknown participant.": RELOAD,
    "The team's name is missing.": TYPO,
    "A team's name is at most %(limit)s characters.": TYPO,
    "There is already a team “%(name)s”.": Advice(
        _("Choose another name, or place the players in that team.")
    ),
    "The team “%(name)s” belongs to another tournament.": RELOAD,
    "Start number %(number)s (%(name)s) is a participant of another tournament: only this tournament's "
    "participants can be in its teams.": TYPO,
    "Choose at least one participant.": TYPO,
    "Match %(n)s is not drawn (any more).": Advice(_("Draw the match, then print again.")),
    "The prize list was not saved.": Advice(
        _("The form names the line that is wrong: correct it and save again.")
    ),
    "Type the game in short (e.g. re13+) or choose contract and declarer.": Advice(
        _("Type the game in the field (e.g. re13+) or open Or choose from lists.")
    ),
    "This scoresheet is void: nothing can be entered.": VOID,
    "This scoresheet is signed and locked: only a supervisor can correct it, with a reason (5.3.4).": LOCKED,
    "Game %(game)s does not exist: a match has %(count)s games.": NEXT_FREE,
    "Game %(game)s is already entered: %(entry)s. Change it instead.": Advice(
        _("To change the game, tap it on the phone, or type ä and its number at the desk (ä2).")
    ),
    "Game %(game)s is not entered: there is nothing to change.": NEXT_FREE,
    "Game %(game)s is not entered: there is nothing to delete.": NOTHING_TO_DO,
    "A Sauspiel needs no approval.": Advice(
        _("Play the Sauspiel and enter it; only Solos, Touts and Sie are approved.")
    ),
    "Game %(game)s is already approved: %(contract)s, by %(who)s at %(time)s.": NOTHING_TO_DO,
    "Game %(game)s has no approval.": NOTHING_TO_DO,
    "Table %(table)s already has games: only empty scoresheets are filled.": NOTHING_TO_DO,
    "Game %(game)s does not exist: a match at a table of five has %(count)s games.": NEXT_FREE,
    "Table %(table)s is not open for entries.": VOID,
    "Table %(table)s: %(problem)s": Advice(
        _("The rest of the message names the problem: see its entry below.")
    ),
    "The scan must be a photo (JPEG, PNG, HEIC or WebP) or a PDF; %(name)s is none of these.": SCAN,
    "This scoresheet is already signed and locked.": LOCKED,
    "Only a complete scoresheet is signed: every game entered and every checksum zero "
    "(5.3.2, 5.3.3).": Advice(
        _("Enter the missing games and make every round sum to zero; then sign."), "5.3.2"
    ),
    "Seat %(seat)s does not exist.": RELOAD,
    "The signature is missing.": SIGN_AGAIN,
    "The signature could not be read.": SIGN_AGAIN,
    "The signature is empty: please sign in the box.": SIGN_AGAIN,
    "%(name)s (seat %(seat)s) has already signed.": NOTHING_TO_DO,
    "Attach a photo or scan of the signed paper list.": SCAN,
    "Some players have already signed on the pad: the others sign there too.": SIGN_AGAIN,
    "The scan %(name)s is larger than %(mb)s MB.": SCAN,
    "Only a signed scoresheet is corrected; before signing the game is simply changed.": Advice(
        _("Change the game on the sheet (ä and its number at the desk, a tap on the phone).")
    ),
    "A correction needs its reason (5.3.4).": Advice(
        _("Write why the game is corrected, e.g. the players' names who agree."), "5.3.4"
    ),
    "Game %(game)s is not entered: there is nothing to correct.": NEXT_FREE,
    "Say why the scoresheet is void (5.3.6).": Advice(_("Write the reason, e.g. illegible list."), "5.3.6"),
    "This scoresheet is already void.": NOTHING_TO_DO,
    "This scoresheet belongs to a draw that was discarded: it is kept as it was and takes "
    "nothing more.": Advice(_("Open the sheet of the current draw from the board of the match.")),
    "The substitute's name is missing.": TYPO,
    "Start number %(number)s already has a substitute from match %(match)s, game %(game)s (%(name)s): a "
    "further substitute can only take over after that.": SUBSTITUTE,
    "Match %(match)s, table %(table)s is %(state)s with the names it had: a substitute can take over only in "
    "a match whose sheet is still open (5.3.2).": SUBSTITUTE,
    "%(name)s is younger than %(age)s on the tournament day (5.2.12).": Advice(
        _("Only players of the minimum age play; check the date of birth."), "5.2.12"
    ),
    "Start number %(number)s already has a substitute from match %(match)s, game %(game)s.": SUBSTITUTE,
    "This table was drawn again after the page was loaded: please check the players and enter "
    "again.": NEW_CODE,
    "“%(slug)s” is an address of the site itself: choose another short name.": TYPO,
    "Another series has the short name “%(slug)s”.": TYPO,
    "Say how many of the best results count.": TYPO,
    "Unknown awards: %(keys)s.": RELOAD,
    "Participants are taken from another tournament.": RELOAD,
    "There is no tie to decide by lot.": NOTHING_TO_DO,
    "Table %(table)s, game %(game)s: this call was already answered (%(status)s).": NOTHING_TO_DO,
    "The change came without the sheet's version: please reload the page.": RELOAD,
    "Seat %(seat)s deals game %(game)s and sits it out: he cannot play it.": Advice(
        _("At a table of five the dealer sits out: choose one of the four who play.")
    ),
    "Name the trump suit of the Solo.": Advice(
        _("Tap the suit of the Solo: Eichel, Gras, Herz or Schellen.")
    ),
    "Game %(game)s is already entered: the approval is asked before the game is played.": Advice(
        _("Ask the supervisor to the table: he records the approval at the desk if he gives it."), "5.2.14"
    ),
    "Game %(game)s is already approved: %(contract)s, by %(who)s.": NOTHING_TO_DO,
    "Game %(game)s has no call waiting.": NOTHING_TO_DO,
    "This scoresheet is signed and locked.": LOCKED,
    "The entry came without a valid key: please reload the page.": RELOAD,
    "Unknown contract.": RELOAD,
    "The cards could not be read.": Advice(_("Tap the eight cards again, or send the call without them.")),
    "Unknown action.": RELOAD,
    "No teams are equal after their points and 5.4.2 counts: there is nothing to decide by "
    "lot.": NOTHING_TO_DO,
    "A seed is at most %(limit)s characters.": TYPO,
    "Scoresheets are signed: the date of the tournament stays as it is (5.3.5).": Advice(
        _("Nothing to do: signed sheets keep the date they were signed for."), "5.3.5"
    ),
    "The short name “%(slug)s” was another tournament's: its links still lead there.": TYPO,
    "The tournament has results: you cannot change your own roles. Another organiser can, and the log keeps "
    "who did.": Advice(_("Ask another organiser of the tournament to change your role.")),
    "There is no role “%(role)s”.": RELOAD,
    "This role no longer exists.": RELOAD,
    "The tournament keeps at least one organiser.": Advice(_("Give another user the organiser role first.")),
    "The rules are fixed since the draw: every scoresheet is played and counted by them. Draw again from "
    "scratch in a new tournament to play by others.": Advice(
        _("Keep the rules, or create a new tournament with other rules and draw it.")
    ),
    "There is no user “%(name)s”: the site administrator creates users.": ASK_ADMIN,
    # The table code on the phone (tournament/tablephone/codes.py, CodeRefused)
    "This table code is unknown: it may be mistyped or renewed by the referee. Scan the code on your table "
    "card or ask the referee.": Advice(
        _("Type the ten letters and digits again from the table card, or scan its QR code.")
    ),
    "Match %(match)s was drawn again: this code of table %(table)s no longer works. Scan the code on your "
    "new table card.": NEW_CODE,
    "The scoresheet of table %(table)s in match %(match)s is signed and locked: it takes no more entries. "
    "Only the supervisor can correct it (5.3.4).": LOCKED,
    "The scoresheet of table %(table)s in match %(match)s was declared void (5.3.6).": VOID,
    "The referee renewed the code of table %(table)s in match %(match)s: this one no longer works. Ask the "
    "referee for the new code.": Advice(_("Ask at the desk for the new code or the new table card.")),
    # The organisations (issue 29): the club's page, its members, a request for a new one
    "Give the organisation a name.": TYPO,
    "A short name has letters, digits and hyphens only, at most 80.": TYPO,
    "Another organisation has the short name “%(slug)s”.": SHORT_NAME,
    "Say the organisation's name and what it is for.": Advice(
        _("Fill in both fields, the name and what it is for, and send again.")
    ),
    "You have three requests open already: wait for the site administrator's answer.": Advice(
        _("Wait for the answer: your requests and their answers are on the page Request an organisation.")
    ),
    "This request was answered already.": Advice(
        _("Nothing to do: the request is listed under Answered, with its answer.")
    ),
    "The organisation keeps at least one administrator.": Advice(
        _("Make another member an administrator first; then change or remove this one.")
    ),
    "This member is no longer in the organisation.": NOTHING_TO_DO,
    "You belong to several organisations: choose the one this is for.": Advice(
        _("Choose the club in the field “organisation” of the form, then save again; nothing was saved.")
    ),
    "The organisation is gone: nothing was saved.": Advice(
        _("Upload the file again and choose an organisation the list offers now.")
    ),
    "A series counts only tournaments of its own organisation.": Advice(
        _("A club's series counts its own tournaments: add the tournament to a series of its club.")
    ),
    "Participants are taken from a tournament of the same organisation.": Advice(
        _("Reload the page: it offers your club's own tournaments only.")
    ),
}
