"""``python -m applydiff.batch``: the batch command alone (``IN --out OUT``, ``emit N``)."""

import sys

from .cli import main

sys.exit(main())
