"""`python -m drill` runs the command line."""

from drill.cli import main

raise SystemExit(main())
