# -*- Python -*-
# lit configuration for tlc: IR, emitter, tool and language-server tests.

import glob
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TLC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test", ".tl"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlc_obj_root, "tests", "lit")

# Strict FileCheck: variables are scoped to CHECK-LABEL blocks.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.with_environment("PATH", config.tlc_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%examples", os.path.join(config.tlc_src_root, "examples")))
config.substitutions.append(("%scripts", os.path.join(config.tlc_src_root, "tests", "scripts")))

# Features for tests that need a device or an optional host tool.
# "asan": an AddressSanitizer build (.ci/sanitizers), several times slower,
# where tests of the evaluator's wall-clock budgets cannot hold.
if "address" in getattr(config, "tlc_sanitize", ""):
    config.available_features.add("asan")
if os.path.exists("/dev/nvidiactl") or os.path.exists("/proc/driver/nvidia/version"):
    config.available_features.add("cuda")
if os.path.exists("/dev/kfd"):
    config.available_features.add("hip")
# "hip-toolchain": clang-22's AMDGPU back end can link code objects (lld-22)
# and ROCm's device libraries are installed (.ci/setup installs both).
if os.path.exists("/usr/lib/llvm-22/bin/ld.lld") and (
        os.path.exists("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc")
        or os.environ.get("TLC_ROCM_DEVICE_LIBS")):
    config.available_features.add("hip-toolchain")
# "offload-bundler": an LLVM clang-offload-bundler of any version (Debian's
# clang-14 has one; clang-22 has none), an independent reader of the
# bundles tlc writes itself (%offload_bundler).
bundlers = sorted(glob.glob("/usr/lib/llvm-*/bin/clang-offload-bundler"))
if bundlers:
    config.available_features.add("offload-bundler")
    config.substitutions.append(("%offload_bundler", bundlers[-1]))
# "sim-compiler": the sim device's host compiler (clang++-22, as .ci/setup
# installs it) is there, so generated CUDA can run on --device sim.
if shutil.which("clang++-22") or os.path.exists("/usr/lib/llvm-22/bin/clang++"):
    config.available_features.add("sim-compiler")
if os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
# "curand-host": nvcc and libcurand, whose host generators run on the CPU
# (an independent oracle of T.rng_init's curand generators).
if os.path.exists("/usr/local/cuda/bin/nvcc") and glob.glob(
        "/usr/local/cuda/lib64/libcurand.so*"):
    config.available_features.add("curand-host")
if glob.glob("/usr/local/cuda/lib64/libnvrtc.so*") and os.path.exists(
        "/usr/local/cuda/include/cuda_fp16.h"):
    config.available_features.add("nvrtc")

# In the sanitizer build (.ci/sanitizers) the suite runs again to catch
# tlc's own memory errors and undefined behaviour. Tests whose time goes to
# an external device compiler (clang's AMDGPU back end, nvcc, NVRTC) spend
# it in code that is not instrumented, and ran in the Release suite just
# before: without `--param sanitize_device_compilers=1` they are
# unsupported there (tlc's HIP and CUDA printers still run under the
# sanitizers through the --emit tests).
if "asan" in config.available_features and lit_config.params.get(
        "sanitize_device_compilers", "0") != "1":
    for feature in ("hip-toolchain", "nvcc", "nvrtc", "curand-host"):
        config.available_features.discard(feature)
# The sim device's runs are the other large cost there: the generated kernel
# calls back into the instrumented runtime on every load and store (4x to
# 15x slower than Release). Outside tlc-run/ (the sim runtime's own tests,
# whose lit.local.cfg keeps them) those runs check generated code that the
# Release suite has just run; without `--param sanitize_sim=1` they are
# unsupported, while the same tests' tlc-build lines still run.
if "asan" in config.available_features and lit_config.params.get(
        "sanitize_sim", "0") != "1" and "sim-compiler" in config.available_features:
    config.available_features.discard("sim-compiler")
    config.sim_compiler_kept_for_runtime = True
