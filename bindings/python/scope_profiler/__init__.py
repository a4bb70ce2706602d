"""scope_profiler on the C core: the Python package's API over libscope_profiler.

Recording (``ProfileManager``) and analysis (``read_h5`` -> ``ProfilingResults``)
run in the C library (docs/python.md); this file only arranges its functions
under the Python package's names.
"""

from scope_profiler import _core
from scope_profiler._core import (
    CorruptProfileError,
    MPIRegion,
    ProfilingResults,
    Region,
    balance,
    check,
    collect_region_statistics,
    diff,
    export,
    plot,
    read_h5,
    report,
    write_metadata_json,
    write_region_statistics_json,
)

__version__ = _core.library_version

__all__ = [
    "CorruptProfileError",
    "MPIRegion",
    "ProfileManager",
    "ProfilingResults",
    "Region",
    "balance",
    "check",
    "collect_region_statistics",
    "diff",
    "export",
    "plot",
    "read_h5",
    "report",
    "write_metadata_json",
    "write_region_statistics_json",
]


class _Session:
    """``with ProfileManager.session(...)``: setup, one root region, finalize."""

    def __init__(self, setup_kwargs, verbose, return_results):
        self._setup_kwargs = setup_kwargs
        self._verbose = verbose
        self._return_results = return_results
        self._state = "new"
        self.results = None

    def __enter__(self):
        if self._state != "new":
            raise RuntimeError(
                "this ProfileManager.session() has already been used; "
                "start a new one with ProfileManager.session(...)"
            )
        _core.setup(session_root=True, **self._setup_kwargs)
        self._state = "open"
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self._state = "closed"
        self.results = _core.finalize(
            verbose=self._verbose, return_results=self._return_results
        )
        return False

    def __call__(self, func):
        """As a decorator: every call of func runs in a session of its own."""
        import functools

        @functools.wraps(func)
        def run(*args, **kwargs):
            with _Session(self._setup_kwargs, self._verbose, self._return_results):
                return func(*args, **kwargs)

        return run


def _profile(name=None):
    """``@ProfileManager.profile("name")``, ``@ProfileManager.profile()`` or bare."""
    if callable(name) and not isinstance(name, str):
        return _core.profiled(name, name.__qualname__)
    if name is not None and not isinstance(name, str):
        raise TypeError(
            "ProfileManager.profile(): name must be str or None, not "
            + type(name).__name__
        )

    def decorate(func):
        return _core.profiled(func, name if name is not None else func.__qualname__)

    return decorate


def _session(*, verbose=True, return_results=False, **setup_kwargs):
    return _Session(setup_kwargs, verbose, return_results)


class ProfileManager:
    """The process-wide profiling session (class methods only, as in the Python package).

    ``setup(**options)`` starts it, ``region(name)`` times a ``with`` block,
    ``profile(name)`` decorates a function, ``finalize(verbose=, return_results=)``
    writes the file. C code the program calls (through ctypes, cffi or an
    extension) that uses libscope_profiler records into the same session.
    """

    setup = _core.setup
    region = _core.region
    finalize = _core.finalize
    is_active = _core.is_active
    set_metadata = _core.set_metadata
    add_tag = _core.add_tag
    profile = staticmethod(_profile)
    session = staticmethod(_session)

    def __init__(self):
        raise TypeError(
            "ProfileManager is used through its class methods (ProfileManager.setup(), "
            "ProfileManager.region(), ...); the C core has one session per process"
        )
