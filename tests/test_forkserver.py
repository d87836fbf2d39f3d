"""The tests' warm interpreter (tests/forkserver.py, tests/processes.py): a command forked from it
is the process a fresh ``python`` would be — the same arguments, environment, folder, stdin,
``sys.path``, ``__main__``, exit status (a signal's included), atexit handlers and threads, and
output — so the tests that drive the CLI through it test what a user's shell runs."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import EXE, ROOT, Started, run, start

SCRIPT = r"""
import atexit, json, os, sys, threading, time
import __main__
atexit.register(lambda: print("atexit ran", flush=True))
def late():
    time.sleep(0.3)
    print("thread joined", flush=True)
threading.Thread(target=late).start()
print(json.dumps({
    "argv": sys.argv, "cwd": os.getcwd(), "path0": sys.path[0], "name": __main__.__name__,
    "var": os.environ.get("FORK_TEST_VAR"), "gone": "FORK_TEST_GONE" in os.environ,
    "stdin": sys.stdin.read(), "pid_is_new": os.getpid() != int(os.environ["FORK_TEST_PARENT"]),
    "ppid_alive": os.getppid() > 1, "encoding": sys.stdout.encoding,
}))
sys.stderr.write("to stderr\n")
sys.exit(int(os.environ.get("FORK_TEST_EXIT", "0")))
"""


def _both(argv: list[str], *, env: dict[str, str], cwd: Path, input: str | None = None):
    """The command run forked and as a plain subprocess."""
    forked = run(argv, env=env, cwd=cwd, input=input, timeout=60)
    plain = subprocess.run(
        argv, env=env, cwd=cwd, input=input or "", capture_output=True, text=True, timeout=60
    )
    return forked, plain


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "FORK_TEST_GONE"}
    return {**env, "FORK_TEST_PARENT": str(os.getpid()), "PYTHONPATH": str(ROOT), **extra}


def test_a_script_sees_its_arguments_environment_folder_stdin_and_ends_as_a_process(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    os.environ["FORK_TEST_GONE"] = "1"  # in this process only: the command's env is the one given
    try:
        forked, plain = _both(
            [sys.executable, str(script), "a", "b c"],
            env=_env(FORK_TEST_VAR="é", FORK_TEST_EXIT="3"),
            cwd=tmp_path,
            input="line one\nline two\n",
        )
    finally:
        del os.environ["FORK_TEST_GONE"]
    assert (forked.returncode, forked.stdout, forked.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert forked.returncode == 3 and '"var": "\\u00e9"' in forked.stdout and '"gone": false' in forked.stdout
    assert forked.stdout.endswith("thread joined\natexit ran\n"), forked.stdout
    assert f'"path0": "{tmp_path}"' in forked.stdout and '"name": "__main__"' in forked.stdout
    assert '"stdin": "line one\\nline two\\n"' in forked.stdout and '"pid_is_new": true' in forked.stdout


@pytest.mark.parametrize(
    "code",
    [
        "import sys; print(sys.argv); raise ValueError('boom')",
        "import os, signal; print('before', flush=True); os.kill(os.getpid(), signal.SIGKILL)",
        "import sys; sys.exit('a message')",
        "import os, sys; sys.path.insert(0, os.getcwd()); import here; print(here.VALUE)",
    ],
    ids=["exception", "killed", "exit-message", "module-from-cwd"],
)
def test_python_c_ends_as_a_fresh_interpreter_does(code, tmp_path):
    (tmp_path / "here.py").write_text("import os\nVALUE = os.environ['FORK_TEST_VAR']\n")
    forked, plain = _both(
        [sys.executable, "-c", code, "x"], env=_env(FORK_TEST_VAR="read at import"), cwd=tmp_path
    )
    assert forked.returncode == plain.returncode and forked.stdout == plain.stdout
    assert forked.stderr.splitlines()[-1:] == plain.stderr.splitlines()[-1:]  # the traceback's frames differ
    assert forked.returncode in (0, 1, -9)


def test_the_projects_command_line_answers_alike_forked_and_fresh(tmp_path):
    db = tmp_path / "runs.sqlite"
    env = _env(AGENT_PATTERNS_ENV_FILE="", COLUMNS="200")
    for argv in (
        [str(EXE), "patterns"],
        [
            sys.executable,
            "-m",
            "governed_agent_patterns",
            "run",
            "reflection",
            "--thread-id",
            "R",
            "--db",
            str(db),
        ],
        [str(EXE), "audit", "R", "--db", str(db)],
        [str(EXE), "audit", "NOPE", "--db", str(db)],
        [str(EXE), "run", "nosuchpattern"],
    ):
        forked = run(argv, env=env, cwd=ROOT)
        plain = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        if argv[-3:-1] == ["R", "--db"] and "run" in argv:  # a new run: its own times and ids
            assert forked.returncode == plain.returncode == 0
            continue
        assert (forked.returncode, forked.stdout, forked.stderr) == (
            plain.returncode,
            plain.stdout,
            plain.stderr,
        )


def test_a_timeout_kills_the_command_and_raises_as_subprocess_run_does(tmp_path):
    marker = tmp_path / "pid"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run([sys.executable, "-c", code], env=_env(), timeout=2)
    assert time.monotonic() - started < 30
    pid = int(marker.read_text())
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists()


def test_a_started_command_is_waited_polled_and_killed_as_popen_is(tmp_path):
    proc = start([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"], env=_env())
    assert isinstance(proc, Started) and proc.pid != os.getpid()
    assert proc.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(0.2)
    proc.kill()
    assert proc.wait(30) == -9
    out, err = proc.communicate()
    assert out == "up\n" and err == ""


def test_another_copy_of_the_project_is_run_fresh(tmp_path):
    """The server has this checkout's governance core imported: a command that would import
    another copy's is not forked (its ``policies`` would be this one's)."""
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "__init__.py").write_text("WHERE = 'the other copy'\n")
    done = run([sys.executable, "-c", "import policies; print(policies.WHERE)"], env=_env(), cwd=tmp_path)
    assert done.stdout == "the other copy\n"


def test_the_governance_core_the_server_imports_reads_no_environment():
    """The server imports ``policies`` once for every command, so nothing in it may read the
    environment (or anything else that differs per command) at import or later."""
    found = []
    for path in sorted((ROOT / "policies").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv", "environb"}:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Name) and node.id in {"environ", "getenv"}:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
