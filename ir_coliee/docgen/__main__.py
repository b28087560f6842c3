import sys
from pathlib import Path

from ir_coliee.docgen import write_pages
from ir_coliee.errors import ColieeError

try:
    write_pages(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
except ColieeError as e:
    sys.exit(f"ir_coliee.docgen: {e}")
