"""Errors a user can act on. The CLI prints their message and exits non-zero."""


class KgError(Exception):
    """Base class: the message names the problem and, where there is one, the place."""

    exit_code = 1


class InputError(KgError, ValueError):
    """Bad user input: an impossible line value, a malformed date, an unknown topic …"""

    exit_code = 2
