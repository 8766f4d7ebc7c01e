"""``python -m cogvis_tasks`` runs the ``cogvis`` command line."""

import sys

from .cli import main

sys.exit(main())
