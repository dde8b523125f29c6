"""Running models through edit tasks: the task suite, live and replayed runs, the report.

See :mod:`applydiff.evals.run` (``eval-models``), :mod:`applydiff.evals.tasks` (the suite
format) and :mod:`applydiff.evals.replay` (recorded transcripts).
"""
