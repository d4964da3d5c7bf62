# Classes as CPython builds them: bases and the C3 method resolution order
# (single and multiple inheritance), overridden methods, inherited class
# attributes, `super().__init__(...)` and `super().method()`, isinstance
# against base classes and tuples, `type(x)`, `x.__class__`, `__name__`,
# staticmethod/classmethod/property, and `@dataclass` config objects. tlc
# had no bases (inherited methods were opaque, `super()` an unknown object,
# `type(x)` opaque) and ignored class decorators (a dataclass's fields kept
# their class defaults whatever the call passed). CPython runs this file
# first; its asserts are the oracle, and tlc must raise none of them.
# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: tlc-build --check %S/Inputs/class-mro-conflict.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=MRO
# MRO: class-mro-conflict.py:9:1: warning: TypeError: Cannot create a consistent method resolution order (MRO) for bases X, Y
from dataclasses import dataclass, field


class Base:
    scale = 2
    kind = "base"

    def __init__(self, n):
        self.n = n
        self.log = ["Base"]

    def size(self):
        return self.n * self.scale

    def describe(self):
        return self.kind + ":" + str(self.size())


class Wide(Base):
    scale = 4

    def __init__(self, n, extra=1):
        super().__init__(n + extra)
        self.log.append("Wide")

    def describe(self):
        return "wide/" + super().describe()


class Tall(Base):
    kind = "tall"

    def size(self):
        return super().size() + 1


class Both(Wide, Tall):
    pass


w, t, b = Wide(3), Tall(5), Both(1, extra=2)
assert repr((w.n, w.size(), w.describe(), w.log)) == \
    "(4, 16, 'wide/base:16', ['Base', 'Wide'])"
assert repr((t.size(), t.describe())) == "(11, 'tall:11')"
assert repr([k.__name__ for k in Both.__mro__]) == \
    "['Both', 'Wide', 'Tall', 'Base', 'object']"
assert repr((b.n, b.size(), b.describe(), b.log)) == \
    "(3, 13, 'wide/tall:13', ['Base', 'Wide'])"
assert repr((isinstance(b, Base), isinstance(b, Tall), isinstance(t, Wide),
             isinstance(t, (Wide, Tall)), isinstance(3, (str, Base)))) == \
    "(True, True, False, True, False)"


class A:
    def who(self):
        return ["A"]


class B(A):
    def who(self):
        return ["B"] + super().who()


class C(A):
    def who(self):
        return ["C"] + super().who()


class D(B, C):
    def who(self):
        return ["D"] + super().who()


assert repr(D().who()) == "['D', 'B', 'C', 'A']"
assert repr([k.__name__ for k in D.__mro__]) == \
    "['D', 'B', 'C', 'A', 'object']"
assert repr(super(B, D()).who()) == "['C', 'A']"

# type(), __class__, __name__.
assert repr([type(v).__name__ for v in (1, True, 2.5, "s", [], (), {}, None,
                                         b, len, Base)]) == \
    "['int', 'bool', 'float', 'str', 'list', 'tuple', 'dict', " \
    "'NoneType', 'Both', 'builtin_function_or_method', 'type']"
assert repr((type(3) is int, type(True) is int, type(b) is Both,
             type(b) is Base, b.__class__ is Both, (3).__class__ is int,
             type(None) is type(None))) == \
    "(True, False, True, False, True, True, True)"
assert repr((Base.__name__, Base.describe.__name__, len.__name__,
             type(b).__name__, b.__class__.__name__)) == \
    "('Base', 'describe', 'len', 'Both', 'Both')"


class Tiles:
    count = 0

    def __init__(self, m):
        self.m = m

    @staticmethod
    def ceil(a, b):
        return (a + b - 1) // b

    @classmethod
    def make(cls, m):
        return cls(m * 2)

    @property
    def blocks(self):
        return Tiles.ceil(self.m, 64)


tl = Tiles.make(100)
assert repr((tl.m, tl.blocks, tl.ceil(7, 2), Tiles.ceil(9, 4),
             type(tl).__name__)) == "(200, 4, 4, 3, 'Tiles')"


@dataclass
class Config:
    block_M: int
    block_N: int = 128
    stages: list = field(default_factory=list)
    threads: int = field(default=256)

    def __post_init__(self):
        self.tiles = self.block_M * self.block_N


@dataclass(eq=True)
class BigConfig(Config):
    split: int = 1


c1 = Config(64)
c2 = Config(32, block_N=64, stages=[2, 3])
c3 = BigConfig(16, 16, split=4)
assert repr((c1.block_M, c1.block_N, c1.stages, c1.threads, c1.tiles)) == \
    "(64, 128, [], 256, 8192)"
assert repr((c2.block_M, c2.block_N, c2.stages, c2.tiles)) == \
    "(32, 64, [2, 3], 2048)"
assert repr((c3.block_M, c3.block_N, c3.split, c3.tiles,
             isinstance(c3, Config), Config.block_N)) == \
    "(16, 16, 4, 256, True, 128)"
try:
    Config()
    missing = "no error"
except TypeError:
    missing = "TypeError"
assert missing == "TypeError"

try:
    import tilelang.language as T
except ImportError:
    T = None

if T is not None:
    # CHECK-LABEL: tile.func @sizes
    # CHECK: arith.constant 13 : i32
    # CHECK: arith.constant 2048 : i32
    @T.prim_func
    def sizes(B: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            B[0] = b.size()
            B[1] = c2.tiles
