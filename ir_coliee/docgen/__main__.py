import sys
from pathlib import Path
from typing import Optional

from ir_coliee.docgen import write_pages
from ir_coliee.errors import ColieeError


def main(argv: Optional[list[str]] = None) -> int:
    """Regenerate the pages in the folder given (``docs``); an error is one line, never a traceback."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        write_pages(Path(argv[0] if argv else "docs"))
    except ColieeError as e:
        print(f"ir_coliee.docgen: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a page that cannot be written (read-only, a full disk): named
        print(f"ir_coliee.docgen: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
