# RUN: tlc-build --verify-diagnostics %s
# tilelang.autotune's two forms, the current (the function first, the
# configurations in configs=) and the older (autotune(configs, keys,
# warmup, rep, timeout)), and calls that fit neither: Python's TypeErrors
# for the arguments given twice or too many.
import tilelang
import tilelang.language as T

configs = [{"block": 32}]


# expected-error@+1 {{TypeError: autotune() got multiple values for argument 'configs'}}
@tilelang.autotune(configs, configs=configs)
@tilelang.jit
def twice(block=None):
    pass


# expected-error@+1 {{TypeError: autotune() got multiple values for argument 'keys'}}
@tilelang.autotune(configs, ["block"], keys=["block"])
@tilelang.jit
def keys_twice(block=None):
    pass


# expected-error@+1 {{TypeError: autotune() takes from 1 to 5 positional arguments but 6 were given}}
@tilelang.autotune(configs, ["block"], 1, 2, 3, 4)
@tilelang.jit
def too_many(block=None):
    pass
