# A real Prometheus server (Debian's prometheus) scrapes the target's OpenMetrics endpoint
# (GET /metrics on 9242, forwarded by sim/run --metrics-port): the scrape succeeds (up == 1)
# and the target-level and per-object series are stored.
source "$(dirname "$0")/lib.bash"
command -v prometheus >/dev/null || fail "prometheus is not installed (scripts/setup installs it)"
port=$(free_port) mport=$(free_port) pport=$(free_port)
dir=$(mktemp -d)
boot_bg --port "$port" --metrics-port "$mport" --timeout 90
wait_for '^dcid: listening' 30
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
