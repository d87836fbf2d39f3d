"""Governed LLM agent patterns on LangGraph: the one stable import path of the public API.

``from governed_agent_patterns import GovernanceMiddleware, SupervisorPolicy, ToolRules`` works the
same from a clone (``pip install -e .``) and from the installed wheel (``pip install
governed-agent-patterns``). Names resolve on first use, so importing the package is cheap and
``GovernanceMiddleware`` needs LangChain (the ``agents`` extra) only when it is used.

The project's folders are importable under this package too: ``governed_agent_patterns.nodes.store``,
``governed_agent_patterns.policies.supervisor``, ... In the wheel they live there (its build
rewrites the folders' imports, see ``setup.py``), so installing it never claims the generic
top-level names ``graphs``, ``nodes``, ``policies`` or ``demo_tools``. In a clone those folders are
also top-level packages (the tests, ``langgraph.json`` and the notebooks use them), and the names
under this package are the same module objects: one class, one identity (docs/development.md).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

#: The project's folders: subpackages of this package in the wheel, top-level in a clone.
FOLDERS = ("graphs", "nodes", "policies", "demo_tools", "apps")

#: Modules that moved (issue 53: one folder per application), old path -> new path. The old
#: path still imports, for one release, as the very module of the new one, with a
#: ``DeprecationWarning`` naming it (CHANGELOG.md lists them).
MOVED: dict[str, str] = {
    "graphs.cli": "apps.cli.main",
    "graphs.cli_audit": "apps.cli.audit",
    "graphs.cli_commands": "apps.cli.commands",
    "graphs.cli_errors": "apps.cli.errors",
    "graphs.cli_expiry": "apps.cli.expiry",
    "graphs.cli_export": "apps.cli.export",
    "graphs.cli_files": "apps.cli.files",
    "graphs.cli_gateway": "apps.gateway.command",
    "graphs.cli_output": "apps.cli.output",
    "graphs.cli_probe": "apps.cli.probe",
    "graphs.cli_shadow": "apps.cli.shadow",
    "graphs.cli_signals": "apps.cli.signals",
    "graphs.inputs": "apps.cli.inputs",
    "graphs.printable": "apps.cli.printable",
    "graphs.progress": "apps.cli.progress",
    "graphs.probe": "apps.probe.runner",
    "graphs.probe_ci": "apps.probe.ci",
    "graphs.probe_findings": "apps.probe.findings",
    "graphs.probe_report": "apps.probe.report",
    "policies.attacks": "apps.probe.attacks",
    "policies.attack_shapes": "apps.probe.shapes",
    "graphs.gateway": "apps.gateway.proxy",
    "graphs.gateway_server": "apps.gateway.server",
    "graphs.audit": "apps.operations.audit",
    "graphs.audit_export": "apps.operations.audit_export",
    "graphs.runs": "apps.operations.runs",
    "graphs.shadow": "apps.operations.shadow",
    "graphs.store": "nodes.store",
    "policies.supervisor.decide.review_api": "policies.supervisor.decide.review",
}

#: The public API, written once: each module and the names read from it, on first use
#: (``"public=attribute"`` where the public name differs). ``__all__`` and the lookup are made from it.
PUBLIC_API: dict[str, tuple[str, ...]] = {
    # create_agent middleware (the `agents` extra)
    "nodes.middleware": ("GovernanceMiddleware", "GovernanceState", "GovernanceDeltaState"),
    # the Supervisor's policy and its rules
    "policies.supervisor": (
        "SupervisorPolicy",
        "ToolRules",
        "ArgSource",
        "ArgDefault",
        "Confidentiality",
        "Destinations",
        "Follow",
        "IdentifierRule",
        "NumberArg",
        "OneOf",
        "OwnedRecord",
        "Precondition",
        "Reader",
        "RecordLimit",
        "Repeat",
        "Requested",
        "RunCap",
        "Threshold",
        "ReviewContext",
        "CustomRule",
        "review_action",
        "demo_policy",
        "APPROVED_BY_RULES",
    ),
    "policies.tools": ("ToolSpec", "ArgSpec"),
    "policies.decision": ("Decision",),
    "policies.catalog": ("STOP_REASONS",),
    # each pattern's policy and graph factory
    "policies.reflection": ("ReflectionPolicy",),
    "policies.research": ("ResearchPolicy",),
    "policies.rag": ("RagPolicy",),
    "policies.task_decomposition": ("TaskDecompositionPolicy",),
    "graphs.reflection": ("build_reflection_graph=build_graph",),
    "graphs.research": ("build_research_graph=build_graph",),
    "graphs.supervisor": ("build_supervisor_graph=build_graph",),
    "graphs.rag": ("build_rag_graph=build_graph",),
    "graphs.task_decomposition": ("build_task_decomposition_graph=build_graph",),
    # models, persistence and the audit log
    "nodes.model": ("get_chat_model",),
    "nodes.offline": ("OfflineChatModel",),
    "nodes.store": ("open_checkpointer", "open_store"),
    "apps.operations.audit": ("read_audit", "stored_audit"),
    # MCP tools (the `mcp` extra for the tools themselves; docs/mcp.md)
    "nodes.mcp_tools": (
        "mcp_hints",
        "mcp_policy",
        "structured_results",
        "load_policy_file",
        "MCPServers",
        "MCPServerError",
    ),
}

#: Public name -> (module, attribute) it is read from.
_EXPORTS: dict[str, tuple[str, str]] = {
    public: (module, attribute)
    for module, names in PUBLIC_API.items()
    for public, _, attribute in (name.partition("=") for name in names)
    for attribute in (attribute or public,)
}

__all__ = sorted(_EXPORTS)

# For type checkers and editors only (nothing runs it): the same names as PUBLIC_API
# (tests/test_packaging.py checks that they agree).
if TYPE_CHECKING:
    from apps.operations.audit import read_audit as read_audit
    from apps.operations.audit import stored_audit as stored_audit
    from graphs.rag import build_graph as build_rag_graph  # noqa: F401 (re-exported: PUBLIC_API)
    from graphs.reflection import build_graph as build_reflection_graph  # noqa: F401 (re-exported: PUBLIC_API)
    from graphs.research import build_graph as build_research_graph  # noqa: F401 (re-exported: PUBLIC_API)
    from graphs.supervisor import build_graph as build_supervisor_graph  # noqa: F401 (re-exported: PUBLIC_API)
    from graphs.task_decomposition import build_graph as build_task_decomposition_graph  # noqa: F401 (re-exported: PUBLIC_API)
    from nodes.mcp_tools import MCPServerError as MCPServerError
    from nodes.mcp_tools import MCPServers as MCPServers
    from nodes.mcp_tools import load_policy_file as load_policy_file
    from nodes.mcp_tools import mcp_hints as mcp_hints
    from nodes.mcp_tools import mcp_policy as mcp_policy
    from nodes.mcp_tools import structured_results as structured_results
    from nodes.middleware import GovernanceDeltaState as GovernanceDeltaState
    from nodes.middleware import GovernanceMiddleware as GovernanceMiddleware
    from nodes.middleware import GovernanceState as GovernanceState
    from nodes.model import get_chat_model as get_chat_model
    from nodes.offline import OfflineChatModel as OfflineChatModel
    from nodes.store import open_checkpointer as open_checkpointer
    from nodes.store import open_store as open_store
    from policies.catalog import STOP_REASONS as STOP_REASONS
    from policies.decision import Decision as Decision
    from policies.rag import RagPolicy as RagPolicy
    from policies.reflection import ReflectionPolicy as ReflectionPolicy
    from policies.research import ResearchPolicy as ResearchPolicy
    from policies.supervisor import APPROVED_BY_RULES as APPROVED_BY_RULES
    from policies.supervisor import ArgDefault as ArgDefault
    from policies.supervisor import ArgSource as ArgSource
    from policies.supervisor import Confidentiality as Confidentiality
    from policies.supervisor import CustomRule as CustomRule
    from policies.supervisor import Destinations as Destinations
    from policies.supervisor import Follow as Follow
    from policies.supervisor import IdentifierRule as IdentifierRule
    from policies.supervisor import NumberArg as NumberArg
    from policies.supervisor import OneOf as OneOf
    from policies.supervisor import OwnedRecord as OwnedRecord
    from policies.supervisor import Precondition as Precondition
    from policies.supervisor import Reader as Reader
    from policies.supervisor import RecordLimit as RecordLimit
    from policies.supervisor import Repeat as Repeat
    from policies.supervisor import Requested as Requested
    from policies.supervisor import ReviewContext as ReviewContext
    from policies.supervisor import RunCap as RunCap
    from policies.supervisor import SupervisorPolicy as SupervisorPolicy
    from policies.supervisor import Threshold as Threshold
    from policies.supervisor import ToolRules as ToolRules
    from policies.supervisor import demo_policy as demo_policy
    from policies.supervisor import review_action as review_action
    from policies.task_decomposition import TaskDecompositionPolicy as TaskDecompositionPolicy
    from policies.tools import ArgSpec as ArgSpec
    from policies.tools import ToolSpec as ToolSpec


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _SameModule(importlib.abc.Loader):
    """Loads ``governed_agent_patterns.<folder>...`` as the top-level module of the same name."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was run once, under its top-level name."""

    def get_code(self, fullname: str) -> Any:
        """The module's code, for ``python -m governed_agent_patterns.<folder>.<module>`` in a
        clone: runpy runs it as ``__main__``, as it runs the wheel's copy."""
        spec = importlib.util.find_spec(self.target)
        loader = spec.loader if spec is not None else None
        return loader.get_code(self.target) if isinstance(loader, importlib.abc.InspectLoader) else None


class _MovedModules(importlib.abc.MetaPathFinder):
    """A moved module's old path (:data:`MOVED`), with this package's prefix or without, is the
    module at its new path: one module object, and a ``DeprecationWarning`` saying where it went."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = f"{__name__}." if fullname.startswith(f"{__name__}.") else ""
        new = MOVED.get(fullname.removeprefix(prefix))
        if new is None:
            return None
        warnings.warn(
            f"{fullname} moved to {prefix}{new}; the old path goes in the next release (CHANGELOG.md)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.machinery.ModuleSpec(fullname, _SameModule(prefix + new))


class _CloneAliases(importlib.abc.MetaPathFinder):
    """In a clone, ``governed_agent_patterns.nodes.store`` is ``nodes.store`` (one module object)."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        head, _, rest = fullname.partition(".")
        if head != __name__ or rest.split(".")[0] not in FOLDERS:
            return None
        return importlib.machinery.ModuleSpec(fullname, _SameModule(rest))


# The wheel carries the folders inside this package; a clone keeps them beside it.
if not (Path(__file__).resolve().parent / "graphs").is_dir() and not any(
    isinstance(finder, _CloneAliases) for finder in sys.meta_path
):
    # First: the path finder would load the folder's files a second time, as other modules.
    sys.meta_path.insert(0, _CloneAliases())
# Before the clone's aliases: an old path is mapped to its new one first.
if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModules())
