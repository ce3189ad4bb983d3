# httpd's SURGE file set (surge=N, sim/workloads/httpd/surge.c) and the SURGE-like session
# workload (sim/eval/surge.py, httperf --wsesslog) on the smp machine, 2 CPUs, 20,000 files:
#  - the sizes /surge/index lists follow SURGE's model (lognormal body and Pareto tail, capped
#    at 1 MiB: Kolmogorov-Smirnov distance to that distribution, the files at the cap, the
#    median) and agree with httpd's summary line;
#  - 20 sessions at 2 a second (about 10 s) all complete with no error, every reply a 2xx, and
#    the bytes received are exactly the requested files' sizes plus httpd's header for each
#    (computed from its fixed format and the file's size), counted reply by reply;
#  - /surge/N for N out of range is a 404.
source "$(dirname "$0")/lib.bash"

command -v httperf >/dev/null || fail "httperf is missing: run scripts/setup"
HTTP=$(free_port)
# keepalive 30: longer than the longest think time (100 s x 0.05), so httpd never closes an idle
# connection just as httperf sends its next page on it.
boot_bg --cpus 2 --forward "$HTTP:80" --timeout 110 --workload httpd:surge=20000:keepalive=30
wait_for '^httpd: listening on port 80' 80
summary=$(grep -a -m1 '^httpd: surge: ' "$LOG" | tr -d '\r')
[ -n "$summary" ] || fail "httpd printed no surge summary"
echo "$summary"

python3 - "$HTTP" "$summary" <<'PY' || fail "the SURGE checks (above)"
import http.client, json, math, re, statistics, sys
sys.path.insert(0, "sim/eval")
import surge

port, summary = int(sys.argv[1]), sys.argv[2]
N, CAP = 20000, 1 << 20
MU, SIGMA, BODY_P, ALPHA, K = 9.357, 1.318, 0.93, 1.1, 133000.0

sizes = surge.fetch_sizes("127.0.0.1", port)
assert len(sizes) == N, len(sizes)
s = sorted(sizes)
m = re.search(r"(\d+) files .* (\d+) bytes, size min (\d+) median (\d+) max (\d+) \((\d+) at the cap", summary)
assert m, summary
want = [N, sum(s), s[0], s[(N - 1) // 2], s[-1], s.count(CAP)]
assert [int(g) for g in m.groups()] == want, ("summary and /surge/index differ", m.groups(), want)

# The model's distribution function below the cap (the cap holds the rest).
phi = statistics.NormalDist().cdf
def cdf(x):
    tail = 1 - (K / x) ** ALPHA if x >= K else 0.0
    return BODY_P * phi((math.log(x) - MU) / SIGMA) + (1 - BODY_P) * tail
d = max(max(abs(cdf(x) - i / N), abs(cdf(x) - (i + 1) / N)) for i, x in enumerate(s) if x < CAP)
limit = 1.63 / math.sqrt(N)   # Kolmogorov-Smirnov, 1% level
p_cap = 1 - cdf(CAP)
at_cap, sd_cap = s.count(CAP), math.sqrt(N * p_cap * (1 - p_cap))
median = math.exp(MU + SIGMA * statistics.NormalDist().inv_cdf(0.5 / BODY_P))
print("sizes: KS distance %.4f (limit %.4f); %d at the cap (expected %.0f +- %.0f); median %d "
      "(the model's %.0f; exp(mu) = %.0f is the body's alone)"
      % (d, limit, at_cap, N * p_cap, sd_cap, s[(N - 1) // 2], median, math.exp(MU)))
assert d < limit, "sizes do not follow SURGE's model"
assert abs(at_cap - N * p_cap) < 4 * sd_cap, "files at the cap"
assert abs(s[(N - 1) // 2] / median - 1) < 0.05, "median"

# Out of range: 404.
for path in ("/surge/%d" % N, "/surge/999999", "/surge/-1"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("GET", path)
    r = c.getresponse()
    r.read()
    c.close()
    assert r.status == 404, (path, r.status)

# The sessions, with every reply's size counted (exact).
r = surge.run("127.0.0.1", port, sessions=20, rate=2, seconds=80, seed=1, timeout=20, exact=True,
              sizes=sizes)
print(json.dumps(r, sort_keys=True))
wanted = surge.requested(surge.make_sessions(N, 20, seed=1))
head = ("HTTP/1.1 200 OK\r\nServer: kov-httpd\r\nContent-Length: %d\r\n"
        "Content-Type: application/octet-stream\r\nConnection: keep-alive\r\n\r\n")
header_bytes = sum(len(head % sizes[f]) for f in wanted)
assert not r["interrupted"], "httperf did not finish in 80 s"
assert r["sessions_started"] == 20 and r["sessions_completed"] == 20 and r["sessions_failed"] == 0, r
assert r["errors"]["total"] == 0, r["errors"]
assert r["replies"] == r["planned_requests"] == len(wanted) == r["reply_status"]["2xx"], r
assert r["content_bytes"] == r["planned_content_bytes"] == sum(sizes[f] for f in wanted), r
assert r["header_bytes"] == header_bytes, ("header bytes", r["header_bytes"], header_bytes)
assert r["bytes_received"] == header_bytes + r["planned_content_bytes"]
print("surge: %d sessions, %d replies, %d bytes = %d of files + %d of headers, as requested"
      % (r["sessions_completed"], r["replies"], r["bytes_received"], r["content_bytes"],
         header_bytes))
PY
echo "httpd surge: the file set follows SURGE's sizes; the sessions got every byte they asked for"
