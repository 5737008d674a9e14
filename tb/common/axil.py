"""Minimal AXI4-Lite master for cocotb on the falling-edge/ReadOnly sampling model of
tbutil (see there)."""
from cocotb.triggers import FallingEdge, ReadOnly


class AxilMaster:
    def __init__(self, tb, prefix="s_axil"):
        self.tb = tb
        d = tb.dut
        self.s = {n: getattr(d, f"{prefix}_{n}") for n in (
            "awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bvalid",
            "bready", "araddr", "arvalid", "arready", "rdata", "rvalid", "rready")}
        for n in ("awvalid", "wvalid", "bready", "arvalid", "rready"):
            self.s[n].value = 0

    async def write(self, addr, data, strb=0xF):
        s = self.s
        await FallingEdge(self.tb.clk)
        s["awaddr"].value, s["wdata"].value, s["wstrb"].value = addr, data, strb
        s["awvalid"].value = s["wvalid"].value = s["bready"].value = 1
        while True:
            await ReadOnly()
            done = s["awready"].value and s["wready"].value
            await FallingEdge(self.tb.clk)
            if done:
                break
        s["awvalid"].value = s["wvalid"].value = 0
        while True:
            await ReadOnly()
            done = s["bvalid"].value
            await FallingEdge(self.tb.clk)
            if done:
                break
        s["bready"].value = 0

    async def read(self, addr):
        s = self.s
        await FallingEdge(self.tb.clk)
        s["araddr"].value = addr
        s["arvalid"].value = s["rready"].value = 1
        while True:
            await ReadOnly()
            done = s["arready"].value
            await FallingEdge(self.tb.clk)
            if done:
                break
        s["arvalid"].value = 0
        while True:
            await ReadOnly()
            if s["rvalid"].value:
                value = int(s["rdata"].value)
                await FallingEdge(self.tb.clk)
                break
            await FallingEdge(self.tb.clk)
        s["rready"].value = 0
        return value
