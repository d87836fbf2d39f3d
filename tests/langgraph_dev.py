"""A real ``langgraph dev`` server for the integration tests (LangGraph Studio, Agent Chat UI): it
serves every graph in langgraph.json offline, on a free loopback port."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from devtools.pgcluster import free_port
from graphs.registry import PATTERNS
from tests.processes import ROOT


@contextmanager
def langgraph_dev(workdir: Path, **env: str) -> Iterator[str]:
    """The server's URL once it answers ``/ok`` (its log in ``workdir/server.log``, its environment
    without OpenAI keys and with ``env``); stopped when the block ends."""
    exe = Path(sys.executable).parent / "langgraph"
    assert exe.exists(), "langgraph-cli[inmem] is a dev dependency: run `make venv`"
    port = free_port()
    full = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    full.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1", LANGGRAPH_NO_VERSION_CHECK="true", PYTHONPATH=str(ROOT), **env
    )
    log_path = workdir / "server.log"
    cmd = [str(exe), "dev", "--no-browser", "--no-reload", "--port", str(port)]
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [*cmd, "--config", str(ROOT / "langgraph.json")],
            cwd=ROOT,
            env=full,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited: {log_path.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        os.killpg(proc.pid, signal.SIGTERM)
        pytest.fail(f"langgraph dev did not answer /ok: {log_path.read_text()[-3000:]}")
    try:
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def run_demo(client: Any, name: str, *, wait: bool = True, **kwargs: Any) -> tuple[str, Any]:
    """Pattern ``name``'s demo input run on a new thread of ``client`` (the SDK's sync client), with
    ``kwargs`` (a ``context``, ...): the thread's id, and the run's values once it ends
    (``wait=False``: the run, started)."""
    thread_id = client.threads.create()["thread_id"]
    start = client.runs.wait if wait else client.runs.create
    return thread_id, start(thread_id, name, input=PATTERNS[name].demo_input(), **kwargs)
