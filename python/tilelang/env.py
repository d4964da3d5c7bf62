"""``tilelang.env``: the environment switches the package honours, as
TileLang's ``tilelang.env`` names them.

``tilelang.env`` (the attribute of the package, and ``from tilelang.env
import env``) is an :class:`Environment` object; each switch is a class
attribute of it, an :class:`EnvVar` descriptor that reads, in order, a
value assigned in Python (``tilelang.env.TILELANG_CACHE_DIR = path``; ``del``
or assigning None forgets it), the process environment, and its default.
The module itself (``importlib.import_module("tilelang.env")``) also has
:func:`_find_cuda_home`.

What each switch does here:

* ``TILELANG_CACHE_DIR``: the package's and tlc-build's cache directory
  (default: ``$TLC_CACHE_DIR``, else ``$XDG_CACHE_HOME/tlc``, else
  ``~/.cache/tlc``; TileLang's own default is ``~/.tilelang/cache``);
  builds run tlc-build with ``TLC_CACHE_DIR`` set to it.
* ``TILELANG_TMP_DIR``: where builds go while the cache is off (default:
  ``tmp`` under the cache directory, following it when that changes).
* ``TILELANG_DISABLE_CACHE``: builds neither use nor fill the cache.
* ``TILELANG_PRINT_ON_COMPILATION``: logs each build on the ``tilelang``
  logger at INFO level (default ``"1"``).
* ``TILELANG_REQUIRE_EXPLICIT_COMPILE``: strict compilation
  (``tilelang/jit/compile_phase.py``): kernels run only as compiled
  explicitly, and the first launch ends compilation for the process.
* ``TILELANG_COMPILE_TIMEOUT_SECONDS``: the longest a build (tlc-build,
  nvcc included) may take before it is stopped and the compile raises;
  empty or 0: no limit; anything but a finite non-negative number is a
  ValueError naming the variable. An explicit timeout (the autotuner's)
  wins.
* ``CUDA_HOME``: the CUDA toolkit tlc-build's nvcc comes from (default:
  ``$CUDA_HOME``, ``$CUDA_PATH``, else the toolkit of the ``nvcc`` on
  ``PATH``, symbolic links resolved); passed to tlc-build when set.
"""

import math
import os
import shutil

_TRUE = ("1", "true", "yes", "on")


def is_true(value):
    """TileLang's truthy switch values: 1 / true / yes / on, any case,
    surrounding blanks ignored."""
    return str(value if value is not None else "").strip().lower() in _TRUE


def _find_cuda_home():
    """The CUDA toolkit's directory: ``$CUDA_HOME`` / ``$CUDA_PATH`` when
    set, else the directory above the ``bin`` of the ``nvcc`` on ``PATH``
    (its real path, so a link in ``~/.local/bin`` names the toolkit it
    points into), else ``/usr/local/cuda`` when it exists; None
    otherwise."""
    for name in ("CUDA_HOME", "CUDA_PATH"):
        value = os.environ.get(name)
        if value:
            return value
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.isdir("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


def _default_cache_dir(_env):
    if os.environ.get("TLC_CACHE_DIR"):
        return os.environ["TLC_CACHE_DIR"]
    if os.environ.get("XDG_CACHE_HOME"):
        return os.path.join(os.environ["XDG_CACHE_HOME"], "tlc")
    return os.path.join(os.path.expanduser("~"), ".cache", "tlc")


class EnvVar:
    """One switch: a value assigned in Python (``_forced_value``), else
    ``os.environ[key]``, else ``default`` (a string, None, or a function
    of the :class:`Environment`, evaluated at each read)."""

    def __init__(self, key, default=None):
        self.key = key
        self.default = default
        self._forced_value = None

    def get(self, env=None):
        if self._forced_value is not None:
            return self._forced_value
        value = os.environ.get(self.key)
        if value is not None:
            return value
        return self.default(env) if callable(self.default) else self.default

    def is_set(self):
        """True when assigned in Python or present in the environment."""
        return self._forced_value is not None or self.key in os.environ

    def __get__(self, env, owner=None):
        if env is None:
            return self
        return self.get(env)

    def __set__(self, env, value):
        self._forced_value = None if value is None else str(value)

    def __delete__(self, env):
        self._forced_value = None

    def __repr__(self):
        return f"EnvVar({self.key!r})"


class Environment:
    """``tilelang.env``: see the module's documentation."""

    TILELANG_CACHE_DIR = EnvVar("TILELANG_CACHE_DIR", _default_cache_dir)
    TILELANG_TMP_DIR = EnvVar(
        "TILELANG_TMP_DIR",
        lambda env: os.path.join(env.TILELANG_CACHE_DIR, "tmp"))
    TILELANG_DISABLE_CACHE = EnvVar("TILELANG_DISABLE_CACHE", "0")
    TILELANG_PRINT_ON_COMPILATION = EnvVar("TILELANG_PRINT_ON_COMPILATION",
                                           "1")
    TILELANG_REQUIRE_EXPLICIT_COMPILE = EnvVar(
        "TILELANG_REQUIRE_EXPLICIT_COMPILE", "0")
    TILELANG_COMPILE_TIMEOUT_SECONDS = EnvVar(
        "TILELANG_COMPILE_TIMEOUT_SECONDS", "")
    CUDA_HOME = EnvVar("CUDA_HOME", lambda env: _find_cuda_home())

    def is_cache_enabled(self):
        return not is_true(self.TILELANG_DISABLE_CACHE)

    def is_print_on_compilation_enabled(self):
        return is_true(self.TILELANG_PRINT_ON_COMPILATION)

    def is_explicit_compile_required(self):
        return is_true(self.TILELANG_REQUIRE_EXPLICIT_COMPILE)

    def get_compile_timeout_seconds(self):
        """The build time limit in seconds, or None for none."""
        text = str(self.TILELANG_COMPILE_TIMEOUT_SECONDS or "").strip()
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0:
            raise ValueError(
                "TILELANG_COMPILE_TIMEOUT_SECONDS must be a finite "
                f"non-negative number of seconds (0: no limit), got {text!r}")
        return value or None

    def build_environment(self):
        """The process environment for a tlc-build run: tlc-build's cache
        directory is the package's, and an assigned ``CUDA_HOME`` picks
        its nvcc."""
        environ = dict(os.environ)
        environ["TLC_CACHE_DIR"] = self.TILELANG_CACHE_DIR
        cuda = type(self).CUDA_HOME
        if cuda.is_set():
            environ["CUDA_HOME"] = cuda.get(self)
        if not self.is_cache_enabled():
            environ["TILELANG_DISABLE_CACHE"] = "1"
        return environ

    def __repr__(self):
        names = [k for k, v in type(self).__dict__.items()
                 if isinstance(v, EnvVar)]
        return "tilelang.env(" + ", ".join(
            f"{k}={getattr(self, k)!r}" for k in names) + ")"


env = Environment()
