"""The CPU target's topk_selector_3stages against NumPy, the three kernels
chained as the script's tl_topk runs them (issue 13: the corpus check
compares each kernel on the GPU with the CPU target on the inputs
corpus_inputs.py gives it; this checks that the CPU target itself computes
top-k, each stage reading what the previous one wrote).

  topk_3stages_check.py TLC_RUN CPU_ARTIFACT_DIR [--scale F]

CPU_ARTIFACT_DIR: tlc-build --target=cpu of
examples__deepseek_v32__topk_selector_3stages.py. Checked, per row:
stage 1's histogram equals np.bincount of the bins; stage 2's counters
and candidate set equal NumPy's, and the index slots it fills (the first
s[t+1], t the threshold bin) hold exactly the elements of higher bins;
stage 3, fed stage 2's candidates, fills the remaining slots so that all
topk slots hold the indices of the topk largest values (np.argsort).
Prints what it compared; exit status 1 on a difference.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_inputs as ci  # noqa: E402


def run(tlc_run, art, kernel, inputs, save):
    os.makedirs(inputs, exist_ok=True)
    r = subprocess.run([tlc_run, "--device", "cpu", "--kernel", kernel,
                        "--inputs", inputs, "--save", save, art],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"tlc-run {kernel} failed:\n{r.stdout}{r.stderr}")
    return lambda n: np.load(os.path.join(save, n + ".npy"))


def main(argv):
    tlc_run, art = argv[:2]
    scale = float(argv[argv.index("--scale") + 1]) if "--scale" in argv else 1.0
    p = ci.manifests(art)
    files, _ = ci.topk_selector_3stages(p, np.random.default_rng(0), scale)
    k1, k2, k3 = files  # stage order (dict order of the generator)
    x = files[k1]["input"]
    topk = p[k2]["index"][0][1]
    bad = 0

    def check(what, ok):
        nonlocal bad
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        bad += not ok

    tmp = tempfile.mkdtemp(prefix="topk3-")

    def stage_inputs(k, arrays):
        d = os.path.join(tmp, "in-" + k)
        os.makedirs(d, exist_ok=True)
        for n, a in arrays.items():
            np.save(os.path.join(d, n + ".npy"), a)
        return d

    s1 = run(tlc_run, art, k1, stage_inputs(k1, files[k1]),
             os.path.join(tmp, "out1"))
    hist = s1("global_histogram")
    ref_hist, ref_cands = ci.topk_stage2_state(x, topk, hist.shape[1])
    check("stage 1 histogram == np.bincount of the float16 high bytes",
          np.array_equal(hist, ref_hist))
    # Stage 2 on stage 1's histogram (not NumPy's).
    in2 = dict(files[k2], global_histogram=hist)
    s2 = run(tlc_run, art, k2, stage_inputs(k2, in2), os.path.join(tmp, "out2"))
    count, cidx, index2 = s2("candidate_count"), s2("candidate_idx"), s2("index")
    # Stage 3 on stage 2's candidates.
    in3 = dict(files[k3], global_histogram=hist, candidate_idx=cidx,
               candidate_count=count)
    s3 = run(tlc_run, art, k3, stage_inputs(k3, in3), os.path.join(tmp, "out3"))
    index3 = s3("index")
    for b in range(x.shape[0]):
        bins = ci.topk_radix_bins(x[b], None)
        suffix = np.cumsum(ref_hist[b][::-1])[::-1]
        above = np.append(suffix[1:], 0)
        t = int(np.nonzero((suffix > topk) & (above <= topk))[0][0])
        direct = int(above[t])
        check(f"row {b}: stage 2 candidate_count {count[b]} == NumPy's "
              f"{len(ref_cands[b])} (threshold bin {t})",
              count[b] == len(ref_cands[b]))
        check(f"row {b}: stage 2 candidates == the threshold bin's elements",
              np.array_equal(np.sort(cidx[b, :count[b]]), ref_cands[b]))
        check(f"row {b}: stage 2's {direct} index slots == the elements of "
              "higher bins",
              np.array_equal(np.sort(index2[b, :direct]),
                             np.nonzero(bins > t)[0]))
        final = np.concatenate([index2[b, :direct], index3[b, direct:topk]])
        order = np.argsort(-x[b].astype(np.float64), kind="stable")
        check(f"row {b}: the value ranked {topk} differs from the next "
              "(top-k is a set)", x[b, order[topk - 1]] != x[b, order[topk]])
        check(f"row {b}: stage 2 + stage 3 index == np.argsort's top "
              f"{topk} of {x.shape[1]}",
              np.array_equal(np.sort(final), np.sort(order[:topk])))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
