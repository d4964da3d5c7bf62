#===- TlcStaticLLVM.cmake - Link LLVM/MLIR statically -----------------------===#
#
# Debian builds LLVM with LLVM_LINK_LLVM_DYLIB=ON, so every exported MLIR
# library names the shared `LLVM` target in its link interface. tlc's tools
# must run on GPU machines without LLVM installed, so we rewire those imported
# targets to the static LLVM component libraries instead.
#
#===-------------------------------------------------------------------------===#

set(LLVM_LINK_LLVM_DYLIB OFF)

# LLVMSupport's link interface names these imported targets.
find_package(ZLIB REQUIRED)
find_package(zstd REQUIRED)
set(TLC_LLVM_STATIC_LIBS LLVMSupport LLVMDemangle)

foreach(tlcTarget IN LISTS MLIR_EXPORTED_TARGETS)
  if(NOT TARGET ${tlcTarget})
    continue()
  endif()
  get_target_property(tlcLibs ${tlcTarget} INTERFACE_LINK_LIBRARIES)
  if(NOT tlcLibs)
    continue()
  endif()
  list(FIND tlcLibs LLVM tlcIdx)
  if(tlcIdx EQUAL -1)
    continue()
  endif()
  list(REMOVE_ITEM tlcLibs LLVM)
  list(APPEND tlcLibs ${TLC_LLVM_STATIC_LIBS})
  set_target_properties(${tlcTarget} PROPERTIES INTERFACE_LINK_LIBRARIES "${tlcLibs}")
endforeach()

# MLIRRemarkStreamer (pulled in by MLIROptLib) also calls into LLVMRemarks,
# which the dylib used to provide.
if(TARGET MLIRRemarkStreamer AND TARGET LLVMRemarks)
  set_property(TARGET MLIRRemarkStreamer APPEND PROPERTY
    INTERFACE_LINK_LIBRARIES LLVMRemarks)
endif()

# Drop shared libraries nothing references (LLVMSupport's interface lists
# libz3, which the static archive only needs for code we never pull in).
add_link_options("LINKER:--as-needed")
