//===- BinaryCheck.cpp - Whole-file checks of kernel binaries -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/BinaryCheck.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tlc::artifact;
namespace endian = llvm::support::endian;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The little-endian T at \p offset of \p image (the caller
/// checked that it is inside \p image).
template <typename T> static T readLE(llvm::StringRef image, uint64_t offset) {
  return endian::read<T, llvm::endianness::little>(image.data() + offset);
}

/// True when [offset, offset + size) lies inside a file of \p fileSize
/// bytes (without overflow).
static bool inside(uint64_t offset, uint64_t size, uint64_t fileSize) {
  return offset <= fileSize && size <= fileSize - offset;
}

/// A 64-bit little-endian ELF file (x86-64 shared objects, cubins, AMDGPU
/// code objects): the header, then every table entry and every part of
/// the file a segment or section claims.
static llvm::Error checkElf(llvm::StringRef image) {
  uint64_t size = image.size();
  constexpr uint64_t kHeaderSize = 64; // sizeof(Elf64_Ehdr)
  if (size < kHeaderSize)
    return fail(llvm::formatv("ELF file of {0} bytes, shorter than its "
                              "{1}-byte header",
                              size, kHeaderSize));
  if (image[4] != 2 /*ELFCLASS64*/ || image[5] != 1 /*ELFDATA2LSB*/)
    return fail("ELF file that is not 64-bit little-endian");
  auto phoff = readLE<uint64_t>(image, 32);
  auto shoff = readLE<uint64_t>(image, 40);
  auto phentsize = readLE<uint16_t>(image, 54);
  auto phnum = readLE<uint16_t>(image, 56);
  auto shentsize = readLE<uint16_t>(image, 58);
  auto shnum = readLE<uint16_t>(image, 60);
  auto cut = [&](llvm::StringRef what, uint64_t end) {
    return fail(llvm::formatv("{0} ends at byte {1} of an ELF file of {2} "
                              "bytes: the file is cut short",
                              what, end, size));
  };
  if (phnum &&
      (phentsize < 56 || !inside(phoff, uint64_t(phentsize) * phnum, size)))
    return cut("the program header table", phoff + uint64_t(phentsize) * phnum);
  if (shnum &&
      (shentsize < 64 || !inside(shoff, uint64_t(shentsize) * shnum, size)))
    return cut("the section header table", shoff + uint64_t(shentsize) * shnum);
  for (unsigned i = 0; i < phnum; ++i) {
    uint64_t at = phoff + uint64_t(i) * phentsize;
    auto offset = readLE<uint64_t>(image, at + 8);
    auto fileSize = readLE<uint64_t>(image, at + 32);
    if (!inside(offset, fileSize, size))
      return cut(llvm::formatv("segment {0}", i).str(), offset + fileSize);
  }
  for (unsigned i = 0; i < shnum; ++i) {
    uint64_t at = shoff + uint64_t(i) * shentsize;
    auto type = readLE<uint32_t>(image, at + 4);
    if (type == 8 /*SHT_NOBITS*/ || type == 0 /*SHT_NULL*/)
      continue;
    auto offset = readLE<uint64_t>(image, at + 24);
    auto secSize = readLE<uint64_t>(image, at + 32);
    if (!inside(offset, secSize, size))
      return cut(llvm::formatv("section {0}", i).str(), offset + secSize);
  }
  return llvm::Error::success();
}

/// A CUDA fatbin: magic, version, header size and the size of what follows
/// the header.
static llvm::Error checkFatbin(llvm::StringRef image) {
  uint64_t size = image.size();
  if (size < 16)
    return fail(llvm::formatv("fatbin of {0} bytes, shorter than its 16-byte "
                              "header",
                              size));
  uint64_t headerSize = readLE<uint16_t>(image, 6);
  uint64_t fatSize = readLE<uint64_t>(image, 8);
  if (!inside(headerSize, fatSize, size))
    return fail(llvm::formatv("the fatbin's header gives {0} bytes, the file "
                              "has {1}: it is cut short",
                              headerSize + fatSize, size));
  return llvm::Error::success();
}

/// A clang offload bundle: magic, the entry count, then per entry its
/// offset, size and target triple.
static llvm::Error checkOffloadBundle(llvm::StringRef image,
                                      uint64_t magicSize) {
  uint64_t size = image.size();
  uint64_t at = magicSize;
  if (!inside(at, 8, size))
    return fail("offload bundle cut short in its header");
  uint64_t count = readLE<uint64_t>(image, at);
  at += 8;
  for (uint64_t i = 0; i < count; ++i) {
    if (!inside(at, 24, size))
      return fail(llvm::formatv("offload bundle cut short in the header of "
                                "entry {0}",
                                i));
    uint64_t offset = readLE<uint64_t>(image, at);
    uint64_t entrySize = readLE<uint64_t>(image, at + 8);
    uint64_t tripleSize = readLE<uint64_t>(image, at + 16);
    at += 24;
    if (!inside(at, tripleSize, size))
      return fail("offload bundle cut short in an entry's target name");
    at += tripleSize;
    if (!inside(offset, entrySize, size))
      return fail(llvm::formatv("entry {0} of the offload bundle ends at "
                                "byte {1} of a file of {2} bytes: the file "
                                "is cut short",
                                i, offset + entrySize, size));
  }
  return llvm::Error::success();
}

llvm::Error tlc::artifact::checkBinaryImage(llvm::StringRef image) {
  if (image.empty())
    return fail("empty file");
  if (image.starts_with("\x7f"
                        "ELF"))
    return checkElf(image);
  if (image.size() >= 4 && readLE<uint32_t>(image, 0) == 0xBA55ED50u)
    return checkFatbin(image);
  llvm::StringRef bundle = "__CLANG_OFFLOAD_BUNDLE__";
  if (image.starts_with(bundle))
    return checkOffloadBundle(image, bundle.size());
  // Another format (a test's stand-in driver module): its loader judges it.
  return llvm::Error::success();
}

llvm::Error tlc::artifact::checkBinaryFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("cannot read kernel binary '" + path +
                "': " + buffer.getError().message());
  if (llvm::Error e = checkBinaryImage((*buffer)->getBuffer()))
    return fail("kernel binary '" + path + "' is damaged (" +
                llvm::toString(std::move(e)) +
                "); build it again with tlc-build");
  return llvm::Error::success();
}
