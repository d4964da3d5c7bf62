# Writes the device header as a C++ raw string literal (run with cmake -P):
#   -DINPUT=runtime/device/include/tlc_device/cpu.h
#   -DPHILOX=runtime/device/include/tlc_device/philox.h -DOUTPUT=.../CpuDeviceHeader.inc
# The kernel artifact carries one header, so cpu.h's include of philox.h is
# replaced by that file's text.
file(READ "${INPUT}" content)
file(READ "${PHILOX}" philox)
string(REPLACE "#include \"tlc_device/philox.h\"" "${philox}" content "${content}")
file(WRITE "${OUTPUT}.tmp" "R\"tlc_cpu_h(${content})tlc_cpu_h\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
