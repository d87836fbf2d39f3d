"""LangGraph's stock checkpointer conformance suite (``langgraph-checkpoint-conformance``) against
every saver the project ships, configured exactly as ``nodes.store`` configures it.

The suite drives savers through their async API; the CLI's savers are synchronous, so they are
run through a thin adapter that calls their sync methods in a thread.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.conformance import checkpointer_test, validate

from nodes.store import open_async_checkpointer, open_checkpointer

pytestmark = pytest.mark.integration
_names = itertools.count()


class _SyncSaverAsAsync(BaseCheckpointSaver):
    """The async API over a synchronous saver: every call runs the sync method in a thread."""

    def __init__(self, inner: BaseCheckpointSaver) -> None:
        super().__init__(serde=inner.serde)
        self.inner = inner

    def get_next_version(self, current: Any, channel: Any) -> Any:
        return self.inner.get_next_version(current, channel)

    async def aget_tuple(self, config):
        return await asyncio.to_thread(self.inner.get_tuple, config)

    async def alist(self, config, *, filter=None, before=None, limit=None) -> AsyncIterator[Any]:
        items = await asyncio.to_thread(
            lambda: list(self.inner.list(config, filter=filter, before=before, limit=limit))
        )
        for item in items:
            yield item

    async def aput(self, config, checkpoint, metadata, new_versions):
        return await asyncio.to_thread(self.inner.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""):
        return await asyncio.to_thread(self.inner.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        return await asyncio.to_thread(self.inner.delete_thread, thread_id)


class _SyncPruningSaverAsAsync(_SyncSaverAsAsync):
    async def aprune(self, thread_ids, *, strategy: str = "keep_latest") -> None:
        return await asyncio.to_thread(self.inner.prune, thread_ids, strategy=strategy)


def _adapted(saver: BaseCheckpointSaver) -> BaseCheckpointSaver:
    prunes = type(saver).prune is not BaseCheckpointSaver.prune
    return (_SyncPruningSaverAsAsync if prunes else _SyncSaverAsAsync)(saver)


def _location(kind: str, tmp_path, pg_cluster) -> str:
    if kind == "memory":
        return "memory"
    if kind == "sqlite":
        return str(tmp_path / f"conformance-{next(_names)}.sqlite")
    return pg_cluster.create_database(f"conf_{next(_names)}")


@pytest.mark.parametrize("api", ["sync", "async"])
@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgres"])
def test_conformance(kind, api, tmp_path, request):
    pg_cluster = request.getfixturevalue("pg_cluster") if kind == "postgres" else None

    @checkpointer_test(name=f"{kind}-{api}")
    async def saver_factory():
        location = _location(kind, tmp_path, pg_cluster)
        if api == "async":
            async with open_async_checkpointer(location) as saver:
                yield saver
        else:
            with open_checkpointer(location) as saver:
                yield saver if kind == "memory" else _adapted(saver)

    report = asyncio.run(validate(saver_factory))
    report.print_report()
    assert report.passed_all_base(), f"{kind}/{api} fails LangGraph's checkpointer conformance suite"
    assert report.passed_all(), f"{kind}/{api} fails an extended capability it implements"
