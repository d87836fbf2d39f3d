"""Every graph file loads the way an agent server's loader loads it, and its schemas resolve.

Servers do not import ``graphs.reflection``: they execute the file named in ``langgraph.json``
under a module name of their own. Aegra (``aegra-api``) names it ``graphs.<id>`` and does not put
it in ``sys.modules``; ``langgraph-api`` names it after the path and does. A state ``TypedDict``
whose annotations are strings (``from __future__ import annotations``) cannot be resolved from a
module missing in ``sys.modules`` (``NameError: name 'Any' is not defined``), and pydantic cannot
build a JSON schema from ``typing.TypedDict`` on Python < 3.12, so servers showed no input form.
Each loader runs in a fresh interpreter, where no module of the project is imported yet."""

import json

import pytest

from graphs.registry import PATTERNS
from nodes.state import RUN_CONTRACT_KEYS
from tests.processes import ROOT, run_bare_python

CONFIG = json.loads((ROOT / "langgraph.json").read_text())

# Loads every graph of langgraph.json with LOADER, then prints per graph what resolved.
_PROBE = r"""
import importlib.util, json, sys, typing
from pathlib import Path

loader, root = sys.argv[1], Path(sys.argv[2])
already = sorted(m for m in sys.modules if m.split(".")[0] in ("graphs", "nodes", "policies", "demo_tools", "apps"))
assert not already, f"project modules imported before the loader ran: {already}"
out = {}
for gid, target in json.loads((root / "langgraph.json").read_text())["graphs"].items():
    path, var = target.split(":")
    path = str((root / path).resolve())
    if loader == "aegra":  # aegra_api.services.langgraph_service._load_graph_from_file
        spec = importlib.util.spec_from_file_location(f"graphs.{gid}", path)
        module = importlib.util.module_from_spec(spec)
    else:  # langgraph_api.graph._graph_from_spec
        modname = target.split(":")[0].replace("/", "__").replace(".py", "").replace(" ", "_").lstrip(".")
        spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
    spec.loader.exec_module(module)
    graph = getattr(module, var)
    builder = graph.builder
    hints = {
        role: sorted(typing.get_type_hints(schema, include_extras=True))
        for role, schema in (
            ("state", builder.state_schema),
            ("input", builder.input_schema),
            ("output", builder.output_schema),
        )
    }
    out[gid] = {
        "module": module.__name__,
        "hints": hints,
        "input": sorted(graph.get_input_jsonschema()["properties"]),
        "output": sorted(graph.get_output_jsonschema()["properties"]),
        "context": sorted((graph.get_context_jsonschema() or {}).get("properties", {})),
    }
print(json.dumps(out))
"""


@pytest.mark.parametrize("loader", ["aegra", "langgraph-api"])
def test_every_graph_loads_as_a_server_loads_it(loader):
    loaded = json.loads(run_bare_python("-c", _PROBE, loader, str(ROOT), timeout=300))
    assert set(loaded) == set(CONFIG["graphs"]) == {*PATTERNS, "support_desk"}
    desk = loaded.pop("support_desk")  # a create_agent agent: its chat input and its audit output
    assert {"messages", "governance_subject"} <= set(desk["input"])
    assert {"messages", "governance_calls", "governance_stop_reason"} <= set(desk["output"])
    for name, found in loaded.items():
        pattern = PATTERNS[name]
        reference = pattern.module.graph  # the same graph, imported normally
        if loader == "aegra":
            assert found["module"] == f"graphs.{name}"
        # the state's keys resolved, every one of them
        assert found["hints"]["state"] == sorted(reference.builder.state_schema.__annotations__)
        assert set(pattern.demo_input()) <= set(found["hints"]["input"]) == set(found["input"])
        assert set(RUN_CONTRACT_KEYS) <= set(found["hints"]["output"]) == set(found["output"])
        assert found["context"] == sorted(pattern.model.model_fields)
