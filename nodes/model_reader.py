"""A request reader that asks a chat model (:class:`ModelReader`): the privileged planner of CaMeL,
shown the user's words and nothing else.

The review reads what the user asked for through one :class:`~policies.supervisor.reading.words.RequestReader`
(``build_graph(reader=...)``, ``GovernanceMiddleware(reader=...)``). The default is the positive
grammar of :mod:`policies.supervisor.reading.words`, deterministic and narrow; a deployment may plug in a
model instead, to read turns the grammar does not admit. The model is given one message: the text of the
user's turn (the user's messages since the last reply), under a fixed system prompt (:data:`SYSTEM_PROMPT`).
It never sees a tool's result, a document or a mail: the review hands a reader the turn's text only
(``ReviewContext.request``).

It fails closed: a reply that is not the JSON object the prompt asks for, a mandate of the wrong
shape, a verb or an object the user's turn does not write word for word, a model that raises:
each gives no mandate, and a call that needed one asks a human. Its mandates are the grammar
reader's type (:class:`~policies.supervisor.reading.words.Mandate`), so the audit rows and the human's
approval request show them the same way ("you asked: cancel · the Budget Review").

Each turn is read once: the answers are kept by the turn's text (the most recent
:data:`TURNS_KEPT`), so a run's reviews ask the model once per turn, not once per call or rule.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from nodes.messages import message_text
from policies.supervisor.provenance.derivation import sentences_of
from policies.supervisor.reading.words import Mandate, words_of

__all__ = ["MAX_MANDATES", "SYSTEM_PROMPT", "TURNS_KEPT", "ModelReader", "read_reply"]

SYSTEM_PROMPT = (
    "You read what a user asks an assistant to do. The next message is the user's own words, "
    "nothing else. List each action the user plainly asks for, as JSON: "
    '{"mandates": [{"action": <the verb as the user wrote it>, "object": <the words after the verb '
    "that say what to act on, copied exactly as written>}]}. Copy the words exactly; never add "
    "words of your own. Leave out anything the user does not ask for outright: a negation (don't, "
    "never, instead of, rather than), a question, a condition or a deferral (if, when, before, "
    "later), something the user reports another person said or wants, something the user will do "
    'themselves, and anything a later sentence takes back. When in doubt, leave it out: {"mandates": []}.'
)
#: At most this many mandates are read from one turn; a reply with more gives none.
MAX_MANDATES = 20
#: How many turns' readings a reader keeps.
TURNS_KEPT = 256


def _clause(words: Sequence[str], request: str) -> str | None:
    """The sentence of ``request`` that writes ``words`` one after the other, or None."""
    n = len(words)
    for sentence in sentences_of(request):
        said = words_of(sentence)
        if any(said[i : i + n] == list(words) for i in range(len(said) - n + 1)):
            return sentence
    return None


def read_reply(reply: str, request: str) -> tuple[Mandate, ...]:
    """The mandates in a model's ``reply`` for the user's turn ``request``, validated: the reply is
    a JSON object whose ``mandates`` is a list of at most :data:`MAX_MANDATES` objects, each with
    an ``action`` (one word) and an ``object`` (text, may be empty), the two written one after the
    other in one sentence of the turn. Anything else gives no mandate at all (a malformed reply
    says nothing the review may rely on); a mandate the turn does not write is dropped."""
    try:
        data = json.loads(reply)
    except (TypeError, ValueError):
        return ()
    if not isinstance(data, dict) or set(data) != {"mandates"} or not isinstance(data["mandates"], list):
        return ()
    items = data["mandates"]
    if len(items) > MAX_MANDATES or not all(_shaped(item) for item in items):
        return ()
    out: list[Mandate] = []
    for item in items:
        verb = words_of(item["action"])
        words = [*verb, *words_of(item.get("object") or "")]
        sentence = _clause(words, request) if len(verb) == 1 else None
        if sentence is None:
            continue  # a verb or an object the user did not write: no mandate
        out.append(Mandate(verb[0], tuple(words), sentence, sentence))
    return tuple(out)


def _shaped(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and set(item) <= {"action", "object"}
        and isinstance(item.get("action"), str)
        and isinstance(item.get("object", ""), str)
    )


class ModelReader:
    """A :class:`~policies.supervisor.reading.words.RequestReader` that asks ``llm`` for the mandates of the
    user's turn, failing closed (see the module).

    ``llm``: any LangChain chat model; it is called with :data:`SYSTEM_PROMPT` and one human
    message, the text of the user's turn, synchronously, once per distinct turn (the
    :data:`TURNS_KEPT` most recent readings are kept).

    Example::

        from nodes.model_reader import ModelReader
        graph = build_graph(llm=worker_model, tools=tools, policy=policy, reader=ModelReader(reader_model))
        agent = create_agent(model, tools, middleware=[GovernanceMiddleware(policy, tools=tools,
                                                                             reader=ModelReader(reader_model))])
    """

    #: it calls a model: the engines review off the event loop under the async API
    blocking = True

    def __init__(self, llm: BaseChatModel) -> None:
        self.llm = llm
        self._read: OrderedDict[str, tuple[Mandate, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def mandates(self, request: str) -> tuple[Mandate, ...]:
        """The mandates of the user's turn ``request``: the model's, validated (none where its
        reply cannot be read, or it fails)."""
        with self._lock:
            if request in self._read:
                self._read.move_to_end(request)
                return self._read[request]
        found = self._ask(request) if request.strip() else ()
        with self._lock:
            self._read[request] = found
            while len(self._read) > TURNS_KEPT:
                self._read.popitem(last=False)
        return found

    def _ask(self, request: str) -> tuple[Mandate, ...]:
        try:
            reply = self.llm.invoke([SystemMessage(SYSTEM_PROMPT), HumanMessage(request)])
        except Exception:  # a model that fails reads nothing: every call that needs a mandate asks
            return ()
        return read_reply(message_text(reply), request)
