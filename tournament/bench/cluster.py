"""Two app servers as if on two machines (issue 29.3): each its own gunicorn, job worker, cache
folder and machine name, both on one PostgreSQL and one Redis (Debian's ``redis-server``,
started here on a port of its own), behind one Caddy that takes them in turn; the private files
(scans, job files) and the seal key in one folder both reach, as a shared folder would be. The
cluster test and ``make bench PART=cluster`` start it."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.utils import get_random_secret_key

from ..hall import UPSTREAM_KEEPALIVE, caddyfile


def free_port(avoid: set[int]) -> int:
    """A port of 127.0.0.1 nobody uses: from the range ``CLUSTER_PORTS`` names ("8650-8699",
    where several people share a machine), else one the system gives."""
    wanted = os.environ.get("CLUSTER_PORTS", "")
    candidates = range(int(wanted.split("-")[0]), int(wanted.split("-")[1]) + 1) if wanted else [0] * 20
    for candidate in candidates:
        if candidate in avoid:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port = probe.getsockname()[1]
        if port not in avoid:
            avoid.add(port)
            return port
    raise CommandError(f"No free port in CLUSTER_PORTS={wanted}.")


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


class NoPostgres(CommandError):
    """No PostgreSQL server answers where the cluster's database should be made."""


def postgres_server() -> str:
    """The address of the PostgreSQL server the cluster's throwaway database is made on (its
    ``postgres`` database): that of DATABASE_URL where it is PostgreSQL, else CLUSTER_POSTGRES,
    else the local server as CI has it."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = os.environ.get("CLUSTER_POSTGRES") or "postgres://postgres@127.0.0.1:5432/postgres"
    return url.rsplit("/", 1)[0] + "/postgres"


@contextlib.contextmanager
def throwaway_database(prefix: str):
    """A PostgreSQL database of its own (``prefix`` and a random part), dropped at the end;
    ``NoPostgres`` where no server answers."""
    import psycopg

    admin = postgres_server()
    name = f"{prefix}_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        raise NoPostgres(f"PostgreSQL at {admin.split('@')[-1]} does not answer: {error}".strip()) from None
    try:
        yield admin.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclasses.dataclass
class Cluster:
    base: str  # Caddy's address: what phones and players use
    machines: dict[str, str]  # machine name -> its app server's own address (behind Caddy)
    env: dict[str, str]  # the settings both machines share (database, Redis, keys, folders)
    folder: Path
    processes: dict[str, subprocess.Popen] = dataclasses.field(default_factory=dict)

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds used so far by each part of the cluster (a process with its children:
        gunicorn's workers), by this database's PostgreSQL connections, by this process (the
        load generator) and by the whole machine (every core, anyone's)."""

        def tree(process: psutil.Process) -> float:
            total = 0.0
            for each in [process, *process.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    times = each.cpu_times()
                    total += times.user + times.system
            return total

        used: dict[str, float] = {}
        for name, process in self.processes.items():
            kind = name.split("-")[0]  # app-a and app-b: the app servers together
            with contextlib.suppress(psutil.Error):
                used[kind] = used.get(kind, 0.0) + tree(psutil.Process(process.pid))
        database = self.env["DATABASE_URL"].rsplit("/", 1)[1]
        used["postgresql"] = 0.0
        for backend in psutil.process_iter(["cmdline"]):
            if database in " ".join(backend.info["cmdline"] or []):
                used["postgresql"] += tree(backend)
        own = psutil.Process().cpu_times()  # this process alone: the servers are its children
        used["load"] = own.user + own.system
        machine = psutil.cpu_times()
        used["machine"] = machine.user + machine.system + machine.nice + machine.irq + machine.softirq
        return used

    def machine_env(self, name: str) -> dict[str, str]:
        """The settings of one machine: the shared ones, its name and its own cache folder."""
        return {**self.env, "MACHINE_NAME": name, "CACHE_DIR": str(self.folder / name / "cache")}


REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"


@contextlib.contextmanager
def cluster(database_url: str, folder: Path, app_processes: int = 2, workers: bool = True, **extra: str):
    """Redis, two app servers ``a`` and ``b`` (``app_processes`` gunicorn processes each, and
    each its job worker with ``workers``) and Caddy in front, on ``database_url`` (migrated
    already), until the block ends; ``extra`` settings for both machines."""
    for program, package in ((REDIS, "redis-server"), (CADDY, "caddy")):
        if not os.path.exists(program):
            raise CommandError(f"{package} is not installed: make install (Debian's {package}).")
    ports: set[int] = set()
    redis_port, caddy_port = free_port(ports), free_port(ports)
    (folder / "private").mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        # What every machine must share (README "Several machines"): the secret key (sessions,
        # signed links), the seal key, the private files.
        "SECRET_KEY": get_random_secret_key(),
        "SEAL_KEY_FILE": str(folder / "private-keys" / "seal_key"),
        "PRIVATE_ROOT": str(folder / "private"),
        "DEBUG": "0",
        "PROXY": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CONN_MAX_AGE": "600",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    env.pop("CACHE_URL", None)
    env.pop("HALL_URL", None)
    (folder / "private-keys").mkdir(exist_ok=True, mode=0o700)
    machines = {name: f"http://127.0.0.1:{free_port(ports)}" for name in ("a", "b")}
    made = Cluster(f"http://127.0.0.1:{caddy_port}", machines, env, folder)
    logs = folder / "logs"
    logs.mkdir(exist_ok=True)

    def start(name: str, command: list[str], process_env: dict[str, str]) -> None:
        with (logs / f"{name}.log").open("ab") as log:
            made.processes[name] = subprocess.Popen(
                command,
                env=process_env,
                stdout=log,
                stderr=log,
                cwd=settings.BASE_DIR,
                start_new_session=True,
            )

    try:
        start("redis", [REDIS, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--dir", str(folder)], env)  # fmt: skip
        for name, address in machines.items():
            own = made.machine_env(name)
            Path(own["CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
            start(f"app-{name}", [
                sys.executable, "-m", "gunicorn", "tournament.wsgi",
                "--bind", address.removeprefix("http://"),
                "--workers", str(app_processes), "--threads", "1", "--worker-class", "gthread",
                "--timeout", "120", "--keep-alive", str(UPSTREAM_KEEPALIVE),
                "--access-logfile", str(logs / f"access-{name}.log"),
                "--access-logformat", '%(s)s %(M)sms "%(r)s"',  # status, milliseconds, request
            ], own)  # fmt: skip
            if workers:
                start(f"worker-{name}", [sys.executable, "manage.py", "run_jobs", "-v", "1"], own)
        config = folder / "Caddyfile"
        upstreams = " ".join(address.removeprefix("http://") for address in machines.values())
        config.write_text(caddyfile("127.0.0.1", caddy_port, upstreams))
        caddy_env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(folder / "caddy"),
            "XDG_DATA_HOME": str(folder / "caddy"),
        }
        start("caddy", [CADDY, "run", "--adapter", "caddyfile", "--config", str(config)], caddy_env)
        wanted = [redis_port, caddy_port, *(int(a.rsplit(":", 1)[1]) for a in machines.values())]
        deadline = time.monotonic() + 120
        while not all(listening(port) for port in wanted):
            stopped = [name for name, process in made.processes.items() if process.poll() is not None]
            if stopped or time.monotonic() > deadline:
                said = "; ".join(f"{n}: {(logs / f'{n}.log').read_text()[-500:]}" for n in stopped)
                raise CommandError(f"The cluster did not start ({', '.join(stopped) or 'timeout'}): {said}")
            time.sleep(0.2)
        yield made
    finally:
        for process in reversed(made.processes.values()):  # Caddy first: no new request
            if process.poll() is None:
                process.terminate()
        for process in made.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
