"""The corpus's domains, one module each, as a user would write them: LangChain tools over their
systems and the policy a careful user writes from the docs."""
