# RUN: tlc-build --verify-diagnostics %s
# TVM registers the unpacked floats as custom types, so `str()` of one is
# `custom[<name>]<bits>` with an 8-bit container (and `x<lanes>` for a vector);
# every other dtype prints its plain name.
import tilelang.language as T

assert str(T.float4_e2m1_unpacked) == "custom[float4_e2m1_unpacked]8"
assert str(T.float6_e2m3fn_unpacked) == "custom[float6_e2m3fn_unpacked]8"
assert str(T.float6_e3m2fn_unpacked) == "custom[float6_e3m2fn_unpacked]8"
assert T.float6_e3m2fn_unpacked.bits == 8
assert str(T.float16) == "float16"
assert str(T.float6_e2m3fn) == "float6_e2m3fn"

# expected-warning@+1 {{AssertionError: assertion failed}}
assert str(T.float4_e2m1_unpacked) == "float4_e2m1_unpacked"
