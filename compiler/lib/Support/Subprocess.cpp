//===- Subprocess.cpp - Running a tool with a time limit ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Subprocess.h"
#include "tlc/Support/Poll.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <dirent.h>
#endif

extern char **environ;

using namespace tlc;

/// The processes whose parent is \p pid. Linux lists them in /proc; elsewhere
/// none are found and only the tool itself is stopped.
static std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> children;
#if defined(__linux__)
  DIR *dir = opendir("/proc");
  if (!dir)
    return children;
  while (dirent *entry = readdir(dir)) {
    char *end = nullptr;
    long p = std::strtol(entry->d_name, &end, 10);
    if (!end || *end || p <= 0)
      continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line))
      continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    size_t close = line.rfind(')');
    if (close == std::string::npos)
      continue;
    char state = 0;
    long parent = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) ==
            2 &&
        parent == pid)
      children.push_back(pid_t(p));
  }
  closedir(dir);
#else
  (void)pid;
#endif
  return children;
}

/// Kills \p pid and its descendants. Each process is stopped before its
/// children are listed, so none starts a child that escapes.
static void killTree(pid_t pid) {
  ::kill(pid, SIGSTOP);
  for (pid_t child : childrenOf(pid))
    killTree(child);
  ::kill(pid, SIGKILL);
}

/// waitpid that goes on after a signal interrupts it.
static pid_t waitFor(pid_t pid, int &status, int options) {
  pid_t r;
  do
    r = ::waitpid(pid, &status, options);
  while (r < 0 && errno == EINTR);
  return r;
}

SubprocessResult tlc::runSubprocess(llvm::ArrayRef<std::string> args,
                                    llvm::StringRef logPath, unsigned seconds) {
  SubprocessResult result;
  if (args.empty()) {
    result.why = "no program to run";
    return result;
  }
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::string log = logPath.str();

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  pid_t pid = 0;
  int err = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (err) {
    result.why = "cannot run " + args.front() + ": " + std::strerror(err);
    return result;
  }

  int status = 0;
  // Short naps first (most tools here finish in well under a second when
  // cached), then at most 50 ms between looks. Without a limit, waitpid
  // blocks.
  PollStep end = pollWithNaps(
      [&] {
        pid_t r = waitFor(pid, status, seconds ? WNOHANG : 0);
        if (r == pid)
          return PollStep::Done;
        if (r < 0) {
          result.why = std::string("waiting for the tool failed: ") +
                       std::strerror(errno);
          return PollStep::Failed;
        }
        return PollStep::Again;
      },
      seconds, std::chrono::milliseconds(50));
  if (end == PollStep::Failed)
    return result;
  if (end == PollStep::Again) {
    killTree(pid);
    waitFor(pid, status, 0);
    result.kind = SubprocessResult::TimedOut;
    result.why = "stopped after " + std::to_string(seconds) + " s";
    return result;
  }
  if (WIFEXITED(status)) {
    result.kind = SubprocessResult::Exited;
    result.status = WEXITSTATUS(status);
    return result;
  }
  result.why = WIFSIGNALED(status) ? std::string("killed by signal ") +
                                         std::to_string(WTERMSIG(status))
                                   : std::string("ended abnormally");
  return result;
}
