import sys
from pathlib import Path

from ir_coliee.docgen import write_pages

write_pages(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
