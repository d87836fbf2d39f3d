"""The run contract's keys, importable without LangGraph or LangChain (the CLI's light commands
read them)."""

#: Keys of the run contract, in the order the CLI prints them.
RUN_CONTRACT_KEYS = (
    "run_id",
    "thread_id",
    "model",
    "status",
    "stop_reason",
    "outcome",
    "answer",
    "phase",
    "usage",
    "trace",
    "history",
)
