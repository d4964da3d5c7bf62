# RUN: tlc-build --verify-diagnostics %s
# T.float4_e2m1_unpackedx2 and x4: the TileLang version of
# test_tilelang_language_float4_e2m1_unpacked_dtype.py that has them gives
# two and four lanes of the 8-bit container, still an fp4 type. No version
# is known to define wider vectors of it, nor vectors of the unpacked fp6
# types.
import tilelang.language as T

dt2 = T.float4_e2m1_unpackedx2
assert dt2.bits == 8
assert dt2.lanes == 2
assert T.float4_e2m1_unpackedx4.lanes == 4
assert T.float4_e2m1_unpacked.lanes == 1

# expected-error@+1 {{unknown dtype 'T.float4_e2m1_unpackedx8'}}
wide = T.float4_e2m1_unpackedx8
# expected-error@+1 {{unknown dtype 'T.float6_e3m2fn_unpackedx2'}}
six = T.float6_e3m2fn_unpackedx2
