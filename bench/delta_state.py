"""``create_agent``'s own state with the conversation as LangGraph's delta channel (beta): what a
``create_agent`` + HITL user would declare to store a thread the way ``GovernanceDeltaState`` does,
the fair reference for the middleware's delta variants (imported only where LangChain is)."""

from typing import Annotated, Any, Required

from langchain.agents.middleware.types import AgentState
from langchain_core.messages import AnyMessage
from langgraph.channels import DeltaChannel

from nodes.state import add_messages_delta


class DeltaAgentState(AgentState[Any]):
    messages: Required[Annotated[list[AnyMessage], DeltaChannel(add_messages_delta)]]
