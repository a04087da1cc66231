"""The PEP 517 build backend of territory-games: maturin, after a check for Rust.

Building from source compiles the Rust engine, so it needs a Rust toolchain. Without
one, maturin's own failure is a long traceback (and, offline, a network error from
fetching maturin first). So ``pyproject.toml`` requires nothing up front; this module
checks for ``cargo`` in the first hook a frontend calls and stops with one line saying
what is needed, and only then asks for maturin, to which every hook is delegated.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

#: What the build needs once Rust is there.
MATURIN = "maturin>=1.9,<2"

MESSAGE = (
    "territory-games: building from source needs a Rust toolchain (cargo), not found on PATH: "
    "install one from https://rustup.rs, or install a prebuilt wheel (x86-64 Linux, Python 3.9+)"
)


def check_rust() -> None:
    """Stops the build with one line (no traceback) when cargo cannot be found."""
    if not (os.environ.get("CARGO") or shutil.which("cargo")):
        raise SystemExit(MESSAGE)


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    check_rust()
    return [MATURIN]


def get_requires_for_build_sdist(config_settings: Any = None) -> list[str]:
    check_rust()
    return [MATURIN]


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    check_rust()
    return [MATURIN]


# The rest is maturin's (imported only here: the frontend installs it after the checks).


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None) -> str:
    import maturin

    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    import maturin

    return maturin.build_sdist(sdist_directory, config_settings)


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None) -> str:
    import maturin

    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Any = None) -> str:
    import maturin

    return maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: Any = None) -> str:
    import maturin

    return maturin.prepare_metadata_for_build_editable(metadata_directory, config_settings)
