"""Lists the entries of a CUDA fatbin file, one per line: `elf sm_80`,
`ptx sm_80`, ... (kind and architecture of each embedded image).

Reads the container directly (header magic 0xBA55ED50, then entries of
kind 1 = PTX, 2 = ELF, each with its architecture), so tests need no
cuobjdump. Usage: fatbin_entries.py FILE.fatbin
"""
import struct
import sys


def main():
    data = open(sys.argv[1], "rb").read()
    magic, _version, header_size, body_size = struct.unpack_from("<IHHQ", data, 0)
    if magic != 0xBA55ED50:
        sys.exit(f"not a fatbin: magic {magic:#x}")
    offset = header_size
    while offset < header_size + body_size:
        kind, _, entry_header, size = struct.unpack_from("<HHIQ", data, offset)
        arch = struct.unpack_from("<I", data, offset + 28)[0]
        print({1: "ptx", 2: "elf"}.get(kind, f"kind{kind}"), f"sm_{arch}")
        offset += entry_header + size


if __name__ == "__main__":
    main()
