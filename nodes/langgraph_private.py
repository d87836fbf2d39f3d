"""Every use of LangGraph's private API, in this one module.

LangGraph has no public API for the things below. :data:`PRIVATE_NAMES` lists each private name
(and undocumented attribute or behaviour) this module still uses, what for, and the LangGraph
releases it was checked against (:data:`CHECKED_AGAINST`); where a public API does the job, it is
used instead (``langgraph.types.Durability``, ``langgraph.errors.EmptyChannelError``, the public
``langgraph.channels`` classes, ``DeltaChannel.from_checkpoint`` for 7., the ``"configurable"`` key
of a ``RunnableConfig``). ``tests/test_langgraph_private.py`` has a guard test per row, failing with
the name and what changed when an upgrade moves it, and checks that every private access here is
listed. No other module imports LangGraph's private API (the same test checks that too).

1. **A node with its own sync and async implementation that adds no traced run of its own**
   (:func:`node_runnable`): LangGraph's ``RunnableCallable``, which it wraps every node function in.
   The public ``RunnableLambda(func, afunc=...)`` does the same but opens a callback run per call:
   it doubled LangGraph's cost per superstep (2.7 → 5.1 ms for a chain of ten nodes).
2. **Pure work on the event loop under the async API** (:func:`run_pure_work_on_loop`): LangGraph
   runs a plain sync node or routing function in the loop's default executor (a thread hop per
   step, a few threads shared by every concurrent run). Before compiling, the wrappers it made for
   gateway nodes and routing functions are swapped for ones without that hop. A routing function
   also loses the traced run LangGraph opens for it (:func:`untraced_route`), as nodes have none
   (1.): a callback run and a context copy per conditional edge, about 15 µs a superstep; the
   node the edge leaves stays traced, and the route taken is the next task.
3. **A compiled graph's default durability** (:func:`durability_config`): the config key LangGraph
   reads when ``invoke``/``stream`` get no ``durability`` argument.
4. **A node's runnable replaced before compiling** (:func:`wrap_nodes`): how the Supervisor graph
   writes each node's audit rows to the store's log as the node returns them (:mod:`nodes.audit`).
5. **A state key's channel replaced before compiling** (:func:`replace_channels`): how every
   pattern's conversation and audit rows become delta channels behind one switch
   (:mod:`graphs.compile`, ``AGENT_PATTERNS_DELTA_CHANNELS``) without a second copy of each
   pattern's state classes. ``DeltaChannel`` itself is public (beta).
6. **A conditional edge's fresh read of the state** (:func:`read_routes_lean`): to give a routing
   function the state with its node's writes applied, LangGraph copies every channel of the graph
   (the state keys and one per node) and applies the writes to the copies, at every conditional
   edge: most of the 74 µs an untraced edge adds to a 126 µs no-op superstep over the
   Supervisor's 45 state keys. After compiling, each edge's reader is swapped for one that copies
   only the channels the node wrote and reads the others as they are (the same values, the same
   objects); anything it does not recognise is read LangGraph's way.
7. **A delta channel's snapshot as a saver stores it** (:func:`stored_value`): reading a
   checkpoint without its graph (``agent-patterns audit``), a delta channel's value is a snapshot
   where it was stored whole (and nothing where it was not: the saver's public, beta
   ``get_delta_channel_history`` gives the writes to replay, :mod:`apps.operations.audit`). Public
   API now: the snapshot is unwrapped by ``DeltaChannel.from_checkpoint``, no private name.
8. **Whether the running node is being resumed with a human's answer** (:func:`resuming`): the
   task's scratchpad holds the answers ``Command(resume=...)`` brought it. The middleware reviews a
   model's reply inside the model's node; when that node waits for a human and is run again with
   the answer, the reply it kept (a LangGraph task's saved result, public API) is read back instead
   of calling the model again, which only a task that was waiting may do. The answers to interrupts
   raised inside the model's call (a wrapper of the user's, inside ours) are counted when the
   reply is kept (:func:`answered_interrupts`) and passed over when it is read back
   (:func:`skip_interrupts`), so the review's question gets its own answer, not theirs.
9. **A channel copied without being built again** (:class:`CopiedAggregate`,
   :class:`CopiedLastValue`): at every conditional edge LangGraph copies every channel of the
   state, written or not (6. above, which a ``create_agent`` agent's graph does not get: the
   middleware does not compile it), and ``BinaryOperatorAggregate.copy`` and ``LastValue.copy``
   run the constructor (the first strips the type's annotations and makes an empty value) only to
   overwrite what it made. The middleware's channels copy their attributes instead: about 0.03 -
   0.04x HITL's CPU per tool step at 6 steps, the two together (docs/benchmarks.md, section 8). The
   attributes are the classes' slots, which the guard test compares with LangGraph's.
10. **The checkpointer of the invocation a node runs in** (:func:`running_checkpointer`): a
   middleware is given no checkpointer (``create_agent`` is), yet the thread's journal, where a
   side effect is claimed before it runs, lives beside that checkpointer's runs
   (:func:`nodes.journal.journal_beside`). LangGraph puts it in each task's config.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from typing import Any, Self

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import run_in_executor
from langgraph._internal._constants import CONFIG_KEY_DURABILITY, CONFIG_KEY_READ, CONFIG_KEY_SCRATCHPAD
from langgraph._internal._runnable import RunnableCallable
from langgraph._internal._typing import MISSING
from langgraph.channels import BinaryOperatorAggregate, DeltaChannel, LastValue
from langgraph.config import get_config
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.errors import EmptyChannelError
from langgraph.graph._branch import BranchSpec
from langgraph.pregel._algo import local_read
from langgraph.pregel._read import ChannelRead
from langgraph.types import Durability

#: The LangGraph releases every row of :data:`PRIVATE_NAMES` was read in and its guard test passed
#: with: the floor and the newest of ``pyproject.toml``'s ``langgraph>=1.2.16,<2``, 2026-11-28.
CHECKED_AGAINST = ("1.2.16", "1.2.22")


@dataclasses.dataclass(frozen=True)
class PrivateUse:
    """One of LangGraph's private names (or undocumented attributes, or behaviours) this module uses:
    ``name`` as it is imported or reached, ``why`` this module needs it and no public API does the
    job, ``attributes`` the undocumented attributes it reads or sets through it, ``checked`` the
    LangGraph releases it was checked against. ``tests/test_langgraph_private.py`` has one guard
    test per row and checks that every private access in this module is listed here."""

    name: str
    why: str
    attributes: tuple[str, ...] = ()
    checked: tuple[str, ...] = CHECKED_AGAINST


#: Every private name this module uses: the only ones the project uses (see the module's docstring
#: for why each is needed; the numbers are its items).
PRIVATE_NAMES: tuple[PrivateUse, ...] = (
    PrivateUse(
        "langgraph._internal._runnable.RunnableCallable",
        "a node with its own sync and async implementation and no traced run (1.); sync nodes and"
        " routing functions run on the event loop, untraced (2.); the writer that runs a branch (6.)",
        ("func", "afunc", "tags", "trace", "kwargs"),
    ),
    PrivateUse(
        "langgraph._internal._constants.CONFIG_KEY_DURABILITY",
        "a compiled graph's default durability (3.): no public option on compile or with_config",
    ),
    PrivateUse(
        "langgraph._internal._constants.CONFIG_KEY_READ",
        "a conditional edge's read of the state, swapped for the lean one (6.)",
    ),
    PrivateUse(
        "langgraph._internal._constants.CONFIG_KEY_SCRATCHPAD",
        "whether the running node is resumed with an answer, and its interrupt counter (8.)",
        ("resume", "get_null_resume", "interrupt_counter"),
    ),
    PrivateUse(
        "langgraph._internal._typing.MISSING",
        "an empty channel's value in the lean read (6.); the public is_available() and get() do the"
        " same with two calls a key, about 3 µs more an edge over the Supervisor's 45 keys",
    ),
    PrivateUse(
        "langgraph.graph._branch.BranchSpec",
        "a routing function replaced before compiling (2.), and the branch writers the lean read"
        " replaces the reader of (6.: BranchSpec._route, its reader's keywords)",
        ("path", "_replace", "_route", "keywords"),
    ),
    PrivateUse(
        "langgraph.pregel._algo.local_read",
        "the read function a task's config holds: its partial's arguments (the channels and the"
        " task's writes) are what the lean read reads (6.)",
        ("args", "keywords", "writes"),
    ),
    PrivateUse(
        "langgraph.pregel._read.ChannelRead",
        "LangGraph's own fresh read (ChannelRead.do_read), which the lean read replaces and falls"
        " back to (6.)",
        ("do_read",),
    ),
    PrivateUse(
        "langgraph.graph.StateGraph.nodes",
        "a node's runnable (StateNodeSpec.runnable) replaced before compiling (2., 4.)",
        ("nodes", "runnable"),
    ),
    PrivateUse(
        "langgraph.graph.StateGraph.branches",
        "the conditional edges' routing functions, replaced before compiling (2.)",
        ("branches",),
    ),
    PrivateUse(
        "langgraph.graph.StateGraph.channels",
        "a state key's channel replaced before compiling, in the graph and its schemas (5.)",
        ("channels", "schemas"),
    ),
    PrivateUse(
        "langgraph.pregel._read.PregelNode.writers",
        "a compiled node's writers, among them the branch writer the lean read swaps the reader of (6.)",
        ("writers",),
    ),
    PrivateUse(
        "langgraph.channels.BinaryOperatorAggregate.__slots__",
        "the attributes of a reducer channel and a LastValue (and BaseChannel's key), copied without"
        " building the channel again (9.) and read as they are by the lean read (6.)",
        ("key", "typ", "operator", "value"),
    ),
    PrivateUse(
        "langgraph.constants.CONFIG_KEY_CHECKPOINTER",
        "the invocation's checkpointer, from the running task's config (10.): a public name kept for"
        " backward compatibility until LangGraph 2, whose place in a task's config is undocumented",
    ),
)

__all__ = [
    "AGGREGATE_SLOTS",
    "CHECKED_AGAINST",
    "CONFIG_KEY_DURABILITY",
    "CONFIG_KEY_READ",
    "LAST_VALUE_SLOTS",
    "PRIVATE_NAMES",
    "ChannelRead",
    "CopiedAggregate",
    "CopiedLastValue",
    "Durability",
    "PrivateUse",
    "RunnableCallable",
    "answered_interrupts",
    "durability_config",
    "local_read",
    "node_runnable",
    "on_loop",
    "read_routes_lean",
    "replace_channels",
    "resuming",
    "run_everything_threaded",
    "run_pure_work_on_loop",
    "running_checkpointer",
    "runs_in_executor",
    "skip_interrupts",
    "stored_value",
    "threaded",
    "untraced_route",
    "wrap_nodes",
]


def node_runnable(
    func: Callable[..., Any] | None,
    afunc: Callable[..., Awaitable[Any]] | None,
    *,
    name: str | None = None,
) -> RunnableCallable:
    """A graph node running ``func`` under ``invoke``/``stream`` and awaiting ``afunc`` under
    ``ainvoke``/``astream`` (either may be None), with no traced run of its own. LangGraph passes
    each the ``config`` and ``runtime`` arguments their signatures ask for, as for any node."""
    return RunnableCallable(func, afunc, name=name, trace=False)


def runs_in_executor(runnable: Any) -> bool:
    """True for a sync function LangGraph would run in the event loop's default executor under the
    async API (how it wraps every plain function it is given)."""
    afunc = getattr(runnable, "afunc", None)
    return (
        isinstance(runnable, RunnableCallable)
        and runnable.func is not None
        and isinstance(afunc, partial)
        and afunc.func is run_in_executor
    )


def on_loop(runnable: RunnableCallable) -> RunnableCallable:
    """The same sync function, called on the event loop under the async API: no thread hop."""
    return RunnableCallable(runnable.func, None, name=runnable.name, tags=runnable.tags, trace=runnable.trace)


def untraced_route(runnable: Any) -> RunnableCallable | None:
    """The same sync routing function with no traced run of its own (LangGraph opens one per
    conditional edge: a callback run and a context copy per step), called on the event loop
    under the async API; None for a routing function that is no sync ``RunnableCallable``."""
    if not isinstance(runnable, RunnableCallable) or runnable.func is None:
        return None
    afunc = None if runs_in_executor(runnable) else runnable.afunc
    return RunnableCallable(runnable.func, afunc, name=runnable.name, tags=runnable.tags, trace=False)


def threaded(runnable: RunnableCallable) -> RunnableCallable:
    """The same sync function as LangGraph runs a plain one under the async API: in the event
    loop's default executor (the benchmark's reference)."""
    func = runnable.func
    return RunnableCallable(func, partial(run_in_executor, None, func), name=runnable.name, trace=False)  # type: ignore[arg-type]


Change = Callable[[str, Any], "RunnableCallable | None"]


def _swap(builder: Any, *, nodes: Change, routes: Change) -> None:
    """Replace, in ``builder`` before it is compiled, each node's runnable and each routing function
    for which ``nodes(name, runnable)`` / ``routes(source, runnable)`` returns a new one."""
    for name, node in list(builder.nodes.items()):
        new = nodes(name, node.runnable)
        if new is not None:
            builder.nodes[name] = dataclasses.replace(node, runnable=new)
    for source, specs in builder.branches.items():
        for key, spec in list(specs.items()):
            new = routes(source, spec.path)
            if new is not None:
                specs[key] = spec._replace(path=new)


def run_pure_work_on_loop(builder: Any, io_nodes: Iterable[str] | None) -> None:
    """Under ``ainvoke``/``astream``, run routing functions (untraced: :func:`untraced_route`) and
    (unless ``io_nodes`` is None) every plain node not named in ``io_nodes`` on the event loop
    itself; nodes in ``io_nodes`` (those calling the user's tools, which may block on I/O) keep
    their worker thread."""
    keep = None if io_nodes is None else set(io_nodes)

    def node(name: str, runnable: Any) -> RunnableCallable | None:
        pure = keep is not None and name not in keep
        return on_loop(runnable) if pure and runs_in_executor(runnable) else None

    _swap(builder, nodes=node, routes=lambda _source, path: untraced_route(path))


def wrap_nodes(builder: Any, wrap: Callable[[str, RunnableCallable], RunnableCallable]) -> None:
    """Replace every node's runnable in ``builder`` (before it is compiled) by ``wrap(name, it)``."""
    _swap(builder, nodes=wrap, routes=lambda _source, _path: None)


def run_everything_threaded(builder: Any) -> None:
    """Every node and routing function in the default executor, as LangGraph runs plain sync
    functions under the async API (the benchmark's "before" variant)."""
    _swap(builder, nodes=lambda _name, runnable: threaded(runnable), routes=lambda _s, path: threaded(path))


def durability_config(durability: Durability) -> dict[str, Any]:
    """The ``configurable`` entry that makes ``durability`` a compiled graph's default (a caller's
    ``invoke(..., durability=...)`` still wins)."""
    return {CONFIG_KEY_DURABILITY: durability}


def replace_channels(builder: Any, replace: Callable[[str, Any], Any | None]) -> list[str]:
    """In ``builder`` (a ``StateGraph`` whose nodes are all added, before it is compiled), the
    channel of each state key for which ``replace(key, channel)`` returns a new one, in the graph's
    channels and in every schema that has the key (input, output, the state's own). Returns the keys
    replaced."""
    changed: list[str] = []
    for key, channel in list(builder.channels.items()):
        new = replace(key, channel)
        if new is None:
            continue
        new.key = key
        builder.channels[key] = new
        for fields in builder.schemas.values():
            if key in fields:
                fields[key] = new
        changed.append(key)
    return changed


#: Channels whose update with no values leaves them as they are, and whose ``get()`` is their
#: ``value`` (or empty when it is ``MISSING``): the live one reads as its copy would.
_UNCHANGED_BY_NOTHING = frozenset({LastValue, BinaryOperatorAggregate})


def _fresh_read(config: RunnableConfig, *, select: Any, mapper: Callable[[Any], Any] | None) -> Any:
    """What ``ChannelRead.do_read(config, select=select, fresh=True, mapper=mapper)`` returns, with
    a copy made only of the channels the task wrote (or whose type this does not know)."""
    read = config["configurable"][CONFIG_KEY_READ]
    args: tuple[Any, ...] = getattr(read, "args", ())
    if (
        getattr(read, "func", None) is not local_read
        or getattr(read, "keywords", None)
        or len(args) != 4
        or not isinstance(select, list)
        or (args[2] and any(key in args[2] for key in select))  # a managed value: LangGraph's way
    ):
        return ChannelRead.do_read(config, select=select, fresh=True, mapper=mapper)
    channels, task = args[1], args[3]
    written: dict[str, list[Any]] = {}
    for key, value in task.writes:
        written.setdefault(key, []).append(value)
    values: dict[str, Any] = {}
    for key in select:
        channel = channels[key]
        if key not in written and type(channel) in _UNCHANGED_BY_NOTHING:
            if channel.value is not MISSING:
                values[key] = channel.value
            continue
        channel = channel.copy()
        channel.update(written.get(key, []))
        try:  # noqa: SIM105 - a try costs nothing here, contextlib.suppress an object per key
            values[key] = channel.get()
        except EmptyChannelError:
            pass
    return mapper(values) if mapper else values


def read_routes_lean(compiled: Any) -> int:
    """In ``compiled`` (a compiled ``StateGraph``), make each conditional edge read the state with
    :func:`_fresh_read` instead of LangGraph's copy of every channel. Returns the edges changed."""
    changed = 0
    for node in compiled.nodes.values():
        for writer in node.writers:
            if not isinstance(writer, RunnableCallable):
                continue
            if getattr(writer.func, "__func__", None) is not BranchSpec._route:
                continue
            reader = writer.kwargs.get("reader")
            if not isinstance(reader, partial) or reader.func is not ChannelRead.do_read or reader.args:
                continue
            keywords = dict(reader.keywords)
            if keywords.pop("fresh", False) is not True or set(keywords) - {"select", "mapper"}:
                continue
            writer.kwargs["reader"] = partial(
                _fresh_read, select=keywords.get("select"), mapper=keywords.get("mapper")
            )
            changed += 1
    return changed


def _last(_value: Any, writes: Any) -> Any:
    return writes[-1]


def stored_value(value: Any) -> Any:
    """A channel's value as a saver stored it in a checkpoint: a delta channel's snapshot unwrapped,
    anything else as it is (what the public ``DeltaChannel.from_checkpoint`` restores from either)."""
    return DeltaChannel(_last, object).from_checkpoint(value).get()


def _scratchpad() -> Any:
    try:
        config = get_config()
    except RuntimeError:  # not inside a graph's node
        return None
    return (config.get("configurable") or {}).get(CONFIG_KEY_SCRATCHPAD)


def running_checkpointer() -> Any:
    """The checkpointer of the invocation the calling node runs in, or None (none, or outside a
    graph)."""
    try:
        config = get_config()
    except RuntimeError:  # not inside a graph's node
        return None
    return (config.get("configurable") or {}).get(CONFIG_KEY_CHECKPOINTER)


def resuming() -> bool:
    """True inside a node that LangGraph runs again with a human's answer to an interrupt it raised
    (an answer addressed to its interrupt, or one addressed to none); False in a node run afresh and
    outside a graph."""
    pad = _scratchpad()
    if pad is None:
        return False
    return bool(pad.resume) or pad.get_null_resume(False) is not None


def answered_interrupts() -> int:
    """How many interrupts the running node has had answered so far in this run of it (those before
    the point of the call: an interrupt that waits is not counted); 0 outside a graph."""
    pad = _scratchpad()
    return len(pad.resume) if pad is not None else 0


def skip_interrupts(count: int) -> None:
    """Pass over the next ``count`` interrupts of the running node without raising them: the next
    ``interrupt`` call is matched with the answer after theirs (for code that does not run again,
    and whose answers are not for what runs instead)."""
    pad = _scratchpad()
    for _ in range(count if pad is not None else 0):
        pad.interrupt_counter()


#: The attributes a ``BinaryOperatorAggregate`` and a ``LastValue`` hold (their slots and their
#: base's), as :meth:`CopiedAggregate.copy` and :meth:`CopiedLastValue.copy` copy them.
AGGREGATE_SLOTS = ("key", "typ", "operator", "value")
LAST_VALUE_SLOTS = ("key", "typ", "value")


class CopiedAggregate(BinaryOperatorAggregate[Any]):
    """LangGraph's reducer channel (``Annotated[T, reducer]`` makes one), copied by its attributes
    rather than built again: the same value, reducer, type and key; ``update``, checkpoints and
    equality are the base class's."""

    __slots__ = ()

    def copy(self) -> Self:
        copied = object.__new__(type(self))
        copied.key, copied.typ, copied.operator, copied.value = self.key, self.typ, self.operator, self.value
        return copied


class CopiedLastValue(LastValue[Any]):
    """LangGraph's channel of a key without a reducer (the newest value; one write a step), copied
    by its attributes rather than built again; all else is the base class's."""

    __slots__ = ()

    def copy(self) -> Self:
        copied = object.__new__(type(self))
        copied.key, copied.typ, copied.value = self.key, self.typ, self.value
        return copied
