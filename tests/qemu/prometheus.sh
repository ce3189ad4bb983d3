# The target's metrics endpoint (GET /metrics on 9242, forwarded by sim/run --metrics-port):
# without an Accept header it answers Prometheus text 0.0.4, which `promtool check metrics`
# accepts with no lint complaint and python3-prometheus-client's text parser reads; asked for
# OpenMetrics it answers OpenMetrics 1.0.0 ending in # EOF, which the client's OpenMetrics
# parser reads; both carry the same families and samples, among them how the CPUs ran
# (kov_info's cpus_run) and the kernel's wake-up counters (the same counters kovctl info
# reads, read just after: never ahead of them), the platform's self-report of its paths and
# the clock read at boot (today's date). Other paths, methods and malformed
# requests get their HTTP errors. Then a real Prometheus server (Debian's prometheus, which
# asks for OpenMetrics) scrapes it: the scrape succeeds (up == 1) and the target-level and
# per-object series are stored.
source "$(dirname "$0")/lib.bash"
command -v prometheus >/dev/null || fail "prometheus is not installed (scripts/setup installs it)"
command -v promtool >/dev/null || fail "promtool is not installed (scripts/setup installs prometheus)"
# Debian's python3 (the package's module is there even when another python3 comes first).
PY=/usr/bin/python3
$PY -c 'import prometheus_client' 2>/dev/null || fail "python3-prometheus-client is not installed (scripts/setup installs it)"
port=$(free_port) mport=$(free_port) pport=$(free_port)
dir=$(mktemp -d)
boot_bg --port "$port" --metrics-port "$mport" --timeout 90
trap 'kill -- -$SIM_PID 2>/dev/null; rm -rf "$dir" "$LOG"' EXIT
wait_for '^dcid: listening' 30

# Sends a request (\n becomes CRLF): the answer's head to $dir/PREFIX.head, its body to .body.
get() { # file-prefix request-head
	python3 - "$mport" "$dir/$1" "$2" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
s.sendall(sys.argv[3].encode().replace(b"\n", b"\r\n"))
data = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    data += d
head, _, body = data.partition(b"\r\n\r\n")
open(sys.argv[2] + ".head", "wb").write(head)
open(sys.argv[2] + ".body", "wb").write(body)
PY
}
status_is() { # prefix status
	head -n1 "$dir/$1.head" | grep -q "^HTTP/1.1 $2" || fail "$1: $(head -n1 "$dir/$1.head"), not $2"
}
get text $'GET /metrics HTTP/1.1\nHost: kov\n\n'
status_is text 200
grep -qi '^Content-Type: text/plain; version=0.0.4' "$dir/text.head" || fail "default format: $(cat "$dir/text.head")"
len=$(sed -n 's/^Content-Length: //Ip' "$dir/text.head" | tr -d '\r')
[ "$len" = "$(stat -c %s "$dir/text.body")" ] || fail "Content-Length $len for a body of $(stat -c %s "$dir/text.body")"
promtool check metrics <"$dir/text.body" >"$dir/promtool.out" 2>&1 || { cat "$dir/promtool.out"; fail "promtool check metrics"; }
[ ! -s "$dir/promtool.out" ] || { cat "$dir/promtool.out"; fail "promtool's lint complains"; }
get om $'GET /metrics HTTP/1.1\nHost: kov\nAccept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\n\n'
status_is om 200
grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0' "$dir/om.head" || fail "OpenMetrics: $(cat "$dir/om.head")"
[ "$(tail -c 6 "$dir/om.body")" = "# EOF" ] || fail "the OpenMetrics body does not end in # EOF"
get pref $'GET /metrics HTTP/1.1\nAccept: application/openmetrics-text;q=0.3, text/plain\n\n'
grep -qi '^Content-Type: text/plain; version=0.0.4' "$dir/pref.head" || fail "text/plain preferred: $(cat "$dir/pref.head")"
info=$(build/host/kovctl --target 127.0.0.1:"$port" --json info) || fail "kovctl info"
$PY - "$dir/text.body" "$dir/om.body" "$info" <<'PY' || fail "python3-prometheus-client"
import sys
from prometheus_client.parser import text_string_to_metric_families as text_parse
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
def read(parse, path):
    fams = {}
    for f in parse(open(path).read()):
        fams[f.name] = (f.type, sorted((s.name, tuple(sorted(s.labels.items()))) for s in f.samples))
    return fams
text, om = read(text_parse, sys.argv[1]), read(om_parse, sys.argv[2])
assert om["kov"][0] == "info" and om["kov"][1][0][0] == "kov_info", om["kov"]
assert om["kov_object"][0] == "info" and len(om["kov_object"][1]) >= 10, om["kov_object"][:1]
assert om["kov_dci_sent_bytes"][0] == "counter", om["kov_dci_sent_bytes"]
assert om["kov_memory_bytes"][0] == "gauge"
# How the CPUs ran, and the wake-ups: counters and the longest lateness in seconds.
info = dict(om["kov"][1][0][1])
assert info.get("cpus_run") in ("parallel", "take-turns", "unknown"), info
for fam in ("kov_wake_rescues", "kov_wake_resets", "kov_wake_prods", "kov_ticks_pending",
            "kov_ticks_skipped", "kov_turns_handed_rx"):
    assert om[fam][0] == "counter", fam
assert om["kov_wake_late_max_seconds"][0] == "gauge", om.get("kov_wake_late_max_seconds")
# The kernel's counters, as kovctl info read them after the scrape: a counter can only have
# grown since (a busy host may well make the wake guard act; wake_stress judges that).
import json
value = {s.name: s.value for f in om_parse(open(sys.argv[2]).read()) for s in f.samples}
later = json.loads(sys.argv[3])["wake_ups"]
for metric, key in (("kov_wake_rescues_total", "rescues"), ("kov_wake_resets_total", "watchdog_resets"),
                    ("kov_wake_prods_total", "prods"), ("kov_ticks_pending_total", "ticks_pending")):
    assert 0 <= value[metric] <= later[key], (metric, value[metric], key, later[key])
assert 0 <= value["kov_wake_late_max_seconds"] <= later["late_max_us"] / 1e6 + 1e-6, (value, later)
# The platform's self-report (one series per path) and the clock the kernel read at boot.
paths = om["kov_platform_path"]
assert paths[0] == "info" and len(paths[1]) >= 5, paths
got = {dict(labels)["path"]: dict(labels)["state"] for _, labels in paths[1]}
assert set(got.values()) <= {"exercised", "new", "not-exercised", "uncheckable"}, got
assert got["power-off"] == "exercised" and got["clock"] == "exercised", got
import time
assert abs(value["kov_rtc_boot_seconds"] - time.time()) < 600, value["kov_rtc_boot_seconds"]
# The same samples in both formats (the uptime and byte counts move between the two fetches).
names = lambda fams: sorted(n for _, samples in fams.values() for n, _ in samples)
assert names(text) == names(om), set(names(text)) ^ set(names(om))
print("prometheus_client: %d families in text 0.0.4, %d in OpenMetrics, %d samples" %
      (len(text), len(om), len(names(om))))
PY
get e404 $'GET /other HTTP/1.1\n\n'
status_is e404 404
get e405 $'POST /metrics HTTP/1.1\nContent-Length: 0\n\n'
status_is e405 405
grep -qi '^Allow: GET' "$dir/e405.head" || fail "405 without Allow"
get e400 $'GET /metrics\n\n'
status_is e400 400
get e505 $'GET /metrics HTTP/2.0\n\n'
status_is e505 505
get e431 "GET /metrics HTTP/1.1"$'\n'"X-Long: $(printf 'a%.0s' $(seq 3000))"$'\n\n'
status_is e431 431
echo "metrics: text 0.0.4 by default, OpenMetrics on request; promtool and prometheus_client agree"

cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: kov
    static_configs:
      - targets: ['127.0.0.1:$mport']
YML
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
	--web.listen-address="127.0.0.1:$pport" >"$dir/prometheus.log" 2>&1 &
prom=$!
trap 'kill $prom 2>/dev/null; kill -- -$SIM_PID 2>/dev/null; wait $prom 2>/dev/null; rm -rf "$dir" "$LOG"' EXIT
query() {
	python3 - "$pport" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = "http://127.0.0.1:%s/api/v1/query?query=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))
try:
    r = json.load(urllib.request.urlopen(url, timeout=5))
except Exception as e:
    print("error", e); sys.exit(1)
res = r.get("data", {}).get("result", [])
print(len(res), res[0]["value"][1] if res else "-")
PY
}
ok=""
for _ in $(seq 30); do
	sleep 1
	read -r n v < <(query 'up{job="kov"}') || continue
	if [ "$n" = 1 ] && [ "$v" = 1 ]; then ok=1; break; fi
done
[ -n "$ok" ] || { tail -20 "$dir/prometheus.log"; fail "Prometheus never scraped the target successfully (up=$v)"; }
read -r n v < <(query 'kov_cpus')
[ "$n" = 1 ] && [ "$v" = 1 ] || fail "kov_cpus: $n series, value $v"
read -r n v < <(query 'count(kov_object_info)')
[ "$n" = 1 ] && [ "${v%.*}" -ge 10 ] || fail "per-object series: $v"
echo "prometheus: up=1, $v object series"
