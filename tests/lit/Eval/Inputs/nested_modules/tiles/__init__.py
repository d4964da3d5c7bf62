from .shapes import block_shape  # noqa: F401

PACKAGE_NAME = __name__
