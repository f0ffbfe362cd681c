"""A stand-in for the parts of torch that stackline_handler.py uses (the real one is not
installable on the test machines). Every call into it is recorded in torch.CALLS."""
CALLS = []

from . import _inductor, profiler  # noqa: E402,F401
