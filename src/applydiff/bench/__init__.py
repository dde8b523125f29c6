"""``applydiff bench``: accuracy and speed side by side with other edit engines, on real code.

- :mod:`corpus` builds edit cases from real source files (the standard library by default)
  with the kinds of noise models put in search text, and the cases that must be refused: one
  table of kinds (``corpus.TABLE``), whose makers are in the ``kinds_*`` modules, on what
  :mod:`case_maker`, :mod:`sources`, :mod:`langs`, :mod:`block_lines`, :mod:`intended_edit`
  and :mod:`noise` provide;
- :mod:`lazy_corpus` and :mod:`lazy_brace` build the lazy-snippet cases (``benchmarks/lazy.py``);
- :mod:`engines` wraps applydiff and its peers behind one call;
- :mod:`worker` runs each engine in a child process with a cap per call;
- :mod:`speed` builds the latency cases (1k to 100k lines);
- :mod:`run` measures into a :class:`measurements.Bench`, :mod:`report` writes Markdown,
  :mod:`charts` draws PNGs, and ``run.write`` puts them and the JSON results in a directory;
- :mod:`outcome` classifies what an engine did; :mod:`markdown` formats the scripts' reports.
"""
