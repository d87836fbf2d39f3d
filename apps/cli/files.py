"""The files the CLI reads: ``.env``, policy and input files (JSON or TOML), the run store's folder."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apps.cli.errors import CliError
from apps.cli.inputs import MAX_INPUT_ENV, human_size
from graphs.registry import Pattern
from nodes.store import DEFAULT_DB, one_line, parse_location

if TYPE_CHECKING:
    from policies.base import BasePolicy

ENV_FILE_ENV = "AGENT_PATTERNS_ENV_FILE"


def load_env_file(env: MutableMapping[str, str] | None = None) -> Path | None:
    """Load ``.env`` from the current folder (or ``$AGENT_PATTERNS_ENV_FILE``; empty: none) into
    the environment, as ``langgraph dev`` does; variables already set are kept. Returns the file
    loaded, if any."""
    env = os.environ if env is None else env
    name = env.get(ENV_FILE_ENV, ".env")
    if not name:
        return None
    path = Path(name).expanduser()
    if not path.is_file():
        return None
    from dotenv import dotenv_values

    try:
        values = dotenv_values(path, encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read environment file {str(path)!r}: {one_line(exc)}") from None
    for key, value in values.items():
        if value is not None and key not in env:
            env[key] = value
    return path


#: Suffixes of formats the CLI does not read, by the name it gives them.
_UNREAD_FORMATS = {".yaml": "YAML", ".yml": "YAML", ".ini": "INI", ".cfg": "INI", ".env": "dotenv"}


def read_data_file(path: str, what: str, max_bytes: int | None = None) -> Any:
    """The JSON (or TOML, by a ``.toml`` suffix) in ``path``; at most ``max_bytes`` when given."""
    file = Path(path)
    unread = _UNREAD_FORMATS.get(file.suffix.lower())
    if unread:
        raise CliError(
            f"{what} file {path!r}: {unread} is not read; write it as JSON, or as TOML in a .toml file"
        )
    try:
        if max_bytes is not None and file.is_file() and file.stat().st_size > max_bytes:
            raise CliError(
                f"{what} file {path!r} is {human_size(file.stat().st_size)}, over the cap of "
                f"{human_size(max_bytes)} (--max-input-bytes or ${MAX_INPUT_ENV})"
            )
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {what} file {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{what} file {path!r} is not UTF-8 text: {exc.reason}") from None
    try:
        data = tomllib.loads(text) if file.suffix.lower() == ".toml" else json.loads(text)
    except (ValueError, RecursionError, tomllib.TOMLDecodeError) as exc:
        kind = "TOML" if file.suffix.lower() == ".toml" else "JSON (only a .toml file is read as TOML)"
        raise CliError(f"{what} file {path!r} is not valid {kind}: {exc}") from None
    return data


def load_policy(pattern: Pattern, path: str | None) -> BasePolicy:
    """The pattern's default policy, with the file's fields over it."""
    if path is None:
        return pattern.policy()
    from pydantic import ValidationError

    data = read_data_file(path, "policy")
    if not isinstance(data, dict):
        raise CliError(f"policy file {path!r} must hold an object/table at the top level")
    try:
        return pattern.policy_with(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "(top level)"
        message = f"invalid policy file {path!r}: {where}: {first['msg']}"
        if first["type"] == "extra_forbidden" and len(first["loc"]) == 1:
            message += f"; the fields of the {pattern.name} policy: {', '.join(pattern.model.model_fields)}"
        raise CliError(f"{message} (see agent-patterns policy {pattern.name})") from None


#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def check_store_file(db: str) -> None:
    """A store that a command reads (``runs``, ``show``, the answers...) and that exists must be an
    SQLite database: an empty file (0 bytes: truncated, or made by something else; SQLite would
    take it for a new store and set it up) or one that is not a database is an error that says so.
    A file that does not exist yet is left to the command (it is created, empty of runs)."""
    where = parse_location(db)
    if where.kind != "sqlite":
        return
    path = Path(where.target)
    try:
        if not path.is_file():
            return
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return  # opening the store says what is wrong
    if size == 0:
        raise CliError(
            f"run store {where} is empty (0 bytes): not a run store, or truncated "
            "(check --db; a new run would start a fresh store in it)"
        )
    if head != SQLITE_HEADER:
        raise CliError(
            f"run store {where} is not an SQLite database ({size} bytes without SQLite's header): "
            "not a run store, or damaged"
        )


def check_store_folder(db: str) -> None:
    """The built-in default store's folders are made on first use; for any other store at most
    its own folder is, in a folder that exists (a mistyped ``--db`` is an error, not a new tree of
    folders)."""
    where = parse_location(db)
    if where.kind != "sqlite" or db == DEFAULT_DB:
        return
    folder = Path(where.target).parent
    if not folder.exists() and not folder.parent.is_dir():
        raise CliError(f"the folder of run store {where} does not exist: create it first (mkdir -p {folder})")
