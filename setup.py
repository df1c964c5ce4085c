"""Build the compiled batch core (``cardtable.vector``) when a C compiler is there; install without it otherwise.

Everything else about the package is in pyproject.toml. The extension is optional: where Cython or a
compiler is missing, or the build fails, the install still succeeds with a warning, and
``cardtable.vector`` says that the compiled core is not built (the Python engines work as before).
"""

from __future__ import annotations

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTE = ("cardtable: the compiled batch core (cardtable.vector) was not built ({why}); the Python engines work "
        "without it. To build it: a C compiler and the Python headers (Debian: apt-get install gcc python3-dev), "
        "then reinstall.")


#: Whether this machine's compiler can target the wide builds (x86-64 only).
WIDE_ARCH = platform.machine().lower() in ("x86_64", "amd64") and not os.environ.get("CARDTABLE_PORTABLE_ONLY")


class OptionalBuildExt(build_ext):
    """``build_ext`` that warns instead of failing when the extension cannot be compiled; one compiler per core."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (setuptools' PlatformError and friends)
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler failed on this extension
            self._skip(exc)

    def _skip(self, exc: BaseException) -> None:
        if os.environ.get("CARDTABLE_REQUIRE_CORE"):
            raise exc
        print(NOTE.format(why=f"{type(exc).__name__}: {exc}"), file=sys.stderr)


def extensions() -> list[Extension]:
    """The Cython modules, cythonized here; none if Cython is not importable (a note says so)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        print(NOTE.format(why="Cython is not installed"), file=sys.stderr)
        return []
    flags = ["-O3", "-g0"] if sys.platform != "win32" else []
    # Every core's floating point (the heuristics' ratings, Mus's thresholds) is Python's: no fused multiply-adds.
    exact = flags + (["-ffp-contract=off"] if flags else [])
    cores = ["crazy_eights", "wizard", "durak", "kaiser", "mus"]
    modules = [Extension(f"cardtable.vector._{game}", [f"cardtable/vector/_{game}.pyx"], extra_compile_args=exact)
               for game in cores]
    # The wide builds (the same sources; cardtable/vector/_bytes.h): x86-64-v4 with AVX-512 VBMI, loaded by
    # cardtable.vector.cores where the CPU runs them. Elsewhere (or if the compiler refuses) only the portable ones.
    if WIDE_ARCH and flags:
        modules += [Extension(f"cardtable.vector._{game}_wide", [f"cardtable/vector/_{game}_wide.pyx"],
                              extra_compile_args=exact + ["-march=x86-64-v4", "-mavx512vbmi"])
                    for game in cores]
    # The search bots' compiled playouts (their floating point Python's too).
    playouts = ["cardtable/games/crazy_eights/players/_fast.pyx", "cardtable/games/wizard/players/_fast.pyx",
                "cardtable/games/kaiser/_fast.pyx"]
    modules += [Extension(path[:-4].replace("/", "."), [path], extra_compile_args=exact) for path in playouts]
    return list(cythonize(modules, language_level=3, quiet=True))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
