# A helper whose import of its own package's module is wrong: Python raises
# ModuleNotFoundError when the kernel file imports it.
import tiles.missing_module  # noqa: F401

VALUE = 1
