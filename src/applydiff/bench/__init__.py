"""``applydiff bench``: accuracy and speed side by side with other edit engines, on real code.

- :mod:`corpus` builds edit cases from real source files (the standard library by default)
  with the kinds of noise models put in search text, and the cases that must be refused;
- :mod:`engines` wraps applydiff and its peers behind one call;
- :mod:`worker` runs each engine in a child process with a cap per call;
- :mod:`speed` builds the latency cases (1k to 100k lines);
- :mod:`run` measures, :mod:`report` writes Markdown and JSON, :mod:`charts` draws PNGs.
"""
