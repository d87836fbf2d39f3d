"""LangGraph node functions and what nodes share (model factory, offline model, JSON calls,
clock, trace and history rows)."""
