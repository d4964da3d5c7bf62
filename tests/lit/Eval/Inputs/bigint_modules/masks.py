# Imported by hashing.py, itself imported by bigint-imported-consts.py.
WORD = 64
ALL_ONES = (1 << WORD) - 1
GOLDEN = 0x9E3779B97F4A7C15
