# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# A try statement runs the first handler whose class the exception is an
# instance of (in Python's class hierarchy), and none when no class
# matches: the exception goes on, after `finally`, to an enclosing try.
# tlc ran the first handler whatever was raised. CPython runs this file
# too (`%python %s`): the assertions hold in both.


def route(kind):
    trail = []
    try:
        try:
            if kind == "key":
                {}["missing"]
            elif kind == "index":
                [][3]
            elif kind == "value":
                int("seven")
            elif kind == "zero":
                1 // 0
            elif kind == "type":
                len(5)
            trail.append("body")
        except KeyError:
            trail.append("KeyError")
        except (TypeError, ZeroDivisionError) as e:
            trail.append("tuple:" + type(e).__name__
                         if hasattr(e, "__class__") else "tuple")
        except LookupError as e:
            trail.append("LookupError:" + str(isinstance(e, IndexError)))
        else:
            trail.append("else")
        finally:
            trail.append("finally")
    except ValueError:
        trail.append("outer ValueError")
    return trail


assert route("key") == ["KeyError", "finally"], route("key")
assert route("index") == ["LookupError:True", "finally"], route("index")
assert route("value") == ["finally", "outer ValueError"], route("value")
assert route("zero")[1:] == ["finally"], route("zero")
assert route("type")[1:] == ["finally"], route("type")
assert route("none") == ["body", "else", "finally"], route("none")


def import_fallback():
    try:
        raise ModuleNotFoundError("No module named 'a_module_nobody_has'")
    except ModuleNotFoundError:
        return 2
    except ImportError:
        return 3


def bare_after_miss():
    try:
        raise RuntimeError("x")
    except ArithmeticError:
        return 10
    except Exception as e:
        return 20 if isinstance(e, RuntimeError) else 30
    except:  # noqa: E722
        return 40


assert import_fallback() == 2
assert bare_after_miss() == 20

try:
    import tilelang.language as T
except ImportError:
    T = None

if T is not None:
    W = import_fallback() * 10 + len(route("index"))

    # CHECK: tile.func @sized(%B: !tile.buffer<[22], f32, global>)
    @T.prim_func
    def sized(B: T.Tensor((W,), T.float32)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(W):
                B[i] = 1.0
