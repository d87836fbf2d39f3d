"""The probe: generated attacks and the review load of a policy on the user's own tools, in both
engines, before shipping (docs/probe.md). ``attacks`` holds the attack generator (the benign tasks,
the attack classes and what each plants), ``shapes`` the pieces the attacks and the tests' Hypothesis
strategies are built from (one generator), ``runner`` runs the tasks and attacks, ``findings`` and
``report`` say what ran unasked and how to fix it, ``ci`` writes JUnit, SARIF and baselines. It
imports the core only (the graphs, the middleware, the policies), never another application; its
command line is :mod:`apps.cli.probe`. A new probe shape touches this folder only."""
