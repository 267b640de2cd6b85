"""Organisations (issue 29, item 2): the site administrator creates them or approves a request;
their administrators take in members and give the roles of all their tournaments; their pages
under /verein/<slug>/; a tournament is created and imported for one."""

import io
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tournament.errors import ServiceError
from tournament.models import (
    Organisation,
    OrganisationLogEntry,
    OrganisationMember,
    OrganisationRequest,
    Series,
    StaffRole,
    Tournament,
)
from tournament.tournaments import organisation_services as services
from tournament.tournaments import services as tournament_service

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"


@pytest.fixture
def site_admin(make_user):
    return make_user("admin", is_superuser=True, is_staff=True)


def test_the_site_administrator_creates_an_organisation_with_its_first_administrator(
    client, site_admin, make_user
):
    chef = make_user("chef")
    client.force_login(site_admin)
    response = client.post(
        reverse("organisation:create"), {"name": "SK Höhenberg", "slug": "", "admin": "chef"}
    )
    organisation = Organisation.objects.get(name="SK Höhenberg")
    assert response.url == reverse("organisation:members", args=[organisation.slug])
    assert organisation.slug == "sk-hoehenberg"
    assert OrganisationMember.objects.get(organisation=organisation).user == chef
    assert list(organisation.log.values_list("action", flat=True).order_by("id")) == [
        "organisation.create",
        "member.add",
    ]
    # an unknown first administrator or a reserved address: a message, nothing saved
    page = client.post(reverse("organisation:create"), {"name": "X", "slug": "x", "admin": "niemand"})
    assert "niemand" in page.content.decode() and not Organisation.objects.filter(slug="x").exists()
    page = client.post(reverse("organisation:create"), {"name": "X", "slug": "new", "admin": "chef"})
    assert page.status_code == 200 and not Organisation.objects.filter(slug="new").exists()
    with pytest.raises(PermissionDenied):
        services.create_organisation(chef, "Y", "y", "chef")


def test_a_request_is_approved_or_declined_by_the_site_administrator(client, site_admin, make_user):
    asker, other = make_user("wirt"), make_user("kegler")
    client.force_login(asker)
    client.post(
        reverse("organisation:request"), {"name": "Wirtshaus Post", "reason": "Unsere Schafkopfabende"}
    )
    client.force_login(other)
    client.post(reverse("organisation:request"), {"name": "Kegelclub", "reason": "Auch Schafkopf"})
    post_request, kegel = OrganisationRequest.objects.order_by("id")
    with pytest.raises(PermissionDenied):
        services.approve_request(asker, post_request.pk)  # not his to answer
    client.force_login(site_admin)
    page = client.get(reverse("organisation:requests")).content.decode()
    assert "Unsere Schafkopfabende" in page and "Kegelclub" in page
    response = client.post(
        reverse("organisation:requests"), {"approve": post_request.pk, "slug": "po st/"}, follow=True
    )
    assert "Buchstaben, Ziffern und Bindestriche" in response.content.decode()  # nothing created
    assert not Organisation.objects.filter(name="Wirtshaus Post").exists()
    client.post(reverse("organisation:requests"), {"approve": post_request.pk, "slug": "post"})
    client.post(reverse("organisation:requests"), {"decline": kegel.pk})
    post_request.refresh_from_db()
    kegel.refresh_from_db()
    assert post_request.status == "approved" and kegel.status == "declined"
    organisation = Organisation.objects.get(slug="post")
    assert organisation.members.get().user == asker and organisation.members.get().is_admin
    response = client.post(reverse("organisation:requests"), {"approve": kegel.pk}, follow=True)
    assert "bereits beantwortet" in response.content.decode()  # answered once only
    assert set(OrganisationLogEntry.objects.values_list("action", flat=True)) == {
        "organisation.request",
        "organisation.approve",
        "organisation.decline",
    }
    # The site administrator's admin says the actions in words and what they were about.
    log = client.get("/admin/tournament/organisationlogentry/").content.decode()
    assert ">organisation.approve<" not in log and ">Antrag genehmigt: Verein angelegt<" in log
    assert "Wirtshaus Post, wirt, post" in log  # what it was about
    answered = client.get(reverse("organisation:requests")).content.decode()
    # "genehmigt", not the late Solo's "angemeldet" that a plain "approved" is in German (walk)
    assert "Wirtshaus Post (wirt): genehmigt" in answered and "angemeldet" not in answered
    client.force_login(asker)
    own = client.get(reverse("organisation:request")).content.decode()
    assert "Wirtshaus Post: genehmigt" in own and "angemeldet" not in own
    with pytest.raises(ServiceError):
        services.request_organisation(asker, "", "")


def test_administrators_take_in_members_and_keep_one_administrator(client, club_b, make_user):
    make_user("neu")
    client.force_login(club_b.admin)
    url = reverse("organisation:members", args=[club_b.organisation.slug])
    client.post(url, {"username": "neu", "is_admin": "on"})
    assert club_b.organisation.members.get(user__username="neu").is_admin
    admin = club_b.organisation.members.get(user=club_b.admin)
    client.post(url, {"remove": admin.pk})
    assert not club_b.organisation.members.filter(user=club_b.admin).exists()
    client.force_login(club_b.member)
    assert client.get(url).status_code == 403  # a member is no administrator
    last = club_b.organisation.members.get(user__username="neu")
    with pytest.raises(ServiceError):
        services.remove_member(last.user, club_b.organisation, last.pk)
    assert set(club_b.organisation.log.values_list("action", flat=True)) == {"member.add", "member.remove"}


def test_an_administrator_gives_the_roles_of_every_tournament_of_his_organisation(client, club_b, make_user):
    other = tournament_service.create_tournament(club_b.member, name="Vereinsabend", date="2026-12-01")
    assert other.organisation == club_b.organisation
    make_user("schiri-b")
    client.force_login(club_b.admin)  # not on its staff, but its organisation's administrator
    response = client.post(
        reverse("organiser:staff", args=[other.slug]), {"username": "schiri-b", "role": "referee"}
    )
    assert response.status_code == 302
    assert StaffRole.objects.filter(tournament=other, user__username="schiri-b", role="referee").exists()
    assert client.get(reverse("organiser:dashboard", args=[other.slug])).status_code == 200


def test_club_as_staff_and_club_bs_pages_are_strangers(client, club_b, organiser, tournament):
    OrganisationMember.objects.filter(user=organiser).update(is_admin=True)  # club A's administrator
    client.force_login(organiser)
    for name in (
        "organiser:dashboard",
        "organiser:staff",
        "organiser:participants",
        "organiser:take_participants",
    ):
        assert client.get(reverse(name, args=[club_b.tournament.slug])).status_code == 403, name
    assert client.get(reverse("organisation:members", args=[club_b.organisation.slug])).status_code == 403
    client.force_login(club_b.admin)
    for name in ("organiser:dashboard", "organiser:staff", "organiser:participants", "organiser:edit"):
        assert client.get(reverse(name, args=[tournament.slug])).status_code == 403, name
    with pytest.raises(PermissionDenied):
        tournament_service.create_tournament(
            club_b.admin, organisation=tournament.organisation, name="X", date="2026-12-01"
        )


def test_the_organisations_page_lists_its_tournaments_and_series(client, club_b, tournament):
    Series.objects.create(name="Berg-Cup", slug="berg-cup", organisation=club_b.organisation)
    page = client.get(reverse("organisation:page", args=["sk-bergfeld"])).content.decode()
    assert "Bergfelder Schafkopf" in page and "Berg-Cup" in page
    assert "Kirchweih-Schafkopf" not in page  # club A's
    assert client.get("/verein/sk-bergfeld/").status_code == 200
    assert client.get(reverse("organisation:page", args=["nirgends"])).status_code == 404
    listed = client.get(reverse("organisation:list")).content.decode()
    assert "SK Bergfeld" in listed and "/verein/verein/" in listed
    home = client.get(reverse("home")).content.decode()
    assert 'href="/verein/sk-bergfeld/"' in home  # beside each tournament, the site has several
    assert client.get(reverse("public:overview", args=[tournament.slug])).status_code == 200  # as before


def test_a_member_of_two_chooses_where_a_new_tournament_belongs(client, club_b, organiser):
    OrganisationMember.objects.create(organisation=club_b.organisation, user=organiser)
    client.force_login(organiser)
    page = client.get(reverse("organiser:create")).content.decode()
    assert 'name="organisation"' in page
    client.post(
        reverse("organiser:create"),
        {
            "organisation": club_b.organisation.pk,
            "name": "Zweiter",
            "date": "2026-12-01",
            "profile": "schafkopfschule-2007",
            "tables_of_five": "on",
        },
    )
    assert Tournament.objects.get(name="Zweiter").organisation == club_b.organisation
    with pytest.raises(ServiceError):
        tournament_service.create_tournament(organiser, name="Ohne", date="2026-12-01")


def test_import_tournament_names_the_organisation_where_there_are_several(db):
    out = io.StringIO()
    call_command("import_tournament", str(DEMO), "--slug", "eins", stdout=out)  # the only one: made
    assert Tournament.objects.get(slug="eins").organisation.slug == "verein"
    Organisation.objects.create(name="SK Bergfeld", slug="sk-bergfeld")
    with pytest.raises(CommandError, match="--organisation"):
        call_command("import_tournament", str(DEMO), "--slug", "zwei", stdout=out)
    with pytest.raises(CommandError, match="nirgends"):
        call_command(
            "import_tournament", str(DEMO), "--slug", "zwei", "--organisation", "nirgends", stdout=out
        )
    call_command(
        "import_tournament", str(DEMO), "--slug", "zwei", "--organisation", "sk-bergfeld", stdout=out
    )
    assert Tournament.objects.get(slug="zwei").organisation.slug == "sk-bergfeld"


def test_the_demo_goes_into_the_organisation_of_a_fresh_site(db):
    call_command("load_demo", stdout=io.StringIO())
    (organisation,) = Organisation.objects.all()
    assert (
        organisation.slug == "verein" and organisation.tournaments.count() == Tournament.objects.count() > 0
    )


def test_generate_tournament_names_the_organisation_where_there_are_several(club, club_b):
    with pytest.raises(CommandError, match="--organisation"):
        call_command("generate_tournament", "--players", "8", "--slug", "gen", stdout=io.StringIO())
    call_command(
        "generate_tournament",
        "--players",
        "8",
        "--slug",
        "gen",
        "--organisation",
        "sk-bergfeld",
        stdout=io.StringIO(),
    )
    assert Tournament.objects.get(slug="gen").organisation == club_b.organisation


def test_a_member_of_two_chooses_the_organisation_of_an_imported_document(client, club_b, organiser):
    OrganisationMember.objects.create(organisation=club_b.organisation, user=organiser)
    client.force_login(organiser)
    url = reverse("organiser:import_document")
    client.post(url, {"file": SimpleUploadedFile("demo.json", DEMO.read_bytes())})
    page = client.get(url).content.decode()
    assert 'name="organisation"' in page and "SK Bergfeld" in page
    response = client.post(url, {"action": "import"}, follow=True)  # none chosen: which?
    assert "mehreren Vereinen" in response.content.decode() and not Tournament.objects.filter(
        slug="kirchweih-2026"
    )
    response = client.post(url, {"action": "import", "organisation": "nirgends"}, follow=True)
    assert "einen Ihrer Vereine" in response.content.decode()
    client.post(url, {"action": "import", "organisation": "sk-bergfeld"})
    assert Tournament.objects.get(slug="kirchweih-2026").organisation == club_b.organisation


def test_the_new_organisation_form_says_its_address_in_words(client, site_admin):
    """A help text is printed unescaped by Django's form templates: "<short name>" was taken for a
    tag and the page read "Seine Adresse /verein//" (walk, issue 29)."""
    client.force_login(site_admin)
    text = client.get(reverse("organisation:create"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Seine Adresse: /verein/ und der Kurzname" in text and "/verein//" not in text


def test_the_site_administrator_creates_the_first_tournament_of_a_fresh_site(client, django_user_model):
    """A club's laptop: no organisation yet, the superuser's first tournament makes it (the hall
    test found a 403 on the new-tournament page of a fresh site)."""
    admin = django_user_model.objects.create_superuser("chef", "chef@example.org", "x")
    client.force_login(admin)
    assert client.get(reverse("organiser:create")).status_code == 200
    response = client.post(
        reverse("organiser:create"),
        {"name": "Kirta-Turnier", "slug": "kirta", "date": "2026-12-06", "profile": "schafkopfschule-2007"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    (organisation,) = Organisation.objects.all()
    assert Tournament.objects.get(slug="kirta").organisation == organisation


def test_only_its_administrators_rename_an_organisation(client, club_b, club):
    client.force_login(club_b.admin)
    url = reverse("organisation:members", args=[club.slug])
    assert client.post(url, {"rename": "1", "name": "Gekapert"}).status_code == 403
    club.refresh_from_db()
    assert club.name == "Verein"
    own = reverse("organisation:members", args=[club_b.organisation.slug])
    client.post(own, {"rename": "1", "name": "SK B"})
    club_b.organisation.refresh_from_db()
    assert club_b.organisation.name == "SK B"
    entry = club_b.organisation.log.get(action="organisation.rename")
    assert entry.data == {"name": "SK B", "before": "SK Bergfeld"} and entry.user == club_b.admin
    with pytest.raises(PermissionDenied):
        services.rename_organisation(club_b.admin, club, "Gekapert")


def test_the_site_administrators_home_page_tells_of_open_requests(client, site_admin, make_user):
    """Walk: a request waited unseen unless the site administrator looked under /verein/."""
    client.force_login(site_admin)
    assert "offener Antrag" not in client.get(reverse("home")).content.decode()
    services.request_organisation(make_user("wirt"), "Wirtshaus Post", "Schafkopfabende")
    home = client.get(reverse("home")).content.decode()
    assert "1 offener Antrag auf einen Verein" in home and reverse("organisation:requests") in home
    client.force_login(make_user("gast"))
    assert "Antrag" not in client.get(reverse("home")).content.decode()  # his business only


def test_a_new_series_from_a_clubs_page_comes_with_that_club_chosen(client, club, club_b):
    chef = club_b.admin
    OrganisationMember.objects.create(organisation=club, user=chef, is_admin=True)
    client.force_login(chef)
    page = client.get(reverse("organisation:page", args=[club_b.organisation.slug])).content.decode()
    assert f"{reverse('series:create')}?organisation=sk-bergfeld" in page
    form = client.get(reverse("series:create"), {"organisation": "sk-bergfeld"}).content.decode()
    assert f'<option value="{club_b.organisation.pk}" selected>SK Bergfeld</option>' in form
    blank = client.get(reverse("series:create")).content.decode()
    assert '<option value="" selected>(bitte wählen)</option>' in blank


def test_the_asker_learns_the_answer_by_e_mail(
    client, site_admin, make_user, mailoutbox, django_capture_on_commit_callbacks, settings, caplog
):
    """Approved: a mail with the new organisation's page; declined: a mail saying so; without an
    address on his account, none; a mail server that fails costs the mail, not the answer."""
    asker = make_user("wirt", email="wirt@example.org")
    silent = make_user("kegler")
    asked = [
        services.request_organisation(user, name, "Schafkopf")
        for user, name in ((asker, "Wirtshaus Post"), (asker, "Stammtisch"), (silent, "Kegelclub"))
    ]
    client.force_login(site_admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("organisation:requests"), {"approve": asked[0].pk, "slug": "post"})
        client.post(reverse("organisation:requests"), {"decline": asked[1].pk})
        client.post(reverse("organisation:requests"), {"decline": asked[2].pk})
    assert [mail.to for mail in mailoutbox] == [["wirt@example.org"], ["wirt@example.org"]]
    approved, declined = mailoutbox
    assert approved.subject == "Schafkopf-Turnier: Wirtshaus Post ist angelegt"
    assert "http://testserver/verein/post/" in approved.body and "Administrator" in approved.body
    assert "Stammtisch ist abgelehnt" in declined.body
    settings.EMAIL_BACKEND = "tests.tournament.tournaments.test_organisations.FailingBackend"
    late = services.request_organisation(asker, "Spätschoppen", "Schafkopf")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("organisation:requests"), {"approve": late.pk, "slug": "spaet"})
    assert response.status_code == 302 and Organisation.objects.filter(slug="spaet").exists()
    assert "could not be mailed" in caplog.text


class FailingBackend:
    """A mail that fails after the commit, with whatever error: the answer stands."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ValueError("whatever a mail server or a message raises")
