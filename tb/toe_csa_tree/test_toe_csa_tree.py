"""toe_csa_tree: the two carry-save words sum to the terms' sum (mod 2^OUT_W), for random
terms, all-ones terms (every carry set) and single-term trees."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

import runner


@cocotb.test()
async def words_sum_to_the_terms(dut):
    n, in_w, out_w = int(dut.N.value), int(dut.IN_W.value), int(dut.OUT_W.value)
    rng = random.Random(n)
    cases = [[(1 << in_w) - 1] * n, [0] * n] + [[rng.getrandbits(in_w) for _ in range(n)] for _ in range(300)]
    for terms in cases:
        dut.terms.value = sum(t << (in_w * i) for i, t in enumerate(terms))
        await Timer(1, "ns")
        got = (int(dut.sum_s.value) + int(dut.sum_c.value)) % (1 << out_w)
        assert got == sum(terms) % (1 << out_w), (terms, got)


@pytest.mark.parametrize("n,out_w", [(1, 16), (2, 17), (3, 18), (4, 18), (5, 19), (6, 19), (7, 19), (9, 20), (15, 20), (17, 21), (32, 32), (32, 18)])
def test_toe_csa_tree(n, out_w):
    runner.run("toe_csa_tree", "test_toe_csa_tree", {"N": n, "IN_W": 16, "OUT_W": out_w}, Path(__file__).parent)
