// SPDX-License-Identifier: Apache-2.0
// toe_eth_rx: Ethernet receive. Splits the 14-byte header off every frame from the MAC,
// accepts frames to our MAC or broadcast, and sends the payload of IPv4 frames to m_ip,
// of ARP frames to m_arp, and other frames whole (header re-inserted) to m_host when
// HOST_EN, else drops them. tuser[0] (FCS error on the last beat) is carried to the
// consumers, whose frame FIFOs drop such frames; it is counted here once.
// Counter pulses (one cycle each): frames seen, FCS errors, runts (< 14 bytes),
// wrong destination MAC, unsupported EtherType.
// Timing: one register stage (the verdict is registered with the frame's first payload
// beat), plus the host path's header insert.
module toe_eth_rx
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W  = 64,   // tdata width
  parameter bit          HOST_EN = 1'b0  // forward unsupported EtherTypes to m_host
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [47:0]         cfg_mac,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic                s_axis_tuser,
  // IPv4 and ARP payloads: tdata/tkeep/tlast/tuser shared, one tvalid/tready each.
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tlast,
  output logic                m_axis_tuser,
  output logic                m_ip_axis_tvalid,
  input  logic                m_ip_axis_tready,
  output logic                m_arp_axis_tvalid,
  input  logic                m_arp_axis_tready,
  // Whole frames of other EtherTypes.
  output logic [DATA_W-1:0]   m_host_axis_tdata,
  output logic [DATA_W/8-1:0] m_host_axis_tkeep,
  output logic                m_host_axis_tvalid,
  input  logic                m_host_axis_tready,
  output logic                m_host_axis_tlast,
  output logic                m_host_axis_tuser,
  output logic                stat_frames,
  output logic                stat_fcs_errors,
  output logic                stat_runts,
  output logic                stat_dst_drops,
  output logic                stat_type_drops
);
  localparam int unsigned HW = 8 * ETH_HDR_BYTES;

  logic [DATA_W-1:0] pl_tdata;
  logic [DATA_W/8-1:0] pl_tkeep;
  logic pl_tvalid, pl_tready, pl_tlast, pl_tuser, short_frame;
  logic [HW-1:0] hdr;

  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(1), .MAX_HDR_BYTES(ETH_HDR_BYTES)) u_extract (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .s_hdr_len(4'(ETH_HDR_BYTES)),
    .m_axis_tdata(pl_tdata), .m_axis_tkeep(pl_tkeep), .m_axis_tvalid(pl_tvalid),
    .m_axis_tready(pl_tready), .m_axis_tlast(pl_tlast), .m_axis_tuser(pl_tuser),
    .m_hdr(hdr), .short_frame
  );

  // The frame's verdict is decided on the extractor's output and registered with the
  // stream (the header rides on tuser): the header of a frame that ends on its last header
  // beat is combinational there, and the demux's ready must not reach back into it.
  eth_hdr_t eth;
  assign eth = eth_unpack(hdr);
  wire to_us_in  = eth.dst_mac == cfg_mac || eth.dst_mac == 48'hFFFF_FFFF_FFFF;
  wire [1:0] sel_in = eth.ethertype == ETHERTYPE_IPV4 ? 2'd0 :
                      eth.ethertype == ETHERTYPE_ARP  ? 2'd1 : 2'd2;

  localparam int unsigned RU = HW + 4;   // {hdr, to_us, sel, bad}
  logic [DATA_W-1:0] rg_tdata;
  logic [DATA_W/8-1:0] rg_tkeep;
  logic rg_tvalid, rg_tready, rg_tlast;
  logic [RU-1:0] rg_tuser;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(RU)) u_verdict_reg (
    .clk, .rst,
    .s_axis_tdata(pl_tdata), .s_axis_tkeep(pl_tkeep), .s_axis_tvalid(pl_tvalid),
    .s_axis_tready(pl_tready), .s_axis_tlast(pl_tlast), .s_axis_tuser({hdr, to_us_in, sel_in, pl_tuser}),
    .m_axis_tdata(rg_tdata), .m_axis_tkeep(rg_tkeep), .m_axis_tvalid(rg_tvalid),
    .m_axis_tready(rg_tready), .m_axis_tlast(rg_tlast), .m_axis_tuser(rg_tuser)
  );
  wire [HW-1:0] rg_hdr = rg_tuser[RU-1 -: HW];
  wire to_us     = rg_tuser[3];
  wire [1:0] sel = rg_tuser[2:1];
  wire type_drop = sel == 2'd2 && !HOST_EN;

  logic [2:0] dm_tvalid, dm_tready;
  logic [DATA_W-1:0] dm_tdata;
  logic [DATA_W/8-1:0] dm_tkeep;
  logic dm_tlast;
  logic [HW:0] dm_tuser;

  toe_axis_demux #(.N(3), .DATA_W(DATA_W), .USER_W(HW + 1)) u_demux (
    .clk, .rst,
    .s_axis_tdata(rg_tdata), .s_axis_tkeep(rg_tkeep), .s_axis_tvalid(rg_tvalid),
    .s_axis_tready(rg_tready), .s_axis_tlast(rg_tlast), .s_axis_tuser({rg_hdr, rg_tuser[0]}),
    .sel, .drop(!to_us || type_drop),
    .m_axis_tdata(dm_tdata), .m_axis_tkeep(dm_tkeep), .m_axis_tvalid(dm_tvalid),
    .m_axis_tready(dm_tready), .m_axis_tlast(dm_tlast), .m_axis_tuser(dm_tuser)
  );

  assign m_axis_tdata = dm_tdata;
  assign m_axis_tkeep = dm_tkeep;
  assign m_axis_tlast = dm_tlast;
  assign m_axis_tuser = dm_tuser[0];
  assign m_ip_axis_tvalid = dm_tvalid[0];
  assign m_arp_axis_tvalid = dm_tvalid[1];
  assign dm_tready[0] = m_ip_axis_tready;
  assign dm_tready[1] = m_arp_axis_tready;

  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(1), .HDR_BYTES(ETH_HDR_BYTES)) u_host_insert (
    .clk, .rst,
    .s_axis_tdata(dm_tdata), .s_axis_tkeep(dm_tkeep), .s_axis_tvalid(dm_tvalid[2]),
    .s_axis_tready(dm_tready[2]), .s_axis_tlast(dm_tlast), .s_axis_tuser(dm_tuser[0]),
    .s_hdr(dm_tuser[HW:1]),
    .m_axis_tdata(m_host_axis_tdata), .m_axis_tkeep(m_host_axis_tkeep),
    .m_axis_tvalid(m_host_axis_tvalid), .m_axis_tready(m_host_axis_tready),
    .m_axis_tlast(m_host_axis_tlast), .m_axis_tuser(m_host_axis_tuser)
  );

  // Per-frame decisions are counted on the first payload beat.
  logic first_reg;
  wire rg_take = rg_tvalid && rg_tready;
  always_ff @(posedge clk) begin
    stat_frames     <= s_axis_tvalid && s_axis_tready && s_axis_tlast;
    stat_fcs_errors <= s_axis_tvalid && s_axis_tready && s_axis_tlast && s_axis_tuser;
    stat_runts      <= short_frame;
    stat_dst_drops  <= rg_take && first_reg && !to_us;
    stat_type_drops <= rg_take && first_reg && to_us && type_drop;
    if (rg_take) first_reg <= rg_tlast;
    if (rst) begin
      first_reg <= 1'b1;
      {stat_frames, stat_fcs_errors, stat_dst_drops, stat_type_drops} <= '0;
    end
  end
endmodule
