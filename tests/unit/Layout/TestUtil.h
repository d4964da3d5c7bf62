//===- TestUtil.h - Helpers shared by the layout unit tests -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TESTS_UNIT_LAYOUT_TESTUTIL_H
#define TLC_TESTS_UNIT_LAYOUT_TESTUTIL_H

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

namespace tlc {
namespace layout {
namespace test {

/// Runs \p script with /usr/bin/python3 and returns its stdout, or
/// std::nullopt when Python could not be run or exited with an error.
inline std::optional<std::string> runPython(const std::string &script) {
  char path[] = "/tmp/tlc-layout-test-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return std::nullopt;
  close(fd);
  {
    std::ofstream file(path);
    file << script;
  }
  std::string command = std::string("/usr/bin/python3 ") + path;
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) {
    unlink(path);
    return std::nullopt;
  }
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  int status = pclose(pipe);
  unlink(path);
  if (status != 0)
    return std::nullopt;
  return out;
}

} // namespace test
} // namespace layout
} // namespace tlc

#endif // TLC_TESTS_UNIT_LAYOUT_TESTUTIL_H
