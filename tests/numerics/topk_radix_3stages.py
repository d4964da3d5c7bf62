"""A small three-stage radix top-k written for the numerics ctest
numerics-topk-3stages: the same contract between its kernels as
deepseek_v32/topk_selector_3stages (what tests/bench/numerics/
corpus_inputs.py's topk_selector_3stages generator gives each stage, and
topk_3stages_check.py checks), at 8,192 float32 values per row.

Keys: a value's float16 rounding, sign-flipped so that unsigned order is
the values' order, gives the coarse bin (its high byte); the float32 bits
flipped the same way give the four refinement digits.

radix_histogram (stage 1): per chunk of a row, a shared 256-bin histogram
  of the coarse bins, added to the row's global_histogram.
radix_dispatch (stage 2): per chunk, the suffix sums of the row's histogram
  give the threshold bin t (more than TOPK values in bins >= t, at most
  TOPK in bins > t); a value of a bin b > t goes to index slot
  suffix[b + 1] + (its rank in b, from direct_counter[b]); a value of bin t
  is appended to candidate_idx while slots remain for it.
radix_refine (stage 3): one block per row refines the candidates by the
  four float32 key bytes, high to low, each round placing the values above
  the round's threshold digit after those already placed and carrying the
  ties to the next round (the last round takes ties until the slots run
  out).
"""
import tilelang
import tilelang.language as T

BATCH, SEQ, TOPK = 1, 8192, 256
RADIX = 256
THREADS = RADIX  # one thread per bin in the scans
CHUNK = 1024  # values of a row per stage-1/2 block
CAP = 1024  # candidates stage 3 can hold


def coarse_bin(v):
    """The high byte of v's order-preserving float16 key (0..255)."""
    h = T.reinterpret(T.cast(v, "float16"), "uint16")
    key = T.if_then_else(v < 0, h ^ 0xFFFF, h | 0x8000)
    return T.cast(key >> 8, "int32")


def fine_digit(v, shift):
    """Byte `shift / 8` of v's order-preserving float32 key."""
    w = T.reinterpret(v, "uint32")
    key = T.if_then_else(v < 0, w ^ T.cast(0xFFFFFFFF, "uint32"),
                         w | T.cast(0x80000000, "uint32"))
    return T.cast((key >> shift) & 0xFF, "int32")


@T.macro
def suffix_sums(suf, tx):
    """suf[0, :RADIX] := its suffix sums (suf[0, RADIX] stays 0), by
    doubling steps that alternate between suf[0] and suf[1]."""
    for step in T.serial(8):  # log2(RADIX), even: the result is in suf[0]
        src = step % 2
        if tx + (1 << step) < RADIX:
            suf[1 - src, tx] = suf[src, tx] + suf[src, tx + (1 << step)]
        else:
            suf[1 - src, tx] = suf[src, tx]
        T.sync_threads()


@tilelang.jit
def radix_histogram(input: T.Tensor((BATCH, SEQ), "float32"),
                    starts: T.Tensor((BATCH,), "int32"),
                    ends: T.Tensor((BATCH,), "int32"),
                    global_histogram: T.Tensor((BATCH, RADIX), "int32")):
    with T.Kernel(SEQ // CHUNK, BATCH, threads=THREADS) as (cx, bx):
        tx = T.get_thread_binding()
        hist = T.alloc_shared((RADIX,), "int32")
        hist[tx] = 0
        T.sync_threads()
        for j in T.serial(CHUNK // THREADS):
            i = cx * CHUNK + j * THREADS + tx
            if i >= starts[bx] and i < ends[bx]:
                T.atomic_add(hist[coarse_bin(input[bx, i])], 1)
        T.sync_threads()
        T.atomic_add(global_histogram[bx, tx], hist[tx])


@tilelang.jit
def radix_dispatch(input: T.Tensor((BATCH, SEQ), "float32"),
                   starts: T.Tensor((BATCH,), "int32"),
                   ends: T.Tensor((BATCH,), "int32"),
                   index: T.Tensor((BATCH, TOPK), "int32"),
                   global_histogram: T.Tensor((BATCH, RADIX), "int32"),
                   direct_counter: T.Tensor((BATCH, RADIX + 1), "int32"),
                   candidate_idx: T.Tensor((BATCH, CAP), "int32"),
                   candidate_count: T.Tensor((BATCH,), "int32")):
    with T.Kernel(SEQ // CHUNK, BATCH, threads=THREADS) as (cx, bx):
        tx = T.get_thread_binding()
        suf = T.alloc_shared((2, RADIX + 1), "int32")
        thr = T.alloc_shared((1,), "int32")
        t = T.alloc_var("int32")
        rest = T.alloc_var("int32")
        slot = T.alloc_var("int32")
        suf[0, tx] = global_histogram[bx, tx]
        if tx == 0:
            suf[0, RADIX] = 0
            suf[1, RADIX] = 0
        T.sync_threads()
        suffix_sums(suf, tx)
        if suf[0, tx] > TOPK and suf[0, tx + 1] <= TOPK:
            thr[0] = tx
        T.sync_threads()
        t = thr[0]
        rest = TOPK - suf[0, t + 1]
        for j in T.serial(CHUNK // THREADS):
            i = cx * CHUNK + j * THREADS + tx
            if i >= starts[bx] and i < ends[bx]:
                b = coarse_bin(input[bx, i])
                if b > t:
                    slot = T.atomic_add(direct_counter[bx, b], 1,
                                        return_prev=True)
                    index[bx, suf[0, b + 1] + slot] = i
                elif b == t and rest > 0:
                    slot = T.atomic_add(candidate_count[bx], 1,
                                        return_prev=True)
                    if slot < CAP:
                        candidate_idx[bx, slot] = i


@tilelang.jit
def radix_refine(input: T.Tensor((BATCH, SEQ), "float32"),
                 index: T.Tensor((BATCH, TOPK), "int32"),
                 global_histogram: T.Tensor((BATCH, RADIX), "int32"),
                 candidate_idx: T.Tensor((BATCH, CAP), "int32"),
                 candidate_count: T.Tensor((BATCH,), "int32")):
    with T.Kernel(BATCH, threads=THREADS) as bx:
        tx = T.get_thread_binding()
        suf = T.alloc_shared((2, RADIX + 1), "int32")
        placed = T.alloc_shared((RADIX,), "int32")
        cand = T.alloc_shared((2, CAP), "int32")
        ncand = T.alloc_shared((2,), "int32")
        thr = T.alloc_shared((1,), "int32")
        t = T.alloc_var("int32")
        base = T.alloc_var("int32")
        rest = T.alloc_var("int32")
        n = T.alloc_var("int32")
        slot = T.alloc_var("int32")
        # The coarse threshold again: `base` slots are stage 2's.
        suf[0, tx] = global_histogram[bx, tx]
        if tx == 0:
            suf[0, RADIX] = 0
            suf[1, RADIX] = 0
        T.sync_threads()
        suffix_sums(suf, tx)
        if suf[0, tx] > TOPK and suf[0, tx + 1] <= TOPK:
            thr[0] = tx
        T.sync_threads()
        t = thr[0]
        base = suf[0, t + 1]
        rest = TOPK - base
        n = T.min(candidate_count[bx], CAP)
        for j in T.serial(CAP // THREADS):
            if j * THREADS + tx < n:
                cand[0, j * THREADS + tx] = candidate_idx[bx, j * THREADS + tx]
        if tx == 0:
            ncand[0] = n
        for r in T.serial(4):
            if rest > 0:  # the same in every thread
                cur = r % 2
                shift = 24 - 8 * r
                T.sync_threads()
                n = ncand[cur]
                suf[0, tx] = 0
                placed[tx] = 0
                if tx == 0:
                    ncand[1 - cur] = 0
                T.sync_threads()
                for j in T.serial(CAP // THREADS):
                    if j * THREADS + tx < n:
                        v = input[bx, cand[cur, j * THREADS + tx]]
                        T.atomic_add(suf[0, fine_digit(v, shift)], 1)
                T.sync_threads()
                suffix_sums(suf, tx)
                if suf[0, tx] > rest and suf[0, tx + 1] <= rest:
                    thr[0] = tx
                T.sync_threads()
                t = thr[0]
                for j in T.serial(CAP // THREADS):
                    if j * THREADS + tx < n:
                        e = cand[cur, j * THREADS + tx]
                        d = fine_digit(input[bx, e], shift)
                        if d > t:
                            slot = T.atomic_add(placed[d], 1, return_prev=True)
                            index[bx, base + suf[0, d + 1] + slot] = e
                        elif d == t:
                            if r == 3:  # equal keys: any of them will do
                                slot = T.atomic_add(placed[d], 1,
                                                    return_prev=True)
                                if slot < rest - suf[0, t + 1]:
                                    index[bx, base + suf[0, t + 1] + slot] = e
                            else:
                                slot = T.atomic_add(ncand[1 - cur], 1,
                                                    return_prev=True)
                                cand[1 - cur, slot] = e
                base = base + suf[0, t + 1]
                rest = rest - suf[0, t + 1]
