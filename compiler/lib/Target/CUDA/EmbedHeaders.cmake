# Writes device headers as C++ initialisers {"relative/name.h", R"(...)"}
# (run with cmake -P):
#   -DBASE=runtime/device/include -DFILES=a.h;b.h -DOUTPUT=.../X.inc
#   [-DCOMPLETE=ON]
# With COMPLETE, every `#include "tlc_device/..."` of the files must name
# one of FILES: the generated code is compiled (nvcc, NVRTC, clang) against
# these headers alone, so a missing one would fail only there.

cmake_minimum_required(VERSION 3.20)

set(text "")
foreach(f ${FILES})
  file(READ "${BASE}/${f}" content)
  if(COMPLETE)
    string(REGEX MATCHALL "#include \"tlc_device/[A-Za-z0-9_./]+\\.h\""
           includes "${content}")
    foreach(include ${includes})
      string(REGEX REPLACE "#include \"(.*)\"" "\\1" name "${include}")
      if(NOT name IN_LIST FILES)
        message(FATAL_ERROR "EmbedHeaders: ${f} includes ${name}, which is "
                            "not among the embedded headers (FILES)")
      endif()
    endforeach()
  endif()
  string(APPEND text "{\"${f}\", R\"tlc_h(${content})tlc_h\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
