# The soak's short form (make soak runs it for SOAK_SECONDS, 1800 by default): 4 CPUs running
# pagestorm, sleepbench and httpd while a controller samples at a high rate, observers come
# and go, /metrics is scraped and httpd is asked; then every sample is accounted for from the
# target's own counters and the kernel's memory must not drift: free pages, and heap blocks charged
# to no live process, where leaks show (tests/soak/soak.py; Debian's python3, whose prometheus_client parses /metrics).
source "$(dirname "$0")/lib.bash"
seconds=${SOAK_SECONDS:-45}
port=$(free_port) mport=$(free_port) hport=$(free_port)
boot_bg --port "$port" --metrics-port "$mport" --forward "$hport:80" --cpus 4 \
	--timeout $((seconds + 60)) --append "dci.token=s3cret" \
	--workload "${SOAK_WORKLOAD:-pagestorm:4:32,sleepbench:3:1000:0,httpd:timeout=2:keepalive=2}"
wait_for '^dcid: listening' 40
[[ ${SOAK_WORKLOAD:-httpd} == *httpd* ]] && wait_for '^httpd: listening on port 80' 40
/usr/bin/python3 tests/soak/soak.py "$port" "$mport" "$hport" "$seconds" s3cret || fail "soak"
expect_not 'kov: PANIC'
expect_not 'killed'
