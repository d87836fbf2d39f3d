"""The machine-readable stop catalog (``policies/catalog.py``) against the code that emits reasons.

The source of ``policies/``, ``nodes/`` and ``graphs/`` is read with ``ast``: every reason handed to
``stop(...)``, ``Decision.stop(...)``, a supervisor block (``_block``, ``Decision("block", ...)``,
the block reasons of the rule data), a Supervisor refusal (``refuse_action``), ``LLMReply(stop_reason=...)``, ``ToolOutcome(reason=...)`` and
returned by an input check or the LLM error classifier. Literal reasons must be in the catalog of
every pattern the file serves, f-string reasons must fit one of its families, and every catalog
entry must be emitted somewhere (no stale entries).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from graphs.registry import PATTERNS
from policies.catalog import (
    MAX_REASON_CHARS,
    STOP_REASONS,
    SUCCESS,
    clean_reason,
    entry_regex,
    is_known_stop_reason,
)

ROOT = Path(__file__).resolve().parent.parent
TOOL_PATTERNS = ("supervisor", "task_decomposition")
#: Files whose reasons belong to some patterns only (the rest serve every pattern).
SCOPES = {
    "policies/tools.py": TOOL_PATTERNS,
    "nodes/tool_gateway.py": TOOL_PATTERNS,
    "policies/human.py": ("reflection", "supervisor"),
    **{f"{folder}/{name}.py": (name,) for folder in ("policies", "nodes", "graphs") for name in PATTERNS},
    # a pattern's policies may be a package (policies/supervisor/)
    **{f"policies/{name}/": (name,) for name in PATTERNS},
    # the create_agent middleware stops with the Supervisor's reasons
    "nodes/middleware/": ("supervisor",),
    # a pattern's nodes as a package of modules by concern (nodes/supervisor/worker.py, ...)
    **{f"nodes/{name}/": (name,) for name in PATTERNS},
}
#: Rule-data fields whose value is a supervisor block reason.
BLOCK_KEYWORDS = {"type_reason", "positive_reason", "exhausted_reason"}
SAMPLE = "1"  # stands in for an f-string's value when checking it against the families
#: Reasons of the shared tool gateway that depend on how a pattern configures it
#: (``GatewayLimits.detailed_loop_reasons``): only the patterns named emit them.
CONFIGURED = {
    "loop_detected": ("task_decomposition",),
    "loop_detected:per_tool_limit": ("supervisor",),
    "loop_detected:signature_repeat": ("supervisor",),
}


def source_files() -> list[Path]:
    files = [p for d in ("policies", "nodes", "graphs") for p in sorted((ROOT / d).rglob("*.py"))]
    return [p for p in files if "offline" not in p.parts]


def _loop_values(loop: ast.For, name: str) -> list[ast.expr]:
    """What ``name`` takes in ``for name in (<literals>)`` or ``for a, name in ((..., ...), ...)``."""
    if not isinstance(loop.iter, ast.Tuple | ast.List):
        return []
    if isinstance(loop.target, ast.Name) and loop.target.id == name:
        return list(loop.iter.elts)
    if isinstance(loop.target, ast.Tuple):
        names = [t.id if isinstance(t, ast.Name) else "" for t in loop.target.elts]
        if name in names:
            index = names.index(name)
            return [e.elts[index] for e in loop.iter.elts if isinstance(e, ast.Tuple)]
    return []


def _assignments(func: ast.AST | None, name: str) -> list[ast.expr]:
    """The values ``name`` is given in ``func``: assignments and loops over literals."""
    if func is None:
        return []
    values: list[ast.expr] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    values.append(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = zip(target.elts, node.value.elts, strict=False)
                    values += [v for t, v in pairs if isinstance(t, ast.Name) and t.id == name]
        elif isinstance(node, ast.For):
            values += _loop_values(node, name)
    return values


def module_constants() -> dict[str, str]:
    """Module-level ``NAME = "text"`` constants of the scanned code (e.g. ``RECURSION_LIMIT``)."""
    constants = {}
    for path in source_files():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        constants[target.id] = node.value.value
    return constants


def templates(expr: ast.expr | None, func: ast.AST | None, depth: int = 0) -> list[str]:
    """The reasons an expression may hold, f-string values as ``{}`` (or the literals a loop gives
    them); unknowable ones are skipped (an attribute such as ``decision.reason`` is checked where
    that decision is made)."""
    if expr is None or depth > 5:
        return []
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.JoinedStr):
        out = [""]
        for value in expr.values:
            if isinstance(value, ast.Constant):
                out = [o + str(value.value) for o in out]
                continue
            inner = value.value if isinstance(value, ast.FormattedValue) else None
            known = templates(inner, func, depth + 1) if isinstance(inner, ast.Name) else []
            out = [o + k for o in out for k in (known or ["{}"])]
        return out
    if isinstance(expr, ast.IfExp):
        return templates(expr.body, func, depth + 1) + templates(expr.orelse, func, depth + 1)
    if isinstance(expr, ast.BoolOp):
        return [t for v in expr.values for t in templates(v, func, depth + 1)]
    if isinstance(expr, ast.Name):
        assigned = [t for v in _assignments(func, expr.id) for t in templates(v, func, depth + 1)]
        return assigned or ([module_constants_once()[expr.id]] if expr.id in module_constants_once() else [])
    return []


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        return f"{owner}.{func.attr}"
    return ""


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _arg(call: ast.Call, index: int, name: str | None = None) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return _keyword(call, name) if name else None


def reasons_in(tree: ast.AST) -> list[str]:
    """Every stop reason (template) a module emits."""
    found: list[str] = []
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def enclosing(node: ast.AST) -> ast.AST | None:
        while node in parents:
            node = parents[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return None

    def block(exprs: list[str]) -> list[str]:
        return [f"supervisor_block:{t}" for t in exprs]

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("_check_input", "classify_llm_error"):
            for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
                found += templates(ret.value, node)
        if not isinstance(node, ast.Call):
            continue
        func, name = enclosing(node), _call_name(node)
        if name == "stop":
            found += templates(_arg(node, 2, "reason"), func)
        elif name == "refuse_action":  # the Supervisor's refusals: a stop unless fed back to the worker
            found += templates(_arg(node, 3, "reason"), func)
        elif name == "Decision.stop":
            found += templates(_arg(node, 0), func)
        elif name == "_block":
            found += block(templates(_arg(node, 0), func))
        elif name == "Decision" and node.args and isinstance(node.args[0], ast.Constant):
            if node.args[0].value == "stop":
                found += templates(_arg(node, 1), func)
            elif node.args[0].value == "block":
                found += block(templates(_arg(node, 1), func))
        elif name == "LLMReply":
            found += templates(_keyword(node, "stop_reason"), func)
        elif name == "ToolOutcome":
            found += templates(_keyword(node, "reason"), func)
        elif name == "Precondition":
            found += block(templates(_keyword(node, "reason"), func))
        for keyword in node.keywords:
            if keyword.arg in BLOCK_KEYWORDS:
                found += block(templates(keyword.value, func))
    return found


def emitted() -> dict[str, list[tuple[str, str]]]:
    """Pattern → ``(file, reason template)`` for everything the code can stop with."""
    out: dict[str, list[tuple[str, str]]] = {name: [] for name in PATTERNS}
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        folders = [rel.rsplit("/", n)[0] + "/" for n in range(1, rel.count("/") + 1)]  # nearest first
        scope = SCOPES.get(rel) or next((SCOPES[f] for f in folders if f in SCOPES), tuple(PATTERNS))
        for template in reasons_in(ast.parse(path.read_text(encoding="utf-8"))):
            for pattern in CONFIGURED.get(template, scope):
                out[pattern].append((rel, template))
    return out


@functools.cache
def module_constants_once() -> dict:
    """The modules' constants, read once per process when a test first needs them (not at import:
    every worker imports this module to collect it)."""
    return module_constants()


@functools.cache
def emitted_once() -> dict[str, list[tuple[str, str]]]:
    return emitted()


def test_the_scan_finds_the_reasons_it_should():
    """Guard against a scanner that silently finds nothing."""
    supervisor = {t for _, t in emitted_once()["supervisor"]}
    assert {"invalid_action:non_json", "supervisor_block:final_requires_context", "max_steps"} <= supervisor
    assert "supervisor_block:invalid_refund_amount_type" in supervisor  # rule data
    assert "supervisor_block:{}" in supervisor  # the node's wrapping of a rule's reason
    assert {"llm_timeout", "max_seconds", "llm_error:{}", "recursion_limit"} <= supervisor
    assert "invalid_plan:step_{}_not_object" in {t for _, t in emitted_once()["task_decomposition"]}
    assert "invalid_input:incident_context" in {t for _, t in emitted_once()["reflection"]}
    assert sum(len(v) for v in emitted_once().values()) > 250


def _known(pattern: str, template: str) -> bool:
    """A literal must be in the catalog; an f-string must fit a family, or name members the catalog
    lists one by one (``verification_failed:{issue}``)."""
    if is_known_stop_reason(pattern, template.replace("{}", SAMPLE)):
        return True
    if "{}" not in template:
        return False
    regex = re.compile(entry_regex(template.replace("{}", "<p>")))
    return any(regex.fullmatch(e) for e in STOP_REASONS[pattern] if "<" not in e)


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_every_reason_the_code_emits_is_in_the_catalog(pattern):
    unknown = sorted({(f, t) for f, t in emitted_once()[pattern] if not _known(pattern, t)})
    assert not unknown, f"reasons missing from the {pattern} catalog: {unknown}"


def _shape(text: str) -> str:
    return re.sub(r"<[a-z_]+>|\{\}", "<>", text)


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_every_catalog_entry_is_emitted_somewhere(pattern):
    code = {t for _, t in emitted_once()[pattern]}
    shapes = {_shape(t) for t in code}
    constants = {
        node.value
        for path in source_files()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }

    def emitted_entry(entry: str) -> bool:
        if _shape(entry) in shapes:
            return True
        # a named member of a family the code emits, whose name is a literal in the code
        families = [
            t for t in code if "{}" in t and re.fullmatch(entry_regex(_shape(t).replace("<>", "<p>")), entry)
        ]
        suffix = entry.rsplit(":", 1)[-1]
        return bool(families) and suffix in constants

    stale = sorted(e for e in STOP_REASONS[pattern] if not emitted_entry(e))
    assert not stale, f"catalog entries no code emits for {pattern}: {stale}"


@pytest.mark.parametrize(
    ("pattern", "reason", "known"),
    [
        ("supervisor", "tool_denied:issue_refund", True),
        ("supervisor", "invalid_action:missing_required_arg:issue_refund:user_id", True),
        ("supervisor", "invalid_action:unknown_tool:a:b", True),  # the last parameter may hold ':'
        ("supervisor", "supervisor_block:prod_min_nodes", True),
        ("supervisor", "invalid_plan:min_steps", False),  # another pattern's reason
        ("supervisor", "tool_denied:", False),  # a family needs its parameter
        ("supervisor", "tool_denied:two words", False),  # parameters are identifiers
        ("supervisor", "max_steps\n[ERROR] refund approved", False),
        ("task_decomposition", "invalid_plan:step_3_bad_args", True),
        ("task_decomposition", "invalid_plan:step_x_bad_args", False),  # <i> is a number
        ("task_decomposition", "loop_detected", True),
        ("task_decomposition", "loop_detected:per_tool_limit", False),
        ("research", "verification_failed:quote_not_in_source", True),
        ("research", "verification_failed:made_up_issue", False),
        ("rag", "source_denied:security_policy", True),
        ("reflection", "llm_error:rate_limited", True),
        ("reflection", "recursion_limit", True),
        ("reflection", SUCCESS, True),
        ("reflection", "", False),
    ],
)
def test_matcher(pattern, reason, known):
    assert is_known_stop_reason(pattern, reason) is known


def test_unknown_pattern_is_an_error():
    with pytest.raises(KeyError, match="unknown pattern"):
        is_known_stop_reason("nope", "max_seconds")


def test_catalog_lists_every_registered_pattern():
    assert set(STOP_REASONS) == set(PATTERNS)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("tool_denied:issue_refund", "tool_denied:issue_refund"),
        ("invalid_action:unknown_tool:refund everything", "invalid_action:unknown_tool:refund?everything"),
        ("review_issue_not_allowed_policy:line\nbreak", "review_issue_not_allowed_policy:line?break"),
        ("invalid_plan:tool_not_allowed:\u202egnp.exe", "invalid_plan:tool_not_allowed:?gnp.exe"),
        ("", "?"),
    ],
)
def test_clean_reason(raw, clean):
    assert clean_reason(raw) == clean


def test_clean_reason_caps_the_length():
    reason = clean_reason("invalid_action:unknown_tool:" + "x" * 100_000)
    assert len(reason) == MAX_REASON_CHARS and reason.endswith("...")
    assert is_known_stop_reason("supervisor", reason)
