#!/usr/bin/env python3
"""Raw TCP figures of the target's network stack, against netecho on a booted target:
target-to-host and host-to-target throughput (MiB/s, median of N transfers) and the round
trip of a 32-byte echo (microseconds, median of 1000). Usage: net_raw.py PORT RUNS MIB"""
import socket, statistics, sys, time

port, runs, mib = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

def conn():
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s

def source(n):
    s = conn(); t = time.perf_counter(); s.sendall(b"source %d\n" % n); got = 0
    while got < n:
        d = s.recv(1 << 20)
        if not d: break
        got += len(d)
    dt = time.perf_counter() - t; s.close()
    assert got == n, (got, n)
    return n / dt / 2**20

def sink(n):
    s = conn(); t = time.perf_counter(); s.sendall(b"sink %d\n" % n + b"x" * n)
    assert s.recv(3) == b"ok\n"; dt = time.perf_counter() - t; s.close()
    return n / dt / 2**20

def echo_rtt(count):
    s = conn(); msg = b"r" * 32; rtts = []
    for _ in range(count):
        t = time.perf_counter(); s.sendall(msg); got = b""
        while len(got) < len(msg):
            d = s.recv(64)
            if not d:
                raise SystemExit("echo: the target closed the connection")
            got += d
        rtts.append((time.perf_counter() - t) * 1e6)
    s.close()
    return statistics.median(rtts), min(rtts)

out = [source(mib << 20) for _ in range(runs)]
inn = [sink(mib << 20) for _ in range(runs)]
med, best = echo_rtt(1000)
print("  target->host %.1f MiB/s median (%s)" % (statistics.median(out), " ".join("%.1f" % v for v in out)))
print("  host->target %.1f MiB/s median (%s)" % (statistics.median(inn), " ".join("%.1f" % v for v in inn)))
print("  32-byte echo round trip %.0f us median, %.0f us best (1000 round trips)" % (med, best))
