// SPDX-License-Identifier: Apache-2.0
// toe_arp_cache: IPv4 -> MAC table, direct-mapped (index = XOR-folded low address bits),
// ENTRIES entries in flops. An entry older than `cfg_timeout_s` seconds is a miss (aged
// out); a new address that maps to a used slot replaces it. One write port (learn), one
// combinational lookup port (IPv4 TX asks once per frame, no wait states).
module toe_arp_cache #(
  parameter int unsigned ENTRIES = 16  // power of two
) (
  input  logic        clk,
  input  logic        rst,
  input  logic [15:0] now_s,          // free-running seconds
  input  logic [15:0] cfg_timeout_s,  // entry lifetime
  input  logic        learn,
  input  logic [31:0] learn_ip,
  input  logic [47:0] learn_mac,
  input  logic [31:0] lookup_ip,
  output logic        lookup_hit,
  output logic [47:0] lookup_mac
);
  localparam int unsigned IW = ENTRIES > 1 ? $clog2(ENTRIES) : 1;
  initial if (ENTRIES != (1 << $clog2(ENTRIES)))
    $fatal(0, "toe_arp_cache: ENTRIES must be a power of two (instance %m)");

  function automatic logic [IW-1:0] slot(input logic [31:0] ip);
    logic [IW-1:0] h = '0;
    for (int b = 0; b < 32; b += IW) h ^= IW'(ip >> b);
    return h;
  endfunction

  logic [ENTRIES-1:0] valid_reg;
  logic [31:0] ip_reg    [ENTRIES];
  logic [47:0] mac_reg   [ENTRIES];
  logic [15:0] stamp_reg [ENTRIES];

  wire [IW-1:0] li = slot(lookup_ip);
  assign lookup_hit = valid_reg[li] && ip_reg[li] == lookup_ip &&
                      (now_s - stamp_reg[li]) < cfg_timeout_s;
  assign lookup_mac = mac_reg[li];

  always_ff @(posedge clk) begin
    if (learn) begin
      valid_reg[slot(learn_ip)] <= 1'b1;
      ip_reg[slot(learn_ip)]    <= learn_ip;
      mac_reg[slot(learn_ip)]   <= learn_mac;
      stamp_reg[slot(learn_ip)] <= now_s;
    end
    if (rst) valid_reg <= '0;
  end
endmodule
