"""The load generator of table-entry: one phone per table sending its games as static/js/table.js
does, and the players reading the standings, against the hall server; what they saw."""

import asyncio
import dataclasses
import json
import random
import re
import secrets
import time
from collections import Counter

# A table sends a game every 5 to 10 s, far faster than it plays one: 500 tables offer about
# 67 entries a second, so that the target of 50 a second is tested, not merely approached.
ENTRY_PAUSE = (5.0, 10.0)
RESENT = 0.05  # the share of games whose answer is lost: the phone sends them again, same key
POLL_SECONDS = 10  # static/js/table.js asks for changes every 10 s while no call waits
READ_EVERY = 30  # each player looks at the public standings every 30 s
# The phone's fetch waits for its answer however long it takes; the bench waits this long after
# the measured seconds for the answers still out, then as long again for the games still queued.
GRACE_SECONDS = 20


async def within(coroutines: list, deadline: float) -> None:
    """Run the coroutines together until they are done or the deadline has come; the ones
    still running then are cancelled."""
    tasks = [asyncio.ensure_future(coroutine) for coroutine in coroutines]
    if not tasks:
        return
    _done, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


@dataclasses.dataclass
class TableRun:
    """What the phones and the players saw: latencies of the measured seconds, every game the
    server confirmed, and the errors of the whole run (warm-up included)."""

    measuring: float
    end: float
    entry_times: list[float] = dataclasses.field(default_factory=list)
    entry_log: list[tuple[float, float]] = dataclasses.field(default_factory=list)  # (sent, took)
    poll_times: list[float] = dataclasses.field(default_factory=list)
    read_times: list[float] = dataclasses.field(default_factory=list)
    entries: int = 0  # games confirmed at the first send, sent in the measured seconds
    offered: int = 0  # games first sent in the measured seconds, answered or not
    # (code, game) -> (notation, key): every game sent, and every game the server confirmed
    sent: dict[tuple[str, int], tuple[str, str]] = dataclasses.field(default_factory=dict)
    confirmed: dict[tuple[str, int], tuple[str, str]] = dataclasses.field(default_factory=dict)
    resent: int = 0  # games sent again with the same key after a lost answer
    not_repeated: int = 0  # a resend carried out again instead of answered from its receipt
    unsent: list[tuple[str, dict]] = dataclasses.field(default_factory=list)  # queued at the end
    cut_off: int = 0  # requests still unanswered when the bench stopped waiting for them
    requests: Counter = dataclasses.field(default_factory=Counter)
    errors: Counter = dataclasses.field(default_factory=Counter)
    why: Counter = dataclasses.field(default_factory=Counter)  # the errors that are no cut-off

    def measured(self, started: float) -> bool:
        return self.measuring <= started < self.end


async def table_phones(
    base: str,
    fields: list[tuple[str, list, int]],
    seconds: float,
    warm: float,
    pause: tuple[float, float] = ENTRY_PAUSE,
    connections: int = 0,
    arrive: float = POLL_SECONDS,
    first: tuple[float, float] | None = None,
    pages_open: dict[str, str] | None = None,
) -> TableRun:
    """For each tournament of ``fields`` (slug, the plans of its tables, its players): one
    phone per table, a game every ``pause`` seconds, and the players on its standings, for
    ``warm`` seconds and then the measured ``seconds``; the games still queued at the end are
    sent again until the server answers them, as the phone would. ``connections``: at most
    this many open at once (0: as many as the clients ask for); the tables sit down over the
    first ``arrive`` seconds, and send their first game ``first`` seconds later (by default
    ``pause``). ``pages_open``: the pages are open already (the evening is under way), this
    the etag each phone's page gave it, by its table's code: each phone's first request is its
    poll, and each player's standings page's its htmx poll, at a moment of its own within the
    first 10 s and 30 s, not a whole page."""
    import aiohttp

    begin = time.monotonic()
    run = TableRun(measuring=begin + warm, end=begin + warm + seconds)
    # A browser sends a request again that failed on a connection the server had just closed
    # after its keep-alive (5 s); the bench closes idle connections before the server does.
    connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=4)
    timeout = aiohttp.ClientTimeout(total=None)  # as the phone's fetch: no time limit
    headers = {"Accept-Encoding": "gzip, deflate"}
    async with aiohttp.ClientSession(
        base_url=base, connector=connector, timeout=timeout, headers=headers
    ) as session:

        async def ask(kind: str, method: str, url: str, **options) -> tuple[int | None, bytes, float, float]:
            started = time.monotonic()
            status, body = None, b""
            run.requests[kind] += 1
            try:
                async with session.request(method, url, **options) as response:
                    status, body = response.status, await response.read()
            except (TimeoutError, aiohttp.ClientError) as error:
                run.why[f"{type(error).__name__} {error}"[:70]] += 1
            except asyncio.CancelledError:  # still unanswered when the bench stopped waiting
                run.errors[kind] += 1
                run.cut_off += 1
                raise
            if status is None or not 200 <= status < 300:
                run.errors[kind] += 1
            if status is not None and not 200 <= status < 300:
                run.why[f"HTTP {status}"] += 1
            return status, body, started, time.monotonic() - started

        async def send(code: str, item: dict) -> bool:
            """One game from the queue; False when it stays queued (no answer, or the answer
            was lost on its way back)."""
            payload = {"key": item["key"], "action": "game", "data": item["data"]}
            place = (code, item["data"]["number"])
            run.sent[place] = (item["data"]["notation"], item["key"])
            first = item["answer"] is None and not item["tries"]
            item["tries"] += 1
            if first and run.measured(time.monotonic()):
                run.offered += 1
            status, body, started, took = await ask(
                "entry" if first else "resend",
                "POST",
                f"/tisch/{code}/send",
                json=payload,
                headers={"Accept": "application/json"},
            )
            if status is None or status >= 500:
                return False  # static/js/table.js tries again at its next tick
            try:
                answer = json.loads(body)
            except ValueError:
                run.errors["unreadable"] += 1
                run.why["unreadable"] += 1
                return False
            if first and run.measured(started):
                run.entry_times.append(took)
                run.entry_log.append((started - run.measuring, took))
            before = item["answer"]
            if before is not None and (
                not answer.get("repeated") or (answer.get("ok"), answer.get("version")) != before
            ):
                run.not_repeated += 1
            if not answer.get("ok"):
                if status < 300:
                    run.errors["refused"] += 1
                    run.why["refused"] += 1
                return True
            run.confirmed[place] = run.sent[place]
            if first and run.measured(started):
                run.entries += 1
            if item["lose"] and before is None:
                item["answer"] = (answer.get("ok"), answer.get("version"))
                run.resent += 1
                return False
            item["etag"] = (answer.get("state") or {}).get("etag")
            return True

        async def phone(code: str, games: list[str], chance: random.Random):
            queue: list[dict] = []
            try:
                await table(code, games, chance, queue)
            finally:
                run.unsent += [(code, item) for item in queue]

        async def table(code: str, games: list[str], chance: random.Random, queue: list[dict]):
            opened = begin + chance.uniform(0, arrive)  # the tables sit down over a while
            await asyncio.sleep(opened - time.monotonic())
            if pages_open is not None:  # its page was loaded before: it polls with its etag
                etag = pages_open[code]
            else:
                status, page, _started, _took = await ask("page", "GET", f"/tisch/{code}/")
                found = re.search(rb'<script id="state" type="application/json">(.*?)</script>', page)
                etag = json.loads(found.group(1)).get("etag", "") if found else ""
            number, next_tick = 1, opened + POLL_SECONDS
            next_game = opened + chance.uniform(*(first or pause))
            busy_until = opened

            async def flush():
                nonlocal etag
                while queue:
                    if not await send(code, queue[0]):
                        return
                    etag = queue.pop(0).get("etag") or etag

            while True:
                game_due = number <= len(games) and next_game <= next_tick
                due = next_game if game_due else next_tick
                if due >= run.end:
                    break
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if game_due:  # the players tapped the game in: it is sent at once
                    queue.append(
                        {
                            "key": secrets.token_hex(16),
                            "data": {"number": number, "notation": games[number - 1]},
                            "lose": chance.random() < RESENT,
                            "answer": None,
                            "tries": 0,
                        }
                    )
                    number += 1
                    next_game += chance.uniform(*pause)
                    await flush()
                    busy_until = time.monotonic()
                    continue
                missed = next_tick < busy_until  # the script's tick came while it was sending
                while next_tick <= time.monotonic():
                    next_tick += POLL_SECONDS
                if missed:
                    continue
                if queue:
                    await flush()
                    busy_until = time.monotonic()
                    continue
                status, body, started, took = await ask(
                    "poll", "GET", f"/tisch/{code}/part", params={"seen": etag},
                    headers={"Accept": "application/json"},
                )  # fmt: skip
                if status == 200:
                    try:
                        etag = json.loads(body)["state"]["etag"]
                    except (ValueError, KeyError, TypeError):
                        run.errors["unreadable"] += 1
                        run.why["unreadable"] += 1
                if status in (200, 204) and run.measured(started):
                    run.poll_times.append(took)

        async def player(seed: int, slug: str, players: int):
            """A player opens the standings (a page of them, or his own line) once; the page
            then asks for its table every 30 s as its htmx does (templates/public/
            _standings.html: the part only, with htmx's headers)."""
            chance = random.Random(seed)
            pages = max(1, -(-players // 50))
            own = str(chance.randint(1, players))
            due = begin + chance.uniform(0, READ_EVERY)
            browsing = chance.random() < 0.5
            params = {"page": str(chance.randint(1, pages))} if browsing else {"q": own}
            part = {"HX-Request": "true", "HX-Target": "standings"}
            polled: dict[str, str] = part if pages_open is not None else {}  # else the whole page first
            while due < run.end:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                status, _body, started, took = await ask(
                    "standings", "GET", f"/t/{slug}/standings/", params=params, headers=polled
                )
                if status == 200 and run.measured(started):
                    run.read_times.append(took)
                polled = part
                due += READ_EVERY

        phones = [(code, games) for _slug, plans, _players in fields for code, games in plans]
        readers = [(slug, players) for slug, _plans, players in fields for _n in range(players)]
        await within(
            [phone(code, games, random.Random(f"phone-{n}")) for n, (code, games) in enumerate(phones)]
            + [player(n, slug, players) for n, (slug, players) in enumerate(readers)],
            run.end + GRACE_SECONDS,
        )

        async def settle(code: str, item: dict):
            while not await send(code, item):  # until answered, as the phone would
                await asyncio.sleep(POLL_SECONDS)

        # What was queued when the time was up: sent again until answered, for a while.
        unsent, run.unsent = run.unsent, []
        await within([settle(code, item) for code, item in unsent], time.monotonic() + GRACE_SECONDS)
    return run
