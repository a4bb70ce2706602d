"""Metadata export, as scope_profiler.inspection of the Python package."""

from scope_profiler._core import write_metadata_json

__all__ = ["write_metadata_json"]
