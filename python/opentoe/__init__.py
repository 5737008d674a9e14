"""opentoe: the OpenTOE engine (the real RTL, Verilated) scriptable from Python.

    from opentoe import Engine
    with Engine() as e:                      # 64-bit engine, virtual time
        srv = e.listen(7)
        ...

See docs/python.md. `Engine` talks to build/toe-harness-<DATA_W> over a pipe; frames are
scapy packets; sockets are on the engine's TCP application API."""
from .engine import Engine, EngineError, Socket, Listener, STATES, NOTIF_KINDS

__all__ = ["Engine", "EngineError", "Socket", "Listener", "STATES", "NOTIF_KINDS"]
