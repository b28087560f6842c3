"""The lowest declared version of every dependency in pyproject.toml, as pip constraints (``name==floor``):
the package's own and its extras', not the test tools (CI's second environment installs these together and
runs the tests there). ``--check``: every one of them is installed at its floor."""

import itertools
import re
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, version


def release(text: str) -> list[str]:
    """A version without its trailing zeros: 3 and 3.0.0 are one release."""
    parts = text.split(".")
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return parts


#: The test extra's tools: they test the package, none of its code imports them.
TOOLS = {
    "pytest",
    "pytest-timeout",
    "hypothesis",
    "ruff",
    "mypy",
    "mkdocs",
    "xenon",
    "markdown-it-py",
    "playwright",
}

#: Dependencies that are a name only, requiring the package under another name: the floor of that one,
#: as the shim declares it, pinned with them (python-terrier 1.0 requires pyterrier[all]>=1.0; unpinned,
#: pip installs the newest pyterrier).
SHIMS = {"python-terrier": ("pyterrier", "1.0")}

project = tomllib.load(open("pyproject.toml", "rb"))["project"]
floors: dict[str, str] = {}
for requirement in itertools.chain(
    project["dependencies"], *project["optional-dependencies"].values()
):
    declared = re.fullmatch(r"([A-Za-z0-9._-]+)>=([0-9.]+)", requirement)
    if declared is None:
        sys.exit(f"pyproject.toml: {requirement!r}: every dependency is declared 'name>=floor'")
    name, floor = declared.groups()
    if floors.setdefault(name, floor) != floor:
        sys.exit(f"pyproject.toml: {name} has two floors, {floors[name]} and {floor}")
floors = {name: floor for name, floor in floors.items() if name not in TOOLS}
for shim, (target, floor) in SHIMS.items():
    if shim in floors:
        floors.setdefault(target, floor)  # a floor declared for the target itself wins
if "--check" not in sys.argv:
    print("\n".join(f"{name}=={floor}" for name, floor in floors.items()))
    sys.exit(0)
checked = []
for name, floor in floors.items():
    try:
        installed = version(name)
    except PackageNotFoundError:
        continue  # an extra the tests do not install (bench's polars)
    if release(installed) != release(floor):
        sys.exit(f"{name} {installed} is installed, not its floor {floor}")
    checked.append(f"{name}=={installed}")
print(f"floors installed: {', '.join(checked)}")
