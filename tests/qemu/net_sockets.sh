# Sockets end to end on pseries (spapr-vlan, interrupt-driven): DHCP configures the interface;
# netecho's bad socket calls all fail with the right errors; through QEMU's port forward a host
# client gets an echo back, receives 8 MiB the target sends and sends it 4 MiB, every byte
# accounted for; the program ends cleanly.
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --timeout 60 --append "dci=off" --run netecho conns=3
wait_for '^netecho: .* listening on 7242' 30
expect '^net: spapr-vlan ([0-9a-f]{2}:){5}[0-9a-f]{2}, interrupt-driven receive'
expect '^net: 10\.0\.2\.15/24 gateway 10\.0\.2\.2 \(dhcp, [0-9]+ ms after start\)'
expect '^netecho: 0 bad-call checks failed'
python3 - "$port" <<'PY' || fail "host side of the transfer"
import socket, sys
port = int(sys.argv[1])
def conn():
    return socket.create_connection(("127.0.0.1", port), timeout=20)
s = conn(); s.sendall(b"hello, kov\n"); s.shutdown(socket.SHUT_WR)
got = b""
while True:
    d = s.recv(100)
    if not d: break
    got += d
assert got == b"hello, kov\n", got
s = conn(); n = 8 << 20; s.sendall(b"source %d\n" % n); got = 0
while True:
    d = s.recv(1 << 20)
    if not d: break
    assert d.count(b"k") == len(d)
    got += len(d)
assert got == n, got
s = conn(); n = 4 << 20; s.sendall(b"sink %d\n" % n + b"x" * n)
assert s.recv(3) == b"ok\n"
s.shutdown(socket.SHUT_WR)
PY
wait_for '^kov: exit status 0' 30
expect '^netecho: echoed 11 bytes'
expect '^netecho: source 8388608 bytes'
expect '^netecho: sink 4194304 bytes'
expect '^netecho: done, 0 failures'
