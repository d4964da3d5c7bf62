//===- SubprocessTest.cpp - runSubprocess unit tests ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <fstream>
#include <signal.h>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

using namespace tlc;

namespace {
/// A temporary file name, removed at the end of the test.
struct TempPath {
  llvm::SmallString<128> path;
  explicit TempPath(const char *suffix) {
    llvm::sys::fs::createTemporaryFile("tlc-subprocess-test", suffix, path);
  }
  ~TempPath() { llvm::sys::fs::remove(path); }
  std::string read() const {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  }
};

SubprocessResult shell(const std::string &script, const TempPath &log,
                       unsigned seconds) {
  return runSubprocess({"/bin/sh", "-c", script}, log.path, seconds);
}

/// Whether process \p pid still runs (a zombie waiting for its reaper
/// does not), waiting up to 5 s for a killed one to go.
bool stillRuns(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
      return false;
    size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() &&
        line[close + 2] == 'Z')
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

/// A script that starts a 30 s sleep in the background, writes its pid to
/// \p pidFile and waits for it: a driver and the child it runs.
std::string sleeperScript(const TempPath &pidFile) {
  return "sleep 30 & echo $! > '" + pidFile.path.str().str() + "'; wait";
}
} // namespace

TEST_CASE("a tool's exit status, with its output and errors in the log") {
  TempPath log("log");
  SubprocessResult r = shell("echo out; echo err >&2; exit 3", log, 0);
  CHECK(r.kind == SubprocessResult::Exited);
  CHECK(r.status == 3);
  CHECK(log.read() == "out\nerr\n");
}

TEST_CASE("a tool reads an empty standard input") {
  TempPath log("log");
  SubprocessResult r = shell("cat; echo done", log, 20);
  CHECK(r.kind == SubprocessResult::Exited);
  CHECK(r.status == 0);
  CHECK(log.read() == "done\n");
}

TEST_CASE("a program that does not exist is a failure that says so") {
  TempPath log("log");
  SubprocessResult r =
      runSubprocess({"/nonexistent/tlc-no-such-tool"}, log.path, 5);
  CHECK(r.kind == SubprocessResult::Failed);
  CHECK(r.why.find("cannot run /nonexistent/tlc-no-such-tool") == 0);
}

TEST_CASE("a tool ended by a signal is a failure naming the signal") {
  TempPath log("log");
  SubprocessResult r = shell("kill -9 $$", log, 20);
  CHECK(r.kind == SubprocessResult::Failed);
  CHECK(r.why == "killed by signal 9");
}

TEST_CASE("a tool past its limit is stopped with the processes it started") {
  TempPath log("log"), pidFile("pid");
  SubprocessResult r = shell(sleeperScript(pidFile), log, 1);
  CHECK(r.kind == SubprocessResult::TimedOut);
  CHECK(r.why == "stopped after 1 s");
  pid_t child = std::atoi(pidFile.read().c_str());
  REQUIRE(child > 0);
  CHECK_FALSE(stillRuns(child));
}

TEST_CASE("limits of tools run at once from several threads are their own") {
  // ExecuteAndWait's single process alarm failed this: one thread's
  // finished wait cancelled the others' limits (they ran their full 30 s).
  constexpr int n = 4;
  std::vector<TempPath> logs, pids;
  logs.reserve(n);
  pids.reserve(n);
  for (int i = 0; i < n; ++i) {
    logs.emplace_back("log");
    pids.emplace_back("pid");
  }
  std::vector<SubprocessResult> results(n + 1);
  TempPath quickLog("log");
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      results[i] = shell(sleeperScript(pids[i]), logs[i], 1 + i % 2);
    });
  threads.emplace_back(
      [&] { results[n] = shell("sleep 0.2; exit 7", quickLog, 20); });
  for (std::thread &t : threads)
    t.join();
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(results[i].kind == SubprocessResult::TimedOut);
    pid_t child = std::atoi(pids[i].read().c_str());
    CHECK(child > 0);
    CHECK_FALSE(stillRuns(child));
  }
  CHECK(results[n].kind == SubprocessResult::Exited);
  CHECK(results[n].status == 7);
}
