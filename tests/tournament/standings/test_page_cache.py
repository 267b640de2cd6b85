"""The two layers that keep the standings (issue 26): the visitors' pages, in the cache the
server's processes share (through the cache folder and through a real Redis server), and the
memo of computed standings in each process."""

import gzip
import shutil
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory
from django.utils import translation
from django.utils.http import urlencode
from django.utils.module_loading import import_string

from scoring import Contract, Game, Result, Suit
from tournament.results import integrity
from tournament.standings import drawn as drawn_lines
from tournament.standings import lots as lots_service
from tournament.standings import standings
from tournament.standings.views import page_key

pytestmark = pytest.mark.django_db


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A Redis server of the tests' own, on a free port, without persistence (never the
    machine's: the cache's ``clear`` empties a whole Redis database)."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (make install brings Debian's): Redis not tested")
    port = _free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _attempt in range(50):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2) as connection:
                    connection.sendall(b"PING\r\n")
                    if connection.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.skip(f"the tests' redis-server did not answer on port {port} within 5 s: Redis not tested")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def redis_cache(url: str, backend: str = "tournament.redis_cache.RedisCache") -> dict:
    return {
        "BACKEND": backend,
        "LOCATION": url,
        "KEY_PREFIX": "schafkopf",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def test_the_redis_cache_keeps_one_client_and_djangos_own_reads_what_it_wrote(redis_url):
    """tournament/redis_cache.py: one Redis client per process, not one per call, from any
    thread; keys and values as Django's own backend has them."""
    ours = caches_from(redis_cache(redis_url))
    django_own = caches_from(redis_cache(redis_url, "django.core.cache.backends.redis.RedisCache"))
    page = (("t", 3), 12.5, b"<p>page</p>", b"packed")
    ours.set("page", page, 60)
    assert django_own.get("page") == page
    django_own.set("count", 7, 60)
    assert ours.get("count") == 7 and ours.incr("count") == 8 and django_own.get("count") == 8
    clients = []
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _n: clients.append(ours._cache.get_client()) or ours.get("page"), range(40)))
    assert {id(client) for client in clients} == {id(ours._cache.get_client(write=True))}
    assert django_own._cache.get_client() is not django_own._cache.get_client()  # Django's: one per call
    ours.delete("page")
    assert django_own.get("page") is None


def caches_from(config: dict):
    """A cache backend made from a configuration as Django's ``caches`` makes it."""
    params = {name: value for name, value in config.items() if name not in ("BACKEND", "LOCATION")}
    return import_string(config["BACKEND"])(config["LOCATION"], params)


@pytest.fixture(params=["folder", "redis"])
def backend(request, settings):
    """The default cache as the hall has it (a folder), and as several machines share it."""
    if request.param == "redis":
        settings.CACHES = {"default": redis_cache(request.getfixturevalue("redis_url"))}
        cache.clear()
    return request.param


def kept(tournament, path: str) -> bytes | None:
    """The page kept for a visitor of ``path`` (German, whole page), if any."""
    request = RequestFactory().get(path)
    with translation.override("de"):
        page = cache.get(page_key(request, standings.identity(standings.results_key(tournament))))
    return page[2] if page else None


def table(page: bytes) -> str:
    text = page.decode()
    return text[text.index("<table") : text.index("</table>")]


GAME = Game(1, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON)


def test_a_visitors_page_is_kept_whole_and_served_from_the_cache(
    backend, client, drawn, organiser, django_assert_max_num_queries
):
    url = f"/t/{drawn.slug}/standings/"
    first = client.get(url).content
    assert kept(drawn, url) == first
    with django_assert_max_num_queries(2):  # the tournament and its results version
        assert client.get(url).content == first
    assert b"csrfmiddlewaretoken" not in first  # the same page for every visitor
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")  # kept gzipped too
    assert packed["Content-Encoding"] == "gzip" and gzip.decompress(packed.content) == first
    assert "Accept-Encoding" in packed["Vary"]
    # Staff see their own name and log-out on it: never a page kept for visitors.
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert organiser.get_username() in page and "csrfmiddlewaretoken" in page


def test_right_after_a_result_the_kept_page_is_not_given(
    backend, client, drawn, referee, sheet_of, enter, settings, django_assert_max_num_queries
):
    """Not stale: a kept page is given while the results it shows are the tournament's; with
    STANDINGS_FRESH_SECONDS 0, the very next visitor after a result gets it."""
    settings.STANDINGS_FRESH_SECONDS = 0
    url = f"/t/{drawn.slug}/standings/"
    before = client.get(url).content
    # No result since: the kept page (and, at 0 s, the stored totals read again: 2 queries).
    with django_assert_max_num_queries(4):
        assert client.get(url).content == before
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    after = client.get(url).content
    assert table(after) != table(before)
    assert kept(drawn, url) == after


def test_a_result_shows_at_once_where_the_page_is_older_than_the_window(
    backend, client, drawn, organiser, referee, sheet_of, enter, settings, monkeypatch
):
    """Not stale: a page drawn longer ago than STANDINGS_FRESH_SECONDS is not given once a
    result came, and the standings are computed for it; staff see every result at once."""
    url = f"/t/{drawn.slug}/standings/"
    before = client.get(url).content
    clock = time.time
    monkeypatch.setattr(time, "time", lambda: clock() + settings.STANDINGS_FRESH_SECONDS + 1)
    enter(referee, sheet_of(drawn, 1, 1), GAME)  # the window is over; then a result comes
    after = client.get(url).content
    assert table(after) != table(before)
    assert kept(drawn, url) == after
    staff = client.__class__()
    staff.force_login(organiser)
    enter(referee, sheet_of(drawn, 1, 1), Game(2, Contract.WENZ, 2, result=Result.WON))
    staff_page = staff.get(f"/manage/{drawn.slug}/standings/").content
    assert table(staff_page) != table(after)  # the very next request, however fresh the visitors' page


def test_while_results_keep_coming_a_visitors_page_may_be_seconds_old(
    client, drawn, referee, sheet_of, enter, settings
):
    """Issue 16: with phones entering games every second, a visitor's page is drawn at most every
    STANDINGS_FRESH_SECONDS; after that the next visitor gets the new results."""
    settings.STANDINGS_FRESH_SECONDS = 3600
    url = f"/t/{drawn.slug}/standings/"
    before = client.get(url).content
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    assert client.get(url).content == before  # within the window: the kept page
    settings.STANDINGS_FRESH_SECONDS = 0  # always the newest
    assert client.get(url).content != before


def test_without_results_a_page_is_drawn_once_however_long_it_is_asked_for(
    client, drawn, settings, monkeypatch, django_assert_max_num_queries
):
    """The hall between results (make bench's hall-standings): every phone's page from the
    cache, not drawn again every STANDINGS_FRESH_SECONDS."""
    clock = time.time
    url = f"/t/{drawn.slug}/standings/"
    first = client.get(url, {"q": "7"}).content
    monkeypatch.setattr(time, "time", lambda: clock() + 20 * settings.STANDINGS_FRESH_SECONDS)
    with django_assert_max_num_queries(2):
        assert client.get(url, {"q": "7"}).content == first


def test_a_page_drawn_from_older_standings_is_kept_as_of_them(
    client, drawn, referee, sheet_of, enter, settings, monkeypatch
):
    """Within STANDINGS_FRESH_SECONDS a visitor's page may be drawn from standings computed before
    the last result; it is kept only until those are STANDINGS_FRESH_SECONDS old, so that the
    last game of the tournament is not unseen for twice the window."""
    settings.STANDINGS_FRESH_SECONDS = 100
    clock = time.time
    later = {"seconds": 0.0}
    monkeypatch.setattr(time, "time", lambda: clock() + later["seconds"])
    url = f"/t/{drawn.slug}/standings/"
    client.get(url)  # the standings computed now
    later["seconds"] = 60
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    stale = client.get(url, {"sort": "rank"}).content  # another page, drawn from them
    later["seconds"] = 95
    assert client.get(url, {"sort": "rank"}).content == stale  # kept: they are 95 s old
    later["seconds"] = 101  # they are too old now, though the page was drawn 41 s ago
    assert table(client.get(url, {"sort": "rank"}).content) != table(stale)


def test_only_the_addresses_the_pages_link_to_are_kept(client, drawn):
    url = f"/t/{drawn.slug}/standings/"
    folder = Path(cache._dir)

    def pages():
        return list(folder.glob("*.djcache"))

    client.get(url, {"page": "1", "sort": "-points"})
    assert len(pages()) == 1
    made_up_addresses = (
        {"x": "1"},
        {"sort": ",".join(["points"] * 30)},
        {"sort": "junk1"},
        {"page": ["1", "2"]},
        {"page": "01"},
        {"q": "x" * 41},
        *({"sort": ",".join(["name"] * n) + ",-points"} for n in range(1, 30)),
    )
    for made_up in made_up_addresses:
        assert client.get(url, made_up).status_code == 200
    assert len(pages()) == 1  # drawn, not kept


@pytest.fixture(params=["folder", "redis"])
def failing(request, settings, tmp_path):
    """A cache that fails: a folder that cannot be made (a file stands in its place), or a Redis
    that is down (nothing listens on its port)."""
    if request.param == "folder":
        blocker = tmp_path / "a file"
        blocker.write_text("not a folder")
        settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": str(blocker / "cache")}}
    else:
        settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{_free_port()}/0")}
    return request.param


def test_a_cache_that_fails_costs_no_visitor_his_page(failing, client, drawn, caplog):
    url = f"/t/{drawn.slug}/standings/"
    for _visitor in range(3):
        response = client.get(url)
        assert response.status_code == 200 and b"<table" in response.content
    # Said once, then left alone for a while: not asked (and failing) for every visitor.
    assert caplog.text.count("The cache of the standings pages failed") == 1


def test_the_memo_keeps_the_newest_standings_only_and_is_bounded(
    drawn, referee, sheet_of, enter, monkeypatch
):
    """The other layer: per process, the newest standings of each tournament, match and lots or
    none, never the versions before (2 MB each at 2,000 players), and so many keys at most."""
    first = standings.compute(drawn)
    assert standings.compute(drawn) is first  # the same results: computed once
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    newest = standings.compute(drawn)
    assert newest is not first and [row.key for row in newest.rows] != [row.key for row in first.rows]
    assert list(standings._MEMO.values()) == [newest]
    monkeypatch.setattr(standings, "MEMO_SIZE", 3)
    for match in (1, 2):
        standings.compute(drawn, match)
        standings.compute(drawn, match, use_lots=False)
    assert len(standings._MEMO) == 3
    assert list(standings._MEMO)[-1] == (*standings.identity(standings.results_key(drawn)), 2, False)


def test_with_redis_the_computed_standings_are_shared_by_every_process(
    backend, drawn, referee, sheet_of, enter, monkeypatch
):
    """Issue 29.3: with Redis, standings one process computed are taken by another (here: this
    process with its memo emptied) on the memo's terms, not computed again; with the cache folder
    each process computes its own."""
    computed = []
    real = standings._compute
    monkeypatch.setattr(standings, "_compute", lambda *args: computed.append(args) or real(*args))
    first = standings.compute(drawn)
    standings._MEMO.clear()  # another process
    again = standings.compute(drawn)
    shared = backend == "redis"
    assert len(computed) == (1 if shared else 2)
    assert [row.key for row in again.rows] == [row.key for row in first.rows]
    assert again.results_key == first.results_key
    # A result later: the shared standings are no longer the newest and are computed again, at
    # once for staff (fresh 0), and for visitors once they are STANDINGS_FRESH_SECONDS old.
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    standings._MEMO.clear()
    newest = standings.compute(drawn)
    assert len(computed) == (2 if shared else 3) and newest.results_key != first.results_key
    standings._MEMO.clear()
    assert standings.compute(drawn, fresh=10).results_key == newest.results_key
    assert len(computed) == (2 if shared else 4)


# A visitor's search of the standings answered from the frame and lines drawn once per standings
# computation (issue 29.4, tournament/standings/drawn.py).

PART = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "standings"}


def searched(client, url: str, query: str):
    """A player's phone polling his search: the part htmx swaps, the search as a form sends it."""
    return client.get(url, QUERY_STRING=urlencode({"q": query}), **PART)


SEARCHES = (
    "1",
    "7",
    "12",
    "3",
    "huber",
    "Huber",
    "müller",
    "Muller",
    "Sepp Huber",
    "a",
    "e",
    "nobody",
    "1 2",
)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_search_from_the_drawn_lines_is_the_part_drawn_afresh_byte_for_byte(
    backend, client, played, settings, language
):
    """Every search, by number and by name (umlauts either way, several words, nothing found),
    overall and for a match, in both languages: the same bytes with and without the drawn
    lines."""
    client.cookies["django_language"] = language
    for url in (f"/t/{played.slug}/standings/", f"/t/{played.slug}/standings/2/"):
        for query in SEARCHES:
            settings.STANDINGS_DRAWN_SEARCHES = True
            answer = searched(client, url, query)
            settings.STANDINGS_DRAWN_SEARCHES = False
            cache.clear()
            usual = searched(client, url, query)
            assert answer.status_code == usual.status_code == 200
            assert answer.content == usual.content, (url, query)
            assert f'id="p{query}"'.encode() in answer.content or not query.isdigit()


def test_searches_take_their_lines_without_drawing_the_part_again(
    backend, client, drawn, referee, sheet_of, enter, settings, django_assert_max_num_queries
):
    """The part is drawn once for the standings (its frame); every other player's search then
    picks its lines from it, with no template drawn and no query beyond the tournament's; a
    result (here at once: STANDINGS_FRESH_SECONDS 0) draws it again, with the new points. A
    running tournament's part polls under the player's search."""
    settings.STANDINGS_FRESH_SECONDS = 0
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    url = f"/t/{drawn.slug}/standings/"
    first = searched(client, url, "1")
    assert first.templates  # the frame, drawn
    assert f'hx-get="{url}?q=1"'.encode() in first.content
    for number in range(2, 9):
        with django_assert_max_num_queries(3):  # the tournament, its stored totals (0 s: read again)
            answer = searched(client, url, str(number))
        assert not answer.templates and f'id="p{number}"'.encode() in answer.content
        assert f'hx-get="{url}?q={number}"'.encode() in answer.content
        assert f"?q={number}&amp;sort=".encode() in answer.content  # the header's links keep the search
    line = answer.content.decode().split(f'id="p{8}"')[1].split("</tr>")[0]
    enter(referee, sheet_of(drawn, 1, 1), Game(2, Contract.WENZ, 2, result=Result.WON))
    after = searched(client, url, "8")
    assert after.templates and after.content.decode().split('id="p8"')[1].split("</tr>")[0] != line


def test_what_the_drawn_lines_cannot_say_goes_the_usual_way(client, drawn, organiser, settings):
    """Nothing found (the page says so), a search sent otherwise than a form sends it, another
    parameter, the whole page, a logged-in organiser, the setting off: drawn the usual way."""
    url = f"/t/{drawn.slug}/standings/"
    assert searched(client, url, "1").templates  # the frame drawn: from now on the lines are kept
    assert not searched(client, url, "2").templates
    nothing = searched(client, url, "nobody")
    assert nothing.templates and b'id="p' not in nothing.content
    assert client.get(url, QUERY_STRING="q=%32", **PART).templates  # "2", written otherwise
    sorted_by_rank = client.get(url, {"q": "3", "sort": "rank"}, **PART)
    assert sorted_by_rank.templates and b'id="p3"' in sorted_by_rank.content
    whole = client.get(url, {"q": "3"})
    assert whole.templates and b"<html" in whole.content
    client.force_login(organiser)
    assert searched(client, url, "4").templates
    client.logout()
    assert not searched(client, url, "4").templates
    settings.STANDINGS_DRAWN_SEARCHES = False
    assert searched(client, url, "5").templates and searched(client, url, "5").status_code == 200


def test_with_redis_the_drawn_lines_are_shared_by_every_process(backend, client, drawn):
    """Issue 29.3: with Redis another process (here: this one with its memo emptied) takes the
    frame and lines one drew; with the cache folder each process draws its own."""
    url = f"/t/{drawn.slug}/standings/"
    assert searched(client, url, "1").templates
    drawn_lines._MEMO.clear()
    assert bool(searched(client, url, "2").templates) == (backend == "folder")


def test_with_redis_the_stored_totals_are_read_once_for_every_process(
    backend, drawn, referee, sheet_of, enter, settings, monkeypatch
):
    """Issue 29.4: with Redis, the stored totals one process read (``standings.stored``) are
    taken by the others until they are STANDINGS_FRESH_SECONDS old, and the next read, by
    whichever process, compares with what the newest saw: a tie-break count changed behind the
    app's back is found by another process than the one that saw the sheet before."""
    settings.STANDINGS_FRESH_SECONDS = 10
    sheet = sheet_of(drawn, 1, 1)
    enter(referee, sheet, GAME)
    reads = []
    real = integrity.read
    monkeypatch.setattr(integrity, "read", lambda pk: reads.append(pk) or real(pk))
    created = standings.results_key(drawn)[1][1]

    def another_process():
        standings._STORED.clear()
        integrity._SEEN.clear()

    first = standings.stored(drawn.pk, created)
    another_process()
    assert standings.stored(drawn.pk, created) == first
    assert len(reads) == (1 if backend == "redis" else 2)
    with connection.cursor() as cursor:
        sql = "UPDATE tournament_seat SET sie = sie + 1 WHERE table_id = %s AND position = 1"
        cursor.execute(sql, [sheet.table_id])
    clock = time.time
    monkeypatch.setattr(time, "time", lambda: clock() + 11)
    monotonic = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: monotonic() + 11)
    another_process()  # a third process, which never saw the sheet
    found = standings.stored(drawn.pk, created)
    assert found.differing == (((1, 1),) if backend == "redis" else ())


def test_each_address_keeps_its_newest_frame_only_and_a_seed_is_never_taken_for_the_search(
    client, drawn, organiser, referee, sheet_of, enter, settings
):
    """The memo of frames keeps the newest per address and language, never the versions
    before (a line for each of 2,000 players is 1 MB); a lot's seed, the part's only free text,
    that happens to be the placeholder sends the search the usual way, right."""
    settings.STANDINGS_FRESH_SECONDS = 0
    url = f"/t/{drawn.slug}/standings/"
    searched(client, url, "1")
    enter(referee, sheet_of(drawn, 1, 1), GAME)
    searched(client, url, "2")
    assert len(drawn_lines._MEMO) == 1
    lots_service.draw_lots(organiser, drawn, seed=f"a {drawn_lines.PLACEHOLDER} seed")
    answer = searched(client, url, "3")
    assert answer.templates and f"a {drawn_lines.PLACEHOLDER} seed".encode() in answer.content
    assert b'id="p3"' in answer.content
