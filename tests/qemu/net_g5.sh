# The G5's own NIC (sungem, through the mac-io OpenPIC) on QEMU's mac99: the driver comes up
# interrupt-driven, DHCP answers, the DCI daemon is reachable through the forwarded port, and
# bulk TCP both ways plus an echo whose bytes are compared go through the rings many times
# over (a receive ring that filled up once stalled the link: QEMU holds frames back until the
# driver answers the device's "no buffer" cause).
# A bare connect would prove nothing: QEMU's port forward accepts on the host side before it
# knows whether anything listens in the guest. So every check exchanges data.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"

PORT=$(free_port)
boot_bg --profile g5 --port "$PORT" --timeout 60
wait_for '^net: sungem ([0-9a-f]{2}:){5}[0-9a-f]{2}, interrupt-driven receive' 40
wait_for '^net: 10\.0\.2\.15/24 gateway 10\.0\.2\.2 \(dhcp, [0-9]+ ms after start\)' 20
wait_for '^dcid: listening on 7242' 20
out=$("$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 info 2>&1) || fail "kovctl info: $out"
grep -qE '^profile +g5$' <<<"$out" || fail "kovctl info does not say profile g5: $out"
# 300 requests and answers: both descriptor rings (128 entries) wrap more than twice.
out=$("$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 ping --count 300 2>&1) \
	|| fail "kovctl ping: $out"
grep -qE 'count=300 ' <<<"$out" || fail "kovctl ping did not complete 300: $out"
kill -- -"$SIM_PID" 2>/dev/null
wait "$SIM_PID" 2>/dev/null

# Bulk: netecho serves an echo (1 MiB of random bytes, compared), a sink and a source.
PORT=$(free_port)
boot_bg --profile g5 --port "$PORT" --timeout 90 --append "dci=off" --run netecho conns=3
wait_for '^netecho: .*listening on 7242' 40
python3 - "$PORT" <<'PY' || fail "bulk TCP over sungem"
import os, socket, sys
port = int(sys.argv[1])
def conn():
    return socket.create_connection(("127.0.0.1", port), timeout=20)
data = os.urandom(1 << 20)
s = conn(); got = bytearray()
def read_to(k):
    while len(got) < k:
        d = s.recv(1 << 16)
        if not d: sys.exit("echo: closed after %d bytes" % len(got))
        got.extend(d)
for off in range(0, len(data), 65536):   # at most two chunks in flight: no deadlock
    s.sendall(data[off:off + 65536])
    read_to(off)
read_to(len(data))
s.close()
if bytes(got) != data: sys.exit("echo: the bytes differ")
n = 8 << 20
s = conn(); s.sendall(b"sink %d\n" % n + b"x" * n)
if s.recv(3) != b"ok\n": sys.exit("sink: no ok")
s.close()
s = conn(); s.sendall(b"source %d\n" % n); got = 0
while got < n:
    d = s.recv(1 << 20)
    if not d: break
    got += len(d)
s.close()
if got != n: sys.exit("source: %d of %d bytes" % (got, n))
PY
for ((i = 0; i < 200; i++)); do
	grep -aq '^kov: exit status' "$LOG" && break
	sleep 0.1
done
tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
expect '^netecho: done, 0 failures'
expect '^kov: exit status 0'
