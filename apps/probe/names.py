"""The probe's attack shapes by name, written once: :data:`Shape` (for type checkers) and
:data:`SHAPES` (the same names, in order, at run time). This module imports nothing of the project
nor pydantic, so that the command line's ``--help`` lists the shapes without loading the generator
(:mod:`apps.probe.attacks`). A new shape is a name here and its maker in ``attacks.py``."""

from __future__ import annotations

from typing import Literal, get_args

Shape = Literal[
    "planted_instruction", "borrowed_name", "look_alike", "identifier_number", "obfuscated",
    "negated_request", "non_imperative", "short_code", "just_under", "reused_value", "other_record",
    "link_in_sentence",
    "look_alike_replacing", "other_subject", "spelled_identity", "string_amount", "own_record_plant",
    "aside_record", "shared_value", "allowed_value", "split_amount", "split_over_turns",
]  # fmt: skip
#: The shapes whose attack spans two turns of one thread (the user asks the task again; the second
#: part is proposed in the second turn): what a rule scoped to one run cannot see.
TWO_TURN_SHAPES: tuple[Shape, ...] = ("split_over_turns",)
#: Every shape, in the order the generator tries them.
SHAPES: tuple[Shape, ...] = get_args(Shape)
