"""Operating the run store: ``runs`` lists, reads back and resumes the runs a checkpointer keeps
(those waiting for a human, answers from any process, expiry); ``audit`` reads a thread's audit and
verifies its chain; ``audit_export`` writes it as JSON Lines or OpenTelemetry spans; ``shadow``
reports what a policy in shadow would have done. Opening a store is the core's
(:mod:`nodes.store`, which the graphs use too). It imports the core only, never another
application; its command line is the CLI's (:mod:`apps.cli.audit`, :mod:`apps.cli.expiry`, ...)."""
