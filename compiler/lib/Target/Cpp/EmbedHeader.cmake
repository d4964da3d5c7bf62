# Writes the CPU target's device header as a C++ raw string literal (run
# with cmake -P):
#   -DBASE=runtime/device/include -DINPUT=tlc_device/cpu.h
#   -DFILES=tlc_device/cpu.h;tlc_device/cpu/abi.h;...
#   -DOUTPUT=.../CpuDeviceHeader.inc
# The kernel artifact carries one header (tlc_cpu.h), so every
# `#include "tlc_device/NAME.h"` line of INPUT, and of the headers it
# brings in, is replaced by the text of BASE/tlc_device/NAME.h, each header
# at its first include only (later ones are dropped: the include guards
# would skip them). Angle-bracket includes stay. A header that is not
# among FILES (the build's dependencies of the output) is an error: edits
# to it would not rebuild the embedded text.

cmake_minimum_required(VERSION 3.20)

# The headers inlined so far (relative names).
set(tlcEmbedded "")

# Sets OUT to the text of BASE/RELATIVE with its tlc_device/ includes
# inlined.
function(tlc_inline_header relative out)
  if(NOT EXISTS "${BASE}/${relative}")
    message(FATAL_ERROR "EmbedHeader: ${BASE}/${relative} does not exist")
  endif()
  file(READ "${BASE}/${relative}" content)
  string(REGEX MATCHALL "#include \"tlc_device/[A-Za-z0-9_./]+\\.h\""
         includes "${content}")
  foreach(include ${includes})
    string(REGEX REPLACE "#include \"(.*)\"" "\\1" name "${include}")
    if(NOT name IN_LIST FILES)
      message(FATAL_ERROR "EmbedHeader: ${relative} includes ${name}, which "
                          "is not among the embedded headers (FILES)")
    endif()
    if(name IN_LIST tlcEmbedded)
      set(text "")
    else()
      list(APPEND tlcEmbedded "${name}")
      tlc_inline_header("${name}" text)
    endif()
    string(REPLACE "${include}" "${text}" content "${content}")
  endforeach()
  set(tlcEmbedded "${tlcEmbedded}" PARENT_SCOPE)
  set(${out} "${content}" PARENT_SCOPE)
endfunction()

list(APPEND tlcEmbedded "${INPUT}")
tlc_inline_header("${INPUT}" content)
file(WRITE "${OUTPUT}.tmp" "R\"tlc_cpu_h(${content})tlc_cpu_h\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
