# httpd (sim/workloads/httpd) on the smp machine, 4 CPUs, started with sim/run --forward: its
# answers and errors over raw sockets (httpd_check.py: files, HEAD, 404/405/501, 400/414/431/
# 413/505 with the connection closed, the key-value store, the counter, keep-alive and
# pipelining, 408 for a slow client, idle connections closed) and with curl; then, with
# monitoring on (PMU sampling, counts and lock statistics streaming), ApacheBench -n 2000 -c 8
# without and with keep-alive has no failed request, and KOV attributes samples to httpd's
# own objects, whose classes the scan lists; PageViews hot-swapped to per-CPU and back keeps
# its total.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
command -v ab >/dev/null || fail "ApacheBench (ab, apache2-utils) is missing: run scripts/setup"
OUT=$(mktemp)
HTTP=$(free_port) PORT=$(free_port)
boot_bg --cpus 4 --forward "$HTTP:80" --port "$PORT" --timeout 110 --append "dci.token=ht" \
	--workload httpd:timeout=2:keepalive=2
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^httpd: listening on port 80' 40
wait_for '^dcid: listening' 20
URL=http://127.0.0.1:$HTTP

python3 tests/qemu/httpd_check.py "$HTTP" sim/workloads/httpd/www || fail "httpd_check.py"

# curl: a file, HEAD, an error status, and a PUT to the store read back.
curl -sf "$URL/about.txt" | cmp -s - sim/workloads/httpd/www/about.txt || fail "curl GET /about.txt"
curl -sI "$URL/" | tr -d '\r' | grep -qx "Content-Length: $(stat -c %s sim/workloads/httpd/www/index.html)" \
	|| fail "curl -I / does not give index.html's length"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/nothing-here")" = 404 ] || fail "curl: no 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X PUT --data-binary 'from curl' "$URL/kv/curl")" = 201 ] \
	|| fail "curl PUT /kv/curl"
[ "$(curl -s "$URL/kv/curl")" = "from curl" ] || fail "curl GET /kv/curl"

k() { "$KOVCTL" --target "127.0.0.1:$PORT" --token ht --timeout 10 "$@" >"$OUT" 2>&1 || { cat "$OUT"; fail "kovctl $*"; }; }
k configure sim/demo.pmu
k start --streams samples,counts,locks
for ka in "" -k; do
	ab $ka -q -n 2000 -c 8 "$URL/" >"$OUT" 2>&1 || { cat "$OUT"; fail "ab $ka -n 2000 -c 8 failed"; }
	grep -q '^Complete requests: *2000$' "$OUT" && grep -q '^Failed requests: *0$' "$OUT" \
		|| { cat "$OUT"; fail "ab $ka -n 2000 -c 8: not 2000 complete requests without failures"; }
	echo "ab $ka -n 2000 -c 8: $(grep -E '^Requests per second' "$OUT")"
done

# While ab runs again, the samples land on httpd's objects.
ab -k -q -n 4000 -c 8 "$URL/table-4k.html" >/dev/null 2>&1 &
AB=$!
k top --metric PM_INST_CMPL --seconds 3 --n 20 --json
python3 - "$OUT" <<'PY' || fail "no samples attributed to httpd's objects"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["objects"] if r.get("process") == "httpd"]
classes = {r["class"] for r in rows}
print("httpd classes sampled:", sorted(classes), "of", len(d["objects"]), "rows")
# HttpConn's serve does most of the work; the poller, the queue and the file cache follow, and
# which of the lighter ones reach the top 20 varies from run to run.
assert "HttpConn" in classes and len(classes) >= 3, classes
PY
wait "$AB"
pid=$(grep -a 'workload httpd started' "$LOG" | tr -d '\r' | sed 's/.*pid //')
k scan --pid "$pid"
for class in HttpListener WorkQueue HttpWorker HttpConn FileCache PageViews KvStore; do
	grep -qE "^  $class  0x" "$OUT" || { cat "$OUT"; fail "the scan lists no $class"; }
done

# PageViews hot-swapped to its per-CPU class and back while the server runs: the total views
# go on from where they were (the state is the merged table), one more per /counter asked.
views=$(grep -E '^  PageViews  0x' "$OUT" | awk '{ print $2 }')
total() { curl -sf "$URL/counter" | sed -n 's/^total views: //p'; }
before=$(total)
for to in PageViewsPerCPU PageViews; do
	k swap --pid "$pid" --coid "$views" --to "$to"
	grep -qE "^pid $pid object $views: PageViews(PerCPU)? -> $to; forward" "$OUT" || { cat "$OUT"; fail "swap of PageViews to $to"; }
	cat "$OUT"
	now=$(total)
	before=$((before + 1))
	[ "$now" = "$before" ] || fail "after the swap to $to the counter's total is $now, not $before"
done
echo "httpd: correct answers, 0 failed requests under ab with monitoring on"
