"""Running models through edit tasks: the task suite, live and replayed runs, the report.

- :mod:`tasks` reads a task suite (the one shipped as package data in ``suite/``:
  ``default_suite()``, ``shipped_task_names()``; or any directory of the same layout);
- :mod:`run` plays every model x mode x task (``eval-models``), live or from transcripts;
- :mod:`replay` records and plays back the transcripts;
- :mod:`report` writes the Markdown, the JSON results and the transcripts.
"""
