# Crowds at the DCI port: 18 connections that never send HELLO do not lock clients out (the
# controller, with its token, still connects within 1 s, and the idle ones are closed by their
# deadline or by giving way); 8 connectors at once, 200 connections each, are all answered
# (SERVER_HELLO with the catalogue); and a PMU_CONFIG whose config_id is not 0 is refused with
# CONFIG, not applied, and the connection goes on.
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --timeout 110 --append "dci.token=s3cret"
wait_for '^dcid: listening' 40
python3 - "$port" <<'PY' || fail "crowds at the DCI port"
import sys, socket, struct, time, threading
sys.path.insert(0, "tests/qemu")
import kovproto as k
port = int(sys.argv[1])

# 18 idle connections, then the controller.
idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for i in range(18)]
time.sleep(0.5)
t0 = time.time()
ctl = k.Conn(port, timeout=5)
st, role, reason = ctl.handshake(b"s3cret")
took = time.time() - t0
assert st == 0 and role == 2, (st, role, reason)
print("controller connected in %.3f s past 18 idle connections" % took)
assert took < 1.0, "the controller took %.3f s" % took
closed = 0
for s in idle:         # each is closed unanswered: it gave way, or its 3 s passed
    try:
        closed += s.recv(100) == b""
    except socket.timeout:
        pass
    s.close()
assert closed == 18, "%d of 18 idle connections closed" % closed
print("18 idle connections closed unanswered")

# PMU_CONFIG with a config_id from the client: refused, not fatal, nothing applied.
fr = k.call(ctl, k.pmu_config(2, [(b"PM_INST_CMPL", 0)], config_id=7), 2)
code, about, flags, text = k.error_of(fr)
assert code == 15 and not flags & k.ERRF_FATAL and "config_id" in text, (code, flags, text)
print("config_id 7: refused:", text)
ctl.send(k.frame(k.STATUS_GET, 3, b""))
fr = ctl.recv_frame()
assert fr[0] == k.STATUS and struct.unpack(">I", fr[3][16:20])[0] == 0, fr
fr = k.call(ctl, k.pmu_config(4, [(b"PM_INST_CMPL", 0)]), 4)
assert fr[0] == k.PMU_CONFIG and struct.unpack(">I", fr[3][:4])[0] > 0, fr

# 8 connectors at once, 200 handshakes each. Some take a second: QEMU's user network listens on
# the host with a backlog of 1, so the host drops SYNs of a burst and the client sends them
# again a second later; that is counted, not failed.
results = {"ok": 0, "closed": 0, "timeout": 0, "refused": 0, "slow": 0, "other": []}
lock = threading.Lock()
def connector(n):
    for i in range(n):
        t1, local = time.time(), 0
        try:
            c = k.Conn(port, timeout=10)
            local = c.sock.getsockname()[1]
            st, role, reason = c.handshake()
            c.close()
            what = "ok" if st == 0 else "refused"
        except socket.timeout:
            what = "timeout"
        except (AssertionError, TypeError, OSError) as e:
            what = "closed"
        with lock:
            results[what] += 1
            results["slow"] += time.time() - t1 > 0.9
            if what != "ok" and len(results["other"]) < 5:
                results["other"].append("%s (local port %d)" % (what, local))
t0 = time.time()
threads = [threading.Thread(target=connector, args=(200,)) for i in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("8 x 200 connects in %.1f s: %s" % (time.time() - t0, results))
assert results["ok"] == 1600, results
ctl.ping(9, 99)
PY
expect_not 'kov: PANIC'
