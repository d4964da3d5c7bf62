# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check --format=json %s > %t.json
# RUN: %python -c "import json, sys; [print(d['line'], d.get('category', '-'), d['message']) for d in json.load(open(sys.argv[1])) if d['severity'] == 'error']" %t.json | FileCheck %s
# Errors TileLang raises as Python exceptions carry that exception's type as
# their category (--format=json's "category"; the Python package raises that
# type): an exception the program's code raises, a bad mbarrier arrival
# count (ValueError), a T.alloc_var or loop target used outside its defining
# region (RuntimeError), a copy outside its region or an unknown cache
# policy (ValueError), a `match` statement in a kernel (NotImplementedError,
# naming its line). Other errors have none.
# CHECK: 30 ValueError ValueError: block must be positive, got 0
# CHECK: 40 ValueError T.alloc_barrier: arrive_count must be at least 1 (an mbarrier's 20-bit arrival count), got 0
# CHECK: 42 ValueError T.alloc_cluster_barrier: arrive_count must be at most 1048575
# CHECK: 48 RuntimeError T.alloc_var 'v' is used after the region that declared it ended, outside its defining region
# CHECK: 52 RuntimeError 'd' is the target of a loop that has ended, read outside its defining region
# CHECK: 55 ValueError [TileLang Semantic Check] T.copy would write outside the dst region
# CHECK: 57 ValueError T.copy: store_cache_policy must be one of
# CHECK: 59 ValueError T.copy: load_cache_policy must be one of
# CHECK: 62 NotImplementedError `match` is not supported in a TileLang kernel (line 62); write it as an if/elif chain
# CHECK: 70 - T.gemm operand A must be 2-D
import tilelang
import tilelang.language as T


@tilelang.jit
def checked(block):
    A: T.Tensor((8,), T.int32)
    if block <= 0:
        # expected-error@+1 {{ValueError: block must be positive, got 0}}
        raise ValueError(f"block must be positive, got {block}")
    with T.Kernel(1, threads=8):
        A[0] = block


@tilelang.jit
def categories(A: T.Tensor((8,), T.int32), policy="wt"):
    with T.Kernel(1, threads=8):
        T.alloc_barrier(8)
        # expected-error@+1 {{T.alloc_barrier: arrive_count must be at least 1 (an mbarrier's 20-bit arrival count), got 0}}
        T.alloc_barrier([8, 0])
        # expected-error@+1 {{T.alloc_cluster_barrier: arrive_count must be at most 1048575 (an mbarrier's 20-bit arrival count), got 1048576}}
        T.alloc_cluster_barrier(1 << 20)
        T.alloc_barrier((1 << 20) - 1)
        for j in T.serial(2):
            v = T.alloc_var(T.int32, init=j)
            A[j] = v
        # expected-error@+1 {{T.alloc_var 'v' is used after the region that declared it ended, outside its defining region}}
        A[2] = v
        for d in T.serial(2):
            A[d] = d
        # expected-error@+1 {{'d' is the target of a loop that has ended, read outside its defining region}}
        A[3] = d
        S = T.alloc_shared((4,), T.int32)
        # expected-error@+1 {{[TileLang Semantic Check] T.copy would write outside the dst region (the copy loops over the src region): non-unit dimension 0 has extent 4, but the dst region has extent 2.}}
        T.copy(S, A[0:2])
        # expected-error@+1 {{T.copy: store_cache_policy must be one of 'wb', 'cg', 'cs', 'wt' or None, got 'cv'}}
        T.copy(S, A[0:4], store_cache_policy="cv")
        # expected-error@+1 {{T.copy: load_cache_policy must be one of 'ca', 'cg', 'cs', 'lu', 'cv' or None, got 'wt'}}
        T.copy(A[0:4], S, load_cache_policy=policy)
        T.copy(A[0:4], S, load_cache_policy="cg", store_cache_policy=None)
        # expected-error@+1 {{`match` is not supported in a TileLang kernel (line 62); write it as an if/elif chain}}
        match A[0]:
            case 0:
                A[1] = 100
            case _:
                A[1] = 999
        # expected-error@+3 {{T.gemm operand A must be 2-D}}
        # expected-error@+2 {{T.gemm operand B must be 2-D}}
        # expected-error@+1 {{T.gemm operand C must be 2-D}}
        T.gemm(A, A, A)


checked(0)
