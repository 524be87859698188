#!/usr/bin/python3
# Binds the ports a pod's containers declare but the start-up tier runs no program for (native sidecars, other regular
# containers, an init container), in the pod's network namespace, as their processes would: each PORT/PROTOCOL on every
# address (TCP listening). Prints "held" once every port is bound, then holds them until killed (--once: releases them
# and exits 0, an init container that ends). A port another process of the pod already holds fails as it fails in a
# pod: "CONTAINER: PORT/PROTOCOL: address already in use", exit 98 (EADDRINUSE).
# Usage: port-holder.py [--once] CONTAINER=PORT/PROTOCOL ...
import errno, socket, sys, time

once = len(sys.argv) > 1 and sys.argv[1] == "--once"
held = []
for spec in sys.argv[2 if once else 1:]:
    container, port_protocol = spec.rsplit("=", 1)
    port, protocol = port_protocol.split("/")
    kind = {"TCP": socket.SOCK_STREAM, "UDP": socket.SOCK_DGRAM}.get(protocol.upper())
    if kind is None:
        continue  # SCTP: not bound here
    s = socket.socket(socket.AF_INET, kind)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("0.0.0.0", int(port)))
        if kind == socket.SOCK_STREAM:
            s.listen(16)
    except OSError as e:
        what = "address already in use" if e.errno == errno.EADDRINUSE else e.strerror
        print("%s: %s/%s: %s" % (container, port, protocol.upper(), what), flush=True)
        sys.exit(98 if e.errno == errno.EADDRINUSE else 1)
    held.append(s)
print("held", flush=True)
if not once:
    while True:
        time.sleep(3600)
