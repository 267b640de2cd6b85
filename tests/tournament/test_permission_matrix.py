"""Every address × method × role against the expected answer (issue 13). A new address without a
line here fails the test: whoever adds a page says who may use it.

Roles, in this order: anonymous, referee, supervisor, organiser, and the organiser of another
tournament; then the administrator of a second organisation (issue 29), who answers as the
organiser of another tournament unless ``CLUB_B`` says otherwise. Answers: 200 shown, 302
redirected (to log in, or after a post), 400 malformed, 403 forbidden, 405 method not allowed."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import get_resolver, reverse
from django.urls.resolvers import URLResolver
from PIL import Image

from tournament.draw import services as draw_service
from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.models import ApprovalCall, OrganisationMember, StaffRole, Team
from tournament.results import signing
from tournament.series.models import Person, Series
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "referee", "supervisor", "organiser", "foreign", "club_b")

# name: (arguments, GET answers, POST answers), each answer string one code per role
STAFF = "302 200 200 200 403"
STAFF_GET_ONLY = "302 405 405 405 403"
ORGANISER = "302 403 403 200 403"
ORGANISER_GET_ONLY = "302 403 403 405 403"
PUBLIC = "200 200 200 200 200"
NO_POST = "405 405 405 405 405"
EXPECTED = {
    "home": ((), PUBLIC, NO_POST),
    "favicon": ((), "301 301 301 301 301", NO_POST),
    "seal_key": ((), PUBLIC, NO_POST),
    # the hall's certificate for phones: only with HALL_TLS=internal, else not found (issue 29)
    "hall_ca": ((), "404 404 404 404 404", NO_POST),
    "hall_ca_root": ((), "404 404 404 404 404", NO_POST),
    "manage_folder": ((), "302 302 302 302 302", NO_POST),
    "referee_folder": ((), "302 302 302 302 302", NO_POST),
    "public_folder": ((), "302 302 302 302 302", NO_POST),
    "organiser:import_document": ((), ORGANISER, ORGANISER),
    "organiser:create": ((), ORGANISER, ORGANISER),
    "organiser:export": (("slug",), ORGANISER, ORGANISER_GET_ONLY),
    "organiser:dashboard": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:edit": (("slug",), ORGANISER, ORGANISER),
    "organiser:staff": (("slug",), ORGANISER, ORGANISER),
    "organiser:export_xlsx": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:print_scoresheets": (("slug", 1, "html"), STAFF, STAFF_GET_ONLY),
    "organiser:rankings_doc": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "organiser:certificates_doc": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "organiser:participants": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:participant_add": (("slug",), ORGANISER, ORGANISER),
    "organiser:participant_status": (("slug",), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "organiser:import": (("slug",), ORGANISER, ORGANISER),
    "organiser:export_participants": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:participant": (("slug", 1), ORGANISER, ORGANISER),
    "organiser:substitute": (("slug", 1), ORGANISER, ORGANISER),
    "organiser:draw": (("slug",), "302 403 200 200 403", "302 403 403 302 403"),
    "organiser:redraw_ask": (("slug", 1), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "organiser:redraw_answer": (("slug", 1), "302 403 405 403 403", "302 403 302 403 403"),
    "organiser:redraw_withdraw": (("slug", 1), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "organiser:checkin": (("slug",), STAFF, "302 403 403 400 403"),
    "organiser:checkin_one": (("slug", 1), STAFF, "302 403 403 400 403"),
    "organiser:confirmations": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "organiser:downloads": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:download_file": (("slug", "job"), STAFF, STAFF_GET_ONLY),
    # before download_delete, which removes the job
    "organiser:download_cancel": (("slug", "job"), "302 405 405 405 403", "302 403 403 302 403"),
    "organiser:download_delete": (("slug", "job"), "302 405 405 405 403", "302 403 403 302 403"),
    "organiser:table_list": (("slug", 1), STAFF, STAFF_GET_ONLY),
    "organiser:seat_list": (("slug",), STAFF, STAFF_GET_ONLY),
    "organiser:table_list_doc": (("slug", 1, "html"), STAFF, STAFF_GET_ONLY),
    "organiser:seat_list_doc": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "organiser:standings": (("slug",), STAFF, "302 403 403 302 403"),
    "organiser:match_standings": (("slug", 1), STAFF, "302 403 403 302 403"),
    "organiser:prizes": (("slug",), STAFF, ORGANISER),
    "organiser:prizes_doc": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "organiser:teams": (("slug",), STAFF, "302 403 403 302 403"),
    "organiser:team": (("slug", "team"), ORGANISER, "302 403 403 302 403"),
    "organiser:team_lots": (("slug",), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "organiser:team_rankings_doc": (("slug", "html"), STAFF, STAFF_GET_ONLY),
    "referee:board": (("slug", 1), STAFF, "302 403 200 403 403"),
    "referee:sheet": (("slug", 1, 1), STAFF, "302 400 400 400 403"),
    "referee:discarded_sheet": (("slug", 2, 1, 1), STAFF, "302 400 400 400 403"),
    "referee:handcheck": (("slug",), "302 403 200 403 403", "302 403 200 403 403"),
    "referee:scan": (("slug", 1, 2), STAFF, STAFF_GET_ONLY),
    "referee:sheet_pdf": (("slug", 1, 1), STAFF, STAFF_GET_ONLY),
    "referee:table_cards": (("slug", 1, "html"), STAFF, STAFF_GET_ONLY),
    "referee:calls": (("slug",), STAFF, STAFF_GET_ONLY),
    "referee:answer_call": (("slug", "call"), "302 403 405 403 403", "302 403 302 403 403"),
    "referee:renew_code": (("slug", 1, 3), "302 405 405 403 403", "302 302 302 403 403"),
    # The table's phone: the code is the credential, no log-in (issue 16).
    "table:enter": ((), PUBLIC, NO_POST),
    "table:service_worker": ((), PUBLIC, NO_POST),
    "table:sheet": (("code",), PUBLIC, NO_POST),
    "table:part": (("code",), PUBLIC, NO_POST),
    "table:send": (("code",), NO_POST, "400 400 400 400 400"),
    "public:overview": (("slug",), PUBLIC, NO_POST),
    "public:qr": (("slug",), PUBLIC, NO_POST),
    "public:qr_svg": (("slug",), PUBLIC, NO_POST),
    "public:standings": (("slug",), PUBLIC, NO_POST),
    "public:match_standings": (("slug", 1), PUBLIC, NO_POST),
    "public:projector": (("slug",), PUBLIC, NO_POST),
    "public:participant": (("slug", 1), PUBLIC, NO_POST),
    "public:team_standings": (("slug",), PUBLIC, NO_POST),
    # The register and series (issue 17): taking participants is the tournament's organiser's;
    # the register and the series span tournaments, so no role grants them but the Django
    # permissions add_person and add_series, which the organiser here also holds (``users``).
    "organiser:take_participants": (("slug",), ORGANISER, ORGANISER),
    "organiser:add_to_register": (("slug",), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "organiser:tournament_series": (("slug",), ORGANISER, "302 403 403 302 403"),
    "series:list": ((), PUBLIC, NO_POST),
    "series:standings": (("cup",), PUBLIC, NO_POST),
    "series:create": ((), ORGANISER, ORGANISER),
    "series:register": ((), ORGANISER, ORGANISER_GET_ONLY),
    "series:manage": (("cup",), ORGANISER, ORGANISER),
    "series:document": (("cup", "html"), ORGANISER, ORGANISER_GET_ONLY),
    "series:xlsx": (("cup",), ORGANISER, ORGANISER_GET_ONLY),
    # The handbook (issue 31): for everyone, the table card as HTML and PDF.
    "handbook:index": ((), PUBLIC, NO_POST),
    "handbook:part": (("spieler",), PUBLIC, NO_POST),
    "handbook:card": (("html",), PUBLIC, NO_POST),
    # issue 30: the season page and a consenting player's page for everyone; the consent the
    # register's managers'
    "series:stats": (("cup",), PUBLIC, NO_POST),
    "series:player": (("person",), PUBLIC, NO_POST),
    "series:consent": (("person",), ORGANISER_GET_ONLY, "302 403 403 302 403"),
    "set_language": ((), "302 302 302 302 302", "302 302 302 302 302"),
    "login": ((), PUBLIC, PUBLIC),
    "logout": ((), NO_POST, "302 302 302 302 302"),
    "password_change": ((), "302 200 200 200 200", "302 200 200 200 200"),
    "password_change_done": ((), "302 200 200 200 200", "302 405 405 405 405"),
    "password_reset": ((), PUBLIC, PUBLIC),
    "password_reset_done": ((), PUBLIC, NO_POST),
    "password_reset_confirm": (("MQ", "x-y"), PUBLIC, PUBLIC),
    "password_reset_complete": ((), PUBLIC, NO_POST),
    # The organisations (issue 29): their list and pages for everyone, a request for anyone
    # signed in, creating one and answering requests for the site administrator only, the
    # members for the organisation's administrators (the organiser here is one of "verein").
    "organisation:list": ((), PUBLIC, NO_POST),
    "organisation:page": (("org",), PUBLIC, NO_POST),
    "organisation:create": ((), "302 403 403 403 403", "302 403 403 403 403"),
    "organisation:request": ((), "302 200 200 200 200", "302 200 200 200 200"),
    "organisation:requests": ((), "302 403 403 403 403", "302 403 403 403 403"),
    "organisation:members": (("org",), ORGANISER, ORGANISER),
}

# Where the administrator of the second organisation answers otherwise than the organiser of
# another tournament: creating a tournament, a series, or reading the register, he does for his
# own organisation (and sees its register only: tests/tournament/tournaments/test_organisations.py).
CLUB_B = {
    "organiser:create": ("200", "200"),
    "organiser:import_document": ("200", "200"),
    "series:create": ("200", "200"),
    "series:register": ("200", "405"),
    "series:consent": ("405", "403"),  # a register's page, but not his register's person
}


def url_names(patterns=None, namespace=None):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace != "admin":  # Django's own, for superusers
                yield from url_names(pattern.url_patterns, pattern.namespace or namespace)
        else:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_every_address_has_its_line():
    assert sorted(url_names()) == sorted(EXPECTED)
    assert set(CLUB_B) <= set(EXPECTED)


def jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (20, 20)).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.fixture
def users(played, referee, supervisor, organiser, foreign_organiser, sheet_of, club_b):
    scan = SimpleUploadedFile("liste.jpg", jpeg(), content_type="image/jpeg")
    paper = sheet_of(played, 1, 2)
    signing.record_paper_signatures(referee, paper, scan, paper.version)
    draw_service.draw_one(COMMAND_LINE, played, 2, seed="neu", discard_results=True)  # a discarded draw
    assert StaffRole.objects.filter(user=foreign_organiser).exclude(tournament=played).exists()
    job = runner.start(played, Job.Kind.RANKINGS, "Rangliste")
    runner.run(job.pk)
    sheet = sheet_of(played, 1, 1)
    call = ApprovalCall.objects.create(scoresheet=sheet, number=5, contract="sie", declarer=2)
    # the organiser administers the organisation (its register and series: issue 29)
    OrganisationMember.objects.filter(user=organiser).update(is_admin=True)
    played.series = Series.objects.create(name="Cup", slug="cup", organisation=played.organisation)
    played.save(update_fields=["series"])
    team = Team.objects.create(tournament=played, name="Moosach")
    return {
        "team": team.pk,
        "person": Person.objects.create(
            name="Huber, Sepp", public_stats=True, organisation=played.organisation
        ).pk,
        "job": job.pk,
        "call": call.pk,
        "code": sheet.code,
        "anonymous": None,
        "referee": referee,
        "supervisor": supervisor,
        "organiser": organiser,
        "foreign": foreign_organiser,
        "club_b": club_b.admin,
    }


def test_every_address_answers_every_role_as_expected(played, users, client):
    found, expected = {}, {}
    assert Job.objects.get(pk=users["job"]).status == "done"
    for name, (arguments, get, post) in EXPECTED.items():
        args = [
            {
                "slug": played.slug,
                "job": users["job"],
                "call": users["call"],
                "code": users["code"],
                "team": users["team"],
                "org": played.organisation.slug,
                "person": users["person"],
            }.get(a, a)
            for a in arguments
        ]
        url = reverse(name, args=args)
        get_codes, post_codes = get.split(), post.split()
        get_codes.append(CLUB_B.get(name, (get_codes[4], post_codes[4]))[0])
        post_codes.append(CLUB_B.get(name, (get_codes[4], post_codes[4]))[1])
        for role, get_code, post_code in zip(ROLES, get_codes, post_codes, strict=True):
            client.logout()
            if users[role] is not None:
                client.force_login(users[role])
            found[(name, role)] = (client.get(url).status_code, client.post(url, {}).status_code)
            expected[(name, role)] = (int(get_code), int(post_code))
    differences = {key: (found[key], expected[key]) for key in found if found[key] != expected[key]}
    assert differences == {}
