# An outgoing TCP connection from a user program: netecho connects to a server on the host
# (QEMU's user network maps 10.0.2.2 to the host), exchanges a line, and a connection to a
# closed port is refused with ECONNREFUSED (111) instead of hanging.
source "$(dirname "$0")/lib.bash"
hport=$(free_port)
python3 - "$hport" >"$LOG.host" 2>&1 <<'PY' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); s.settimeout(40)
c, peer = s.accept()
line = c.recv(100)
c.sendall(b"hello, " + line)
c.close()
print("host got", line)
PY
host=$!
sleep 0.5
boot_until_off 60 --port "$(free_port)" --append "dci=off" --run netecho "connect=$hport"
wait "$host"
grep -q "host got b'hello from kov" "$LOG.host" || { cat "$LOG.host"; rm -f "$LOG.host"; fail "the host server did not get the line"; }
rm -f "$LOG.host"
expect '^netecho: connected from 10\.0\.2\.15:[0-9]+, the host said: hello, hello from kov$'
expect '^netecho: connect to a closed port: error 111$'
expect '^kov: exit status 0'
