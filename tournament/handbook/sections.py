"""The handbook's parts and where each page of the site finds its help ("Hilfe" in the header).

Each part is one template per language (``handbook/de/<part>.html``, ``handbook/en/<part>.html``);
``HELP`` names for every address of the site the part and the anchor that explains it, so that a
new page without a line here fails ``tests/tournament/handbook/test_sections.py``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# slug: title, in the order of the handbook's contents.
PARTS = {
    "veranstalter": _("The organiser"),
    "turnierleitung": _("Referee and supervisor"),
    "spieler": _("The players"),
    "einrichten": _("Setting up the laptop or the server"),
    "meldungen": _("Every message and what to do"),
}

ORGANISER = {
    "organiser:import_document": "veranstalter#sicherung",
    "organiser:create": "veranstalter#anlegen",
    "organiser:export": "veranstalter#sicherung",
    "organiser:dashboard": "veranstalter#uebersicht",
    "organiser:edit": "veranstalter#anlegen",
    "organiser:staff": "veranstalter#helfer",
    "organiser:export_xlsx": "veranstalter#ausdrucke",
    "organiser:print_scoresheets": "veranstalter#ausdrucke",
    "organiser:rankings_doc": "veranstalter#ausdrucke",
    "organiser:certificates_doc": "veranstalter#ausdrucke",
    "organiser:participants": "veranstalter#teilnehmer",
    "organiser:participant_add": "veranstalter#teilnehmer",
    "organiser:participant_status": "veranstalter#teilnehmer",
    "organiser:import": "veranstalter#teilnehmer",
    "organiser:export_participants": "veranstalter#teilnehmer",
    "organiser:participant": "veranstalter#teilnehmer",
    "organiser:substitute": "turnierleitung#ersatzspieler",
    "organiser:draw": "veranstalter#auslosung",
    "organiser:redraw_ask": "veranstalter#auslosung",
    "organiser:redraw_withdraw": "veranstalter#auslosung",
    "organiser:redraw_answer": "turnierleitung#neuauslosung",
    "organiser:checkin": "veranstalter#einlass",
    "organiser:checkin_one": "veranstalter#einlass",
    "organiser:confirmations": "veranstalter#einlass",
    "organiser:downloads": "veranstalter#ausdrucke",
    "organiser:download_file": "veranstalter#ausdrucke",
    "organiser:download_cancel": "veranstalter#ausdrucke",
    "organiser:download_delete": "veranstalter#ausdrucke",
    "organiser:table_list": "veranstalter#ausdrucke",
    "organiser:seat_list": "veranstalter#ausdrucke",
    "organiser:table_list_doc": "veranstalter#ausdrucke",
    "organiser:seat_list_doc": "veranstalter#ausdrucke",
    "organiser:standings": "veranstalter#wertung",
    "organiser:match_standings": "veranstalter#wertung",
    "organiser:prizes": "veranstalter#preise",
    "organiser:prizes_doc": "veranstalter#preise",
    "organiser:teams": "veranstalter#mannschaften",
    "organiser:team": "veranstalter#mannschaften",
    "organiser:team_lots": "veranstalter#mannschaften",
    "organiser:team_rankings_doc": "veranstalter#mannschaften",
    "organiser:take_participants": "veranstalter#saison",
    "organiser:add_to_register": "veranstalter#saison",
    "organiser:tournament_series": "veranstalter#saison",
    "series:list": "veranstalter#saison",
    "series:standings": "veranstalter#saison",
    "series:create": "veranstalter#saison",
    "series:register": "veranstalter#saison",
    "series:manage": "veranstalter#saison",
    "series:document": "veranstalter#saison",
    "series:xlsx": "veranstalter#saison",
    "series:consent": "veranstalter#zustimmung",
    # the organisations (issue 29): the club's page and its members
    "organisation:list": "veranstalter#verein",
    "organisation:page": "veranstalter#verein",
    "organisation:members": "veranstalter#mitglieder",
}

REFEREE = {
    "referee:board": "turnierleitung#tafel",
    "referee:sheet": "turnierleitung#eintragen",
    "referee:discarded_sheet": "turnierleitung#neuauslosung",
    "referee:handcheck": "turnierleitung#genehmigen",
    "referee:scan": "turnierleitung#unterschreiben",
    "referee:sheet_pdf": "turnierleitung#unterschreiben",
    "referee:table_cards": "turnierleitung#tischcodes",
    "referee:calls": "turnierleitung#genehmigen",
    "referee:answer_call": "turnierleitung#genehmigen",
    "referee:renew_code": "turnierleitung#tischcodes",
    "seal_key": "turnierleitung#siegel",
}

PLAYERS = {
    "table:enter": "spieler#tischcode",
    "table:sheet": "spieler#eintragen",
    "table:part": "spieler#eintragen",
    "public:overview": "spieler#wertung",
    "public:standings": "spieler#wertung",
    "public:match_standings": "spieler#wertung",
    "public:participant": "spieler#wertung",
    "public:team_standings": "spieler#wertung",
    "public:projector": "veranstalter#beamer",
    "public:qr": "veranstalter#beamer",
    "series:stats": "spieler#saison",
    "series:player": "spieler#spielerseite",
}

SETUP = {
    "home": "einrichten#anmelden",
    "login": "einrichten#anmelden",
    "password_change": "einrichten#anmelden",
    "password_change_done": "einrichten#anmelden",
    "password_reset": "einrichten#anmelden",
    "password_reset_done": "einrichten#anmelden",
    "password_reset_confirm": "einrichten#anmelden",
    "password_reset_complete": "einrichten#anmelden",
    "hall_ca": "einrichten#https",
    # the site administrator creates an organisation or answers a request for one
    "organisation:create": "einrichten#vereine",
    "organisation:request": "einrichten#vereine",
    "organisation:requests": "einrichten#vereine",
}

# Addresses that are no page a person reads: files, redirects, posts, the handbook itself.
NO_PAGE = {
    "favicon",
    "manage_folder",
    "referee_folder",
    "public_folder",
    "hall_ca_root",
    "set_language",
    "logout",
    "table:service_worker",
    "table:send",
    "public:qr_svg",
    "handbook:index",
    "handbook:part",
    "handbook:card",
}

HELP: dict[str, str | None] = {**ORGANISER, **REFEREE, **PLAYERS, **SETUP, **dict.fromkeys(NO_PAGE)}


def help_target(url_name: str | None) -> tuple[str, str] | None:
    """The part and the anchor of the handbook that explain the page named ``url_name``."""
    target = HELP.get(url_name or "")
    if not target:
        return None
    part, _hash, anchor = target.partition("#")
    return part, anchor
