"""hall-standings: phones reading the public standings from the hall server."""

import asyncio
import random
import time

from ..models import Participant
from .server import WARM_SECONDS, hall_server

THINK_SECONDS = (0.5, 1.5)  # a phone's pause between two pages: reading, scrolling


def hall_standings(slug: str, clients: int, seconds: float) -> tuple[str, str, str]:
    """The hall server and as many phones as ``clients``, each asking for a page of the
    public standings or for its own player's line (a search by start number), reading it
    for about a second, asking again, for ``seconds``."""
    with hall_server(f"/t/{slug}/standings/") as base:
        pages = max(1, -(-Participant.objects.filter(tournament__slug=slug).count() // 50))
        times, errors = asyncio.run(phones(base, slug, pages, clients, seconds))
    times.sort()
    p95 = times[max(0, int(len(times) * 0.95) - 1)] * 1000 if times else float("nan")
    return (
        "hall-standings",
        f"{clients} clients {seconds:.0f} s, {len(times) + errors:,} requests, "
        f"p95 {p95:.0f} ms, errors {errors}",
        "p95 ≤ 150 ms, errors 0",
    )


async def phones(base: str, slug: str, pages: int, clients: int, seconds: float):
    """``clients`` phones against the server for ``seconds`` after WARM_SECONDS of the same
    (each server process has then drawn the pages once: what a hall sees between results)."""
    import aiohttp

    times: list[float] = []
    errors = 0
    measuring = time.monotonic() + WARM_SECONDS
    end = measuring + seconds
    connector = aiohttp.TCPConnector(limit=clients)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(base_url=base, connector=connector, timeout=timeout) as session:

        async def phone(seed: int):
            nonlocal errors
            chance = random.Random(seed)
            own = str(chance.randint(1, pages * 50))  # the player holding this phone
            await asyncio.sleep(chance.uniform(0, THINK_SECONDS[1]))  # phones do not start together
            while time.monotonic() < end:
                # a page of the standings, or looking oneself up again
                browsing = chance.random() < 0.5
                params = {"page": str(chance.randint(1, pages))} if browsing else {"q": own}
                start = time.perf_counter()
                counted = time.monotonic() >= measuring
                try:
                    async with session.get(f"/t/{slug}/standings/", params=params) as response:
                        await response.read()
                        ok = response.status == 200
                except (TimeoutError, aiohttp.ClientError):
                    ok = False
                if counted:
                    if ok:
                        times.append(time.perf_counter() - start)
                    else:
                        errors += 1
                await asyncio.sleep(chance.uniform(*THINK_SECONDS))

        await asyncio.gather(*(phone(n) for n in range(clients)))
    return times, errors
