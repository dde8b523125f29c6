"""``python -m applydiff`` is the ``applydiff`` command."""

import sys

from .cli import main

sys.exit(main())
