# Writes device headers as C++ initialisers {"relative/name.h", R"(...)"}
# (run with cmake -P):
#   -DBASE=runtime/device/include -DFILES=a.h;b.h -DOUTPUT=.../X.inc
set(text "")
foreach(f ${FILES})
  file(READ "${BASE}/${f}" content)
  string(APPEND text "{\"${f}\", R\"tlc_h(${content})tlc_h\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
