# Writes the device header as a C++ raw string literal (run with cmake -P):
#   -DINPUT=runtime/device/include/tlc_device/cpu.h
#   -DPHILOX=runtime/device/include/tlc_device/philox.h
#   -DXORWOW=runtime/device/include/tlc_device/xorwow.h
#   -DMRG32K3A=runtime/device/include/tlc_device/mrg32k3a.h
#   -DFP4=runtime/device/include/tlc_device/fp4.h -DOUTPUT=.../CpuDeviceHeader.inc
# The kernel artifact carries one header, so cpu.h's includes of philox.h,
# xorwow.h, mrg32k3a.h and fp4.h are replaced by those files' text.
file(READ "${INPUT}" content)
file(READ "${PHILOX}" philox)
file(READ "${FP4}" fp4)
file(READ "${XORWOW}" xorwow)
file(READ "${MRG32K3A}" mrg32k3a)
string(REPLACE "#include \"tlc_device/philox.h\"" "${philox}" content "${content}")
string(REPLACE "#include \"tlc_device/fp4.h\"" "${fp4}" content "${content}")
string(REPLACE "#include \"tlc_device/xorwow.h\"" "${xorwow}" content "${content}")
string(REPLACE "#include \"tlc_device/mrg32k3a.h\"" "${mrg32k3a}" content "${content}")
file(WRITE "${OUTPUT}.tmp" "R\"tlc_cpu_h(${content})tlc_cpu_h\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
