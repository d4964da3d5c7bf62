# A validation of data tlc cannot see (`if int(idx.max()) >= num_slots:
# raise ValueError(...)`, the KDA decode example's state-slot check before
# it builds its kernel) is assumed to pass, as an assert on such a value
# is: tlc took the `if` branch, raised, and never reached the factory call
# after it, so the file had no kernel instance. A branch that does more
# than raise is still assumed taken; a condition tlc knows is still
# obeyed.
# RUN: tlc-build --emit=tile %s 2>&1 | FileCheck %s
# CHECK-NOT: ValueError: slot
# CHECK: warning: ValueError: logged
# CHECK: warning: ValueError: known
# CHECK: tile.func @decode(%S: !tile.buffer<[7, 16], f32, global>)
# CHECK: tile.func @decode_1(%S: !tile.buffer<[8, 16], f32, global>)
# CHECK-NOT: tile.func
import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def decode(num_slots, dim=16):

    @T.prim_func
    def main(S: T.Tensor((num_slots, dim), T.float32)):
        with T.Kernel(1, threads=32) as bx:
            S[0, 0] = 1.0

    return main


def validate(indices, num_slots):
    active = indices[indices >= 0].to(torch.int64)
    if active.numel() and int(active.max()) >= num_slots:
        raise ValueError("slot outside the pool")


def run(num_slots):
    validate(torch.tensor([5, -1, 1, 3], dtype=torch.int32), num_slots)
    return decode(num_slots)


def run_logged(num_slots):
    active = torch.tensor([5, -1, 1, 3], dtype=torch.int32)
    # More than a raise: the branch is taken (the kernel after it is not
    # reached; no instance of 11 slots).
    if int(active.max()) >= num_slots:
        print("bad slot")
        raise ValueError("logged")
    return decode(num_slots)


def run_known(num_slots):
    if num_slots > 8:
        raise ValueError("known")
    return decode(num_slots)


run(7)
run_logged(11)
run_known(12)
run_known(8)
