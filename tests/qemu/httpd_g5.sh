# httpd on the g5 machine (mac99, one 970FX, the sungem NIC): the same answers, errors,
# keep-alive and timeouts as on smp (httpd_check.py), and ApacheBench -n 1000 -c 8 without and
# with keep-alive has no failed request.
source "$(dirname "$0")/lib.bash"

command -v ab >/dev/null || fail "ApacheBench (ab, apache2-utils) is missing: run scripts/setup"
OUT=$(mktemp)
HTTP=$(free_port)
boot_bg --profile g5 --forward "$HTTP:80" --timeout 110 --append dci=off --workload httpd:timeout=2:keepalive=2
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^httpd: listening on port 80: 4 workers on 1 CPUs' 60
python3 tests/qemu/httpd_check.py "$HTTP" sim/workloads/httpd/www || fail "httpd_check.py on g5"
for ka in "" -k; do
	ab $ka -q -n 1000 -c 8 "http://127.0.0.1:$HTTP/" >"$OUT" 2>&1 || { cat "$OUT"; fail "ab $ka failed"; }
	grep -q '^Complete requests: *1000$' "$OUT" && grep -q '^Failed requests: *0$' "$OUT" \
		|| { cat "$OUT"; fail "ab $ka -n 1000 -c 8 on g5: $(grep -E '^(Complete|Failed) requests|Connect:|Receive:|Length:|Exceptions:|apr_' "$OUT" | tr -s ' ' | tr '\n' ';')"; }
	echo "g5: ab $ka -n 1000 -c 8: $(grep -E '^Requests per second' "$OUT")"
done
