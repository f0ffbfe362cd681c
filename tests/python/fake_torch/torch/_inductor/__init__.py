from . import config, debug  # noqa: F401
