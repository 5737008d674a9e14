"""Sequence-number arithmetic of RFC 9293 3.4 for the tests' references: modulo 2^32, and
a < b when a - b, as a signed 32-bit number, is negative."""
M = 1 << 32


def wrap(x):
    return x % M


def lt(a, b):
    return wrap(a - b) >= 1 << 31


def le(a, b):
    return a == b or lt(a, b)
