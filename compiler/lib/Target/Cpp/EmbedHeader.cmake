# Writes the device header as a C++ raw string literal (run with cmake -P):
#   -DINPUT=runtime/device/include/tlc_device/cpu.h -DOUTPUT=.../CpuDeviceHeader.inc
file(READ "${INPUT}" content)
file(WRITE "${OUTPUT}.tmp" "R\"tlc_cpu_h(${content})tlc_cpu_h\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
