"""What the sections share in one benchmark run: settings, recorded trajectories, where results go,
and the stores (a temporary folder for SQLite files, one throwaway PostgreSQL server)."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import Settings
from bench.replay import Trajectory
from devtools.pgcluster import PgCluster, PgUnavailable

STORES = ("memory", "sqlite", "postgres")


@dataclass
class Context:
    settings: Settings
    trajectories: dict[str, Trajectory]
    out_dir: Path
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-")))
    pg: PgCluster | None = None
    pg_problem: str | None = None
    pg_version: str | None = None
    _databases: int = 0

    def stores(self) -> list[str]:
        """The stores this run measures: PostgreSQL only where a server could be started."""
        if self.settings.postgres and self.pg is None and self.pg_problem is None:
            self._start_postgres()
        return [s for s in STORES if s != "postgres" or self.pg is not None]

    def _start_postgres(self) -> None:
        try:
            self.pg = PgCluster(durable=True, max_connections=300).start()
        except PgUnavailable as exc:
            self.pg_problem = str(exc)
            return
        import psycopg

        with psycopg.connect(self.pg.url) as conn:
            row = conn.execute("SHOW server_version").fetchone()
            self.pg_version = str(row[0]) if row else None

    def location(self, store: str, tag: str) -> str:
        """A fresh location of kind ``store``: ``memory``, a new SQLite file, a new database."""
        self._databases += 1
        name = f"{tag}_{self._databases}"
        if store == "memory":
            return "memory"
        if store == "sqlite":
            return str(self.tmp / f"{name}.sqlite")
        if store == "postgres" and self.pg is not None:
            return self.pg.create_database(name)
        raise ValueError(f"store {store!r} is not available: {self.pg_problem}")

    def close(self) -> None:
        if self.pg is not None:
            self.pg.stop()
            self.pg = None
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Context:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def info(self) -> dict[str, Any]:
        return {"postgres": self.pg_version, "postgres_problem": self.pg_problem}
