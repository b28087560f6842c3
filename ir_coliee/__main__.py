import sys

from ir_coliee.cli import main

sys.exit(main())
