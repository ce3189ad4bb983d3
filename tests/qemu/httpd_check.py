#!/usr/bin/env python3
"""Checks a running httpd (sim/workloads/httpd) over raw sockets: answers, errors, keep-alive,
pipelining, the key-value store and the page-view counter, and the timeouts on slow clients.
Run by tests/qemu/httpd*.sh against a target started with httpd:timeout=2:keepalive=2.
    httpd_check.py PORT WWW_DIR        exits 0 when every check passed, 1 with the failures"""
import os
import socket
import sys
import time

PORT, WWW = int(sys.argv[1]), sys.argv[2]
failures = []


def check(what, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, (": " + detail) if detail and not ok else ""))
    if not ok:
        failures.append(what)


def connect():
    s = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


class Reader:
    """Reads responses (head, then Content-Length bytes) from one connection."""

    def __init__(self, sock):
        self.s, self.buf = sock, b""

    def fill(self):
        chunk = self.s.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        self.buf += chunk

    def response(self, head_only=False):
        while b"\r\n\r\n" not in self.buf:
            self.fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        version, status = lines[0].split(" ", 2)[:2]
        fields = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            fields[name.strip().lower()] = value.strip()
        n = 0 if head_only else int(fields.get("content-length", "0"))
        while len(self.buf) < n:
            self.fill()
        body, self.buf = self.buf[:n], self.buf[n:]
        return int(status), fields, body

    def closed(self):
        """True if the server closes the connection (after what was read)."""
        try:
            while True:
                self.fill()
        except EOFError:
            return True
        except (ConnectionResetError, socket.timeout):
            return False


def exchange(raw, head_only=False):
    s = connect()
    s.sendall(raw)
    r = Reader(s)
    status, fields, body = r.response(head_only)
    return status, fields, body, r


def www(name):
    with open(os.path.join(WWW, name), "rb") as f:
        return f.read()


GET = b"GET %s HTTP/1.1\r\nHost: kov\r\n\r\n"

# Files, HEAD, and what is not there.
st, f, body, _ = exchange(GET % b"/")
check("GET / is index.html", st == 200 and body == www("index.html"), "%d %r" % (st, body[:60]))
check("GET / has its type and length",
      f.get("content-type", "").startswith("text/html") and f.get("content-length") == str(len(body)), str(f))
st, f, body, _ = exchange(GET % b"/table-32k.html")
check("GET a 32 KiB file", st == 200 and body == www("table-32k.html"), "%d, %d bytes" % (st, len(body)))
st, f, body, r = exchange(b"HEAD /about.txt HTTP/1.1\r\nHost: kov\r\n\r\n", head_only=True)
check("HEAD gives the length and no body",
      st == 200 and f.get("content-length") == str(len(www("about.txt"))) and r.buf == b"", str(f))
for path in (b"/missing.html", b"/../httpd", b"/.hidden", b"/www/index.html", b"/%2e%2e/x"):
    st, _, _, _ = exchange(GET % path)
    check("GET %s is 404" % path.decode(), st == 404, str(st))

# Methods.
st, f, _, _ = exchange(b"POST / HTTP/1.1\r\nHost: kov\r\nContent-Length: 3\r\n\r\nabc")
check("POST is 405 with Allow", st == 405 and f.get("allow") == "GET, HEAD", "%d %s" % (st, f))
st, f, _, _ = exchange(b"DELETE /kv/x HTTP/1.1\r\nHost: kov\r\n\r\n")
check("DELETE on the store is 405 with its Allow", st == 405 and f.get("allow") == "GET, HEAD, PUT", str(f))
st, _, _, _ = exchange(b"BREW /pot HTTP/1.1\r\nHost: kov\r\n\r\n")
check("an unknown method is 501", st == 501, str(st))

# Malformed and oversized requests: the error, then the connection closes.
bad = [
    (b"GET / HTTP/1.1\r\nHost : kov\r\n\r\n", 400, "a space before the colon"),
    (b"GET / HTTP/1.1\r\n\r\n", 400, "HTTP/1.1 without Host"),
    (b"GET /\r\n\r\n", 400, "no version"),
    (b"\x16\x03\x01\x00\xa5\x01\x00\x00", 400, "a TLS hello"),
    (b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: kov\r\n\r\n", 414, "a 3000-byte target"),
    (b"GET / HTTP/1.1\r\nHost: kov\r\n" + b"X-Pad: " + b"p" * 9000 + b"\r\n\r\n", 431, "a 9 KiB field"),
    (b"PUT /kv/big HTTP/1.1\r\nHost: kov\r\nContent-Length: 100000\r\n\r\n", 413, "a 100 kB body"),
    (b"GET / HTTP/1.1\r\nHost: kov\r\nTransfer-Encoding: chunked\r\n\r\n", 501, "a chunked body"),
    (b"GET / HTTP/3.0\r\nHost: kov\r\n\r\n", 505, "HTTP/3.0"),
]
for raw, want, what in bad:
    st, f, _, r = exchange(raw)
    check("%s is %d and closes" % (what, want), st == want and f.get("connection") == "close" and r.closed(),
          "%d %s" % (st, f))

# The key-value store and the page-view counter.
put = b"PUT /kv/%s HTTP/1.1\r\nHost: kov\r\nContent-Length: %d\r\n\r\n%s"
st, _, body, _ = exchange(put % (b"colour", 4, b"blue"))
check("PUT a new key is 201", st == 201, "%d %r" % (st, body))
st, _, body, _ = exchange(GET % b"/kv/colour")
check("GET the key gives its value", st == 200 and body == b"blue", "%d %r" % (st, body))
st, _, _, _ = exchange(put % (b"colour", 5, b"green"))
st2, _, body, _ = exchange(GET % b"/kv/colour")
check("PUT again replaces it (200)", st == 200 and body == b"green", "%d %r" % (st, body))
st, _, _, _ = exchange(b"PUT /kv/n HTTP/1.1\r\nHost: kov\r\n\r\n")
check("PUT without a length is 411", st == 411, str(st))
st, _, _, _ = exchange(GET % b"/kv/never-stored")
check("GET a missing key is 404", st == 404, str(st))
views = []
for _ in range(2):
    st, _, body, _ = exchange(GET % b"/counter")
    views.append(int(body.split(b"\n")[0].split(b": ")[1]) if st == 200 else -1)
check("the counter counts its views", views[0] >= 1 and views[1] == views[0] + 1, str(views))

# Keep-alive: HTTP/1.1 by default, HTTP/1.0 when asked (ApacheBench -k), pipelining in order.
s = connect()
r = Reader(s)
s.sendall(GET % b"/style.css" + GET % b"/about.txt" + GET % b"/missing")
got = [r.response() for _ in range(3)]
check("three pipelined requests answered in order on one connection",
      [g[0] for g in got] == [200, 200, 404] and got[0][2] == www("style.css") and got[1][2] == www("about.txt"),
      str([g[0] for g in got]))
s.sendall(b"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
st, f, body, = r.response()
check("HTTP/1.0 with Keep-Alive stays open", st == 200 and f.get("connection") == "keep-alive", str(f))
s.sendall(b"GET / HTTP/1.1\r\nHost: kov\r\nConnection: close\r\n\r\n")
st, f, _ = r.response()
check("Connection: close is honoured", st == 200 and f.get("connection") == "close" and r.closed(), str(f))
st, f, _, r = exchange(b"GET / HTTP/1.0\r\n\r\n")
check("HTTP/1.0 closes by default", st == 200 and f.get("connection") == "close" and r.closed(), str(f))

# Slow clients (the target runs with timeout=2 keepalive=2): a request cut short gets 408, an
# idle connection is closed; other clients are served meanwhile.
slow = connect()
slow.sendall(b"GET / HTTP/1.1\r\nHost: kov\r\n")
idle = connect()
st, _, _, _ = exchange(GET % b"/")
check("served while a slow client waits", st == 200, str(st))
r = Reader(slow)
st, f, _ = r.response()
check("a request not finished in time gets 408 and the connection closes",
      st == 408 and r.closed(), "%d %s" % (st, f))
check("an idle connection is closed", Reader(idle).closed())

print("%d checks failed" % len(failures))
sys.exit(1 if failures else 0)
