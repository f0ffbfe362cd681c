"""python -m stackline ARGS...: runs the stackline-cli that the wheel installed (into the
environment's scripts folder, bin/ of a venv), with ARGS."""

import os
import sys
from importlib import metadata


def cli_path():
    """The stackline-cli installed with this package, as the wheel's RECORD lists it."""
    for file in metadata.files("stackline") or []:
        if file.name == "stackline-cli":
            return str(file.locate())
    raise FileNotFoundError("stackline-cli is not installed with the stackline package")


def main():
    path = cli_path()
    os.execv(path, [path] + sys.argv[1:])


if __name__ == "__main__":
    main()
