"""TCP forwarding between this machine's network namespace and one network namespace a test made.

    python3 netns_bridge.py NETNS_FILE RULE...

RULE is SIDE:HOST:PORT>SIDE:HOST:PORT, SIDE "host" or "ns": listen on the left address in that side's namespace,
and for each connection accepted dial the right address in its side's namespace and copy bytes both ways. Port 0
on the left picks a free port. For each rule a line "listening <rule index> <port>" is printed, then "ready".

A socket belongs to the network namespace its creating thread was in (setns(2) changes only the calling thread), so
each socket is created with the thread switched to its side and back: no address is added, no route anywhere.
"""
import ctypes
import os
import socket
import sys
import threading

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)
HOST_NS = os.open("/proc/self/ns/net", os.O_RDONLY)
TARGET_NS = None


def in_side(side, make):
    fd = TARGET_NS if side == "ns" else HOST_NS
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns to the %s namespace failed" % side)
    try:
        return make()
    finally:
        if libc.setns(HOST_NS, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns back to this machine's namespace failed")


def parse(end):
    side, host, port = end.split(":")
    if side not in ("host", "ns"):
        raise SystemExit("side must be host or ns: " + end)
    return side, host, int(port)


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s, how in ((dst, socket.SHUT_WR), (src, socket.SHUT_RD)):
            try:
                s.shutdown(how)
            except OSError:
                pass


def serve(listener, target):
    side, host, port = target
    while True:
        client, _ = listener.accept()
        try:
            upstream = in_side(side, lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            upstream.connect((host, port))
        except OSError as e:
            print("cannot reach %s:%s:%d: %s" % (side, host, port, e), file=sys.stderr, flush=True)
            client.close()
            continue
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


def main():
    global TARGET_NS
    TARGET_NS = os.open(sys.argv[1], os.O_RDONLY)
    threads = []
    for index, rule in enumerate(sys.argv[2:]):
        left, right = rule.split(">")
        side, host, port = parse(left)

        def make(host=host, port=port):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
            s.listen(64)
            return s

        listener = in_side(side, make)
        print("listening %d %d" % (index, listener.getsockname()[1]), flush=True)
        t = threading.Thread(target=serve, args=(listener, parse(right)), daemon=True)
        t.start()
        threads.append(t)
    print("ready", flush=True)
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
