"""Issue 8 bug 7, keepalive (RFC 1122 4.2.3.6): off by default (an idle connection sends
nothing for hours); when TCP_KEEPALIVE_IDLE_US is set, an idle connection is probed with
<SEQ=SND.NXT-1> and no data, an answered probe restarts the idle time, and after
TCP_KEEPALIVE_PROBES unanswered probes the connection is aborted (RST, app told RESET).
The persist give-up and the FIN-WAIT-2 timeout are checked by scripts in conformance/scripts."""
from scapy.all import TCP

from opentoe import Engine


def accepted(e):
    return e.accept_from_peer(e.listen(7), 40000)


def test_keepalive_off_by_default():
    with Engine() as e:
        s, _ = accepted(e)
        e.run(3 * 3600 * 1_000_000)
        assert not e.frames and s.ended is None
        assert e.state(s.sid)["state"] == "ESTABLISHED"


def test_keepalive_probes_and_gives_up():
    idle, intvl = 10_000_000, 1_000_000
    with Engine(regs={"TCP_KEEPALIVE_IDLE_US": idle, "TCP_KEEPALIVE_INTVL_US": intvl,
                      "TCP_KEEPALIVE_PROBES": 3}) as e:
        s, isn = accepted(e)
        t0 = e.now_ns
        # idle: a probe after the idle time; the peer answers it
        t, probe = e.recv_frame(timeout_us=2 * idle)
        assert probe[TCP].flags == "A" and probe[TCP].seq == isn and len(probe[TCP].payload) == 0
        assert abs((t - t0) / 1000 - idle) < 0.01 * idle, (t - t0) / 1e9
        e.inject_tcp(40000, 7, "A", 1001, ack=isn + 1)
        t_ans = e.now_ns
        # answered: the next probe comes a full idle time later
        t, probe = e.recv_frame(timeout_us=2 * idle)
        assert abs((t - t_ans) / 1000 - idle) < 0.01 * idle
        # now the peer is silent: probes every interval, then RST after the third
        times = [t]
        for _ in range(2):
            t, probe = e.recv_frame(timeout_us=2 * intvl)
            assert probe[TCP].flags == "A"
            times.append(t)
        t, rst = e.recv_frame(timeout_us=2 * intvl)
        assert rst[TCP].flags == "R" and rst[TCP].seq == isn + 1
        times.append(t)
        gaps = [(b - a) / 1000 for a, b in zip(times, times[1:])]
        assert all(abs(g - intvl) < 0.01 * intvl for g in gaps), gaps
        e.run(100)
        assert s.ended == "RESET"
        assert e.state(s.sid)["state"] in ("FREE", "CLOSED")


def test_keepalive_leaves_retransmission_alone():
    """With keepalive on, data sent from idle is retransmitted at the RTO (the idle timer
    gives way to it), and the idle time starts again once everything is acknowledged."""
    idle = 10_000_000
    with Engine(regs={"TCP_KEEPALIVE_IDLE_US": idle, "TCP_KEEPALIVE_INTVL_US": 1_000_000}) as e:
        s, isn = accepted(e)
        e.run(5_000_000)
        s.send(b"x" * 100)
        t, seg = e.recv_frame()
        assert len(seg[TCP].payload) == 100
        t2, again = e.recv_frame(timeout_us=3_000_000)
        assert len(again[TCP].payload) == 100 and again[TCP].seq == seg[TCP].seq
        assert 0.9e9 < t2 - t < 1.1e9, "retransmission at the initial RTO (1 s)"
        e.inject_tcp(40000, 7, "A", 1001, ack=isn + 101)
        t_ack = e.now_ns
        t3, probe = e.recv_frame(timeout_us=2 * idle)
        assert probe[TCP].seq == isn + 100 and len(probe[TCP].payload) == 0
        assert abs((t3 - t_ack) / 1000 - idle) < 0.01 * idle
