"""A throwaway PostgreSQL cluster in a temp directory on a free loopback port (tests, benches)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PG_BIN", "PG_PASSWORD", "Postgres", "free_port", "throwaway_postgres"]

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
PG_PASSWORD = "pg-Secret-4711"  # the tests check it never shows in a message


@dataclass
class Postgres:
    """A running throwaway cluster on 127.0.0.1:port; every login needs the password."""

    port: int
    data: Path

    def dsn(self, dbname: str = "postgres", password: str = PG_PASSWORD) -> str:
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/{dbname}"

    def server_cpu(self) -> float:
        """CPU seconds the cluster has used: its postmaster, and the backends it has reaped
        (each connection's process; counted once the connection has closed)."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)


def free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_owner(root: Path) -> list[str]:
    """initdb refuses root: run the server as the `postgres` system user then."""
    if os.geteuid() != 0:
        return []
    shutil.chown(root, "postgres", "postgres")
    return ["runuser", "-u", "postgres", "--"]


@contextmanager
def throwaway_postgres() -> Iterator[Postgres]:
    """Start a fresh cluster (fsync off: nothing in it is kept), stop and delete it after."""
    assert (PG_BIN / "initdb").exists(), f"{PG_BIN}/initdb missing: apt-get install postgresql"
    root = Path(tempfile.mkdtemp(prefix="playground-pg-"))
    prefix = _as_owner(root)
    data, log, pwfile = root / "data", root / "server.log", root / "pw"
    pwfile.write_text(PG_PASSWORD + "\n")
    if prefix:
        shutil.chown(pwfile, "postgres", "postgres")
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    subprocess.run([*prefix, PG_BIN / "initdb", "-D", data, "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync", "--auth-local=trust",
                    "--auth-host=scram-sha-256", f"--pwfile={pwfile}"], **run)  # fmt: skip
    port = free_port()
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off")  # fmt: skip
    subprocess.run([*prefix, PG_BIN / "pg_ctl", "-D", data, "-l", log, "-o", options, "-w",
                    "-t", "60", "start"], **run)  # fmt: skip
    try:
        yield Postgres(port, data)
    finally:
        subprocess.run([*prefix, PG_BIN / "pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
