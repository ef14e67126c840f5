"""Where an exception came from, in one line an author can act on.

The arena shows a bot's failure in one line: the gRPC status of a failed decision, or
the last line of stderr of a process that died. A traceback's last line says what went
wrong but not where; this module names the author's own file and line beside it."""

import os
import site
import sys
import sysconfig
import traceback

_SDK = os.path.dirname(os.path.abspath(__file__))
_MAX_TEXT = 160  # of the exception's own text: the arena keeps 200 characters of a line


def _libraries():
    """Folders of code that is not the author's: this SDK, the standard library and
    every installed package's folder."""
    paths = {_SDK}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        if sysconfig.get_paths().get(key):
            paths.add(sysconfig.get_paths()[key])
    try:
        paths.update(site.getsitepackages())
    except AttributeError:  # an old virtualenv's site module
        pass
    return tuple(os.path.join(os.path.realpath(p), "") for p in paths)


def _authors_frame(exc):
    """The innermost frame of the traceback in the author's code (else the innermost)."""
    frames = traceback.extract_tb(exc.__traceback__)
    libraries = _libraries()
    for frame in reversed(frames):
        if not os.path.realpath(frame.filename).startswith(libraries):
            return frame
    return frames[-1] if frames else None


def describe(exc):
    """One line: `ValueError: no card, in choose at /home/me/bot.py line 7`, the
    place last, so that a line cut short keeps it."""
    text = traceback.format_exception_only(type(exc), exc)[-1].strip().replace("\n", " ")
    if len(text) > _MAX_TEXT:
        text = text[:_MAX_TEXT - 3] + "..."
    if isinstance(exc, SyntaxError) and exc.filename:
        # Raised by the compiler, not by a frame: the place is the exception's own.
        return f"{text}, at {exc.filename} line {exc.lineno}"
    frame = _authors_frame(exc)
    if frame is None:
        return text
    return f"{text}, in {frame.name} at {frame.filename} line {frame.lineno}"


def _excepthook(kind, exc, tb):
    # The traceback first, as Python prints it; then the line the arena quotes.
    sys.__excepthook__(kind, exc, tb)
    if not issubclass(kind, (KeyboardInterrupt, SystemExit)):
        print(f"arena_bot: the bot raised {describe(exc)}", file=sys.stderr, flush=True)


def install():
    """Makes an uncaught exception's last line on stderr name the author's file and line
    (a bot that fails before it serves, at its top level, crashes with that line)."""
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook
