"""Build the compiled batch core (``cardtable.vector``) when a C compiler is there; install without it otherwise.

Everything else about the package is in pyproject.toml. The extension is optional: where Cython or a
compiler is missing, or the build fails, the install still succeeds with a warning, and
``cardtable.vector`` says that the compiled core is not built (the Python engines work as before).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTE = ("cardtable: the compiled batch core (cardtable.vector) was not built ({why}); the Python engines work "
        "without it. To build it: a C compiler and the Python headers (Debian: apt-get install gcc python3-dev), "
        "then reinstall.")


class OptionalBuildExt(build_ext):
    """``build_ext`` that warns instead of failing when the extension cannot be compiled."""

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
    modules = [Extension("cardtable.vector._crazy_eights", ["cardtable/vector/_crazy_eights.pyx"],
                         extra_compile_args=flags),
               # Wizard's and Kaiser's heuristics compute in floating point exactly as the Python bots: no fused
               # multiply-adds.
               Extension("cardtable.vector._wizard", ["cardtable/vector/_wizard.pyx"],
                         extra_compile_args=flags + (["-ffp-contract=off"] if flags else [])),
               Extension("cardtable.vector._durak", ["cardtable/vector/_durak.pyx"], extra_compile_args=flags),
               Extension("cardtable.vector._kaiser", ["cardtable/vector/_kaiser.pyx"],
                         extra_compile_args=flags + (["-ffp-contract=off"] if flags else [])),
               # Mus's simple policy compares thresholds in floating point as the Python bot does: the same.
               Extension("cardtable.vector._mus", ["cardtable/vector/_mus.pyx"],
                         extra_compile_args=flags + (["-ffp-contract=off"] if flags else []))]
    # The search bots' compiled playouts: their floating point must be Python's (no fused multiply-add).
    playouts = ["cardtable/games/crazy_eights/players/_fast.pyx", "cardtable/games/wizard/players/_fast.pyx",
                "cardtable/games/kaiser/_fast.pyx"]
    modules += [Extension(path[:-4].replace("/", "."), [path],
                          extra_compile_args=flags + (["-ffp-contract=off"] if flags else []))
                for path in playouts]
    return list(cythonize(modules, language_level=3, quiet=True))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
