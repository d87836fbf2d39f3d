"""Deterministic demo tools and data, one module per pattern. Tools return facts or perform the
action; they take no policy decisions."""
