"""Lists the entries of a clang offload bundle (the format clang's
ClangOffloadBundler.rst documents): magic, entry count, then per entry
offset, size, id length and id, all little-endian u64."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
magic = b"__CLANG_OFFLOAD_BUNDLE__"
assert data.startswith(magic), "not an offload bundle"
(count,) = struct.unpack_from("<Q", data, len(magic))
pos = len(magic) + 8
for _ in range(count):
    offset, size, idlen = struct.unpack_from("<QQQ", data, pos)
    pos += 24
    ident = data[pos:pos + idlen].decode()
    pos += idlen
    if size == 0:
        print(f"{ident} 0 bytes")
        continue
    obj = data[offset:offset + size]
    # ELF magic and e_machine 224 (EM_AMDGPU) at byte 18.
    machine = struct.unpack_from("<H", obj, 18)[0] if obj[:4] == b"\x7fELF" else -1
    print(f"{ident} {'ELF AMDGPU' if machine == 224 else 'not an AMDGPU ELF'}")
