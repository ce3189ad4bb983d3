"""The evaluation's machinery (sim/eval/run): targets booted with sim/run, kovctl, the
monitoring states a target is put in, ApacheBench, and jbb's per-second reports."""
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

from ksyms import name_kernel_locks

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(TOP, "build", "bench" if "--short" in sys.argv[1:] else "", "eval")
KOVCTL = os.path.join(TOP, "build", "host", "kovctl")
QUICK = os.environ.get("EVAL_QUICK") == "1"
SHORT = "--short" in sys.argv[1:]
ROUNDS = 1 if QUICK else 2 if SHORT else int(os.environ.get("EVAL_ROUNDS", "5"))
# httpd's figures are wall-clock and carry the shared host's noise: more rounds.
HTTPD_ROUNDS = 1 if QUICK else 2 if SHORT else int(os.environ.get("EVAL_HTTPD_ROUNDS", "5"))
TOKEN = "eval"
T0 = time.time()


def log(msg):
    print("[%6.1f s] %s" % (time.time() - T0, msg), flush=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Target:
    """A machine started with sim/run in its own process group; its console in a file."""

    def __init__(self, name, args):
        self.name, self.log = name, os.path.join(OUT, "target-%s.log" % name)
        self.out = open(self.log, "w")
        self.p = subprocess.Popen([os.path.join(TOP, "sim", "run")] + args, cwd=TOP, stdout=self.out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  start_new_session=True)

    def text(self):
        with open(self.log, errors="replace") as f:
            return f.read().replace("\r", "")

    def wait_for(self, regex, limit=60):
        end = time.time() + limit
        while time.time() < end:
            m = re.search(regex, self.text(), re.M)
            if m:
                return m
            if self.p.poll() is not None:
                raise RuntimeError("%s stopped before /%s/:\n%s" % (self.name, regex, self.text()[-2000:]))
            time.sleep(0.1)
        raise RuntimeError("%s: no /%s/ within %d s:\n%s" % (self.name, regex, limit, self.text()[-2000:]))

    def stop(self):
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGTERM)
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.p.pid, signal.SIGKILL)
                self.p.wait()
        self.out.close()


def kovctl(port, *args, json_out=False, timeout=90, check=True):
    cmd = [KOVCTL, "--target", "127.0.0.1:%d" % port, "--token", TOKEN, "--timeout", "30"]
    cmd += (["--json"] if json_out else []) + [str(a) for a in args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError("kovctl %s: %s%s" % (" ".join(map(str, args)), p.stdout, p.stderr))
    if not (json_out and p.returncode == 0):
        return p.stdout
    answer = json.loads(p.stdout)
    return name_kernel_locks(answer) if args and args[0] == "top" else answer


# ---- monitoring states -----------------------------------------------------------------------

def pmu_file(name, text):
    path = os.path.join(OUT, name + ".pmu")
    with open(path, "w") as f:
        f.write(text)
    return path


def counting_conf():
    """Instructions and cycles counted, kernel and user: what every monitored state counts."""
    return pmu_file("counting", "slice 10000 us\ncount kernel user\ngroup count 100\n  PM_INST_CMPL\n  PM_CYC\n")


def sampling_conf(threshold, software=True):
    """The thesis's metrics at one threshold: instruction samples (per-object attribution and
    spin-lock contention; the 970's larx events do not count under QEMU), cycles counted (IPC),
    the software MMU misses standing for the TLB events."""
    text = "slice 10000 us\ncount kernel user\ngroup main 100\n  PM_INST_CMPL %d\n  PM_CYC\n" % threshold
    if software:
        text += "  SW_HPT_MISS %d\n  SW_SLB_MISS %d\n" % (threshold, threshold)
    return pmu_file("sample-%d%s" % (threshold, "" if software else "-inst"), text)


def operation_costs(build="build"):
    """drefbench's and `lockbench cost`'s lines (instructions per operation under -icount) on the
    kernel image in `build`: {"drefbench": [...], "lockbench": [...]}."""
    out = {}
    for prog in (["drefbench"], ["lockbench", "cost"]):
        p = subprocess.run([os.path.join(TOP, "sim", "run"), "--build", os.path.join(TOP, build), "--icount",
                            "--run"] + prog, cwd=TOP, capture_output=True, text=True, timeout=200)
        out[prog[0]] = [l for l in p.stdout.replace("\r", "").splitlines() if l.startswith(prog[0] + ":")]
    return out


def metrics_conf():
    """The thesis's five metrics, as far as QEMU counts them: instructions and cycles (IPC; QEMU's
    cycles are virtual time) and the software MMU misses for the TLB misses, all counted; the lock
    figures come from KOV's lock statistics. Branch mispredictions: QEMU has no branch predictor
    and its PMU no such event."""
    return pmu_file("metrics", "slice 10000 us\ncount kernel user\ngroup metrics 100\n  PM_INST_CMPL\n  PM_CYC\n"
                               "  SW_HPT_MISS\n  SW_SLB_MISS\n")


def metric_conf(name):
    """One of the thesis's metrics alone (its Table 4.2), at the thesis's thresholds: KOV's
    instruction samples (objects, spin-lock code), IPC (instructions sampled at 10M, cycles
    counted: QEMU's cycle counter cannot raise samples, as the boot probe finds), or the software
    MMU misses standing for the TLB events."""
    body = {"m_samples": "  PM_INST_CMPL 100000\n",
            "m_ipc": "  PM_INST_CMPL 10000000\n  PM_CYC\n",
            "m_mmu": "  SW_HPT_MISS 100000\n  SW_SLB_MISS 100000\n"}[name]
    return pmu_file(name, "slice 10000 us\ncount kernel user\ngroup %s 100\n%s" % (name, body))


class Scanner:
    """A client asking for the object scan (`kovctl scan`) over and over, counting the scans
    answered; with a class that matches nothing the daemon does the scan and sends almost nothing."""

    def __init__(self, port, match_nothing):
        import threading
        self.port, self.done, self.stop_flag = port, 0, threading.Event()
        self.args = ["scan"] + (["--class", "NoSuchClassEver"] if match_nothing else [])
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        cmd = [KOVCTL, "--target", "127.0.0.1:%d" % self.port, "--timeout", "30"] + self.args
        while not self.stop_flag.is_set():
            if subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60).returncode == 0:
                self.done += 1

    def stop(self):
        self.stop_flag.set()
        self.thread.join(90)


class Monitor:
    """Puts a target in a monitoring state, with a client taking the streams (kovctl record),
    as the thesis's GUI did; the *_action states have nobody taking the data (the daemon drains
    and discards it), so that the data traffic is told from the action (the thesis's Table 4.5)."""

    def __init__(self, port, pids):
        self.port, self.pids, self.rec, self.counting_on, self.full_on = port, pids, None, False, False
        self.scanner = None

    def drop(self):
        """Forgets the target (it is being stopped): only the host's clients are stopped."""
        if self.rec:
            self.rec.terminate()
            self.rec.wait()
            self.rec = None
        if self.scanner:
            self.scanner.stop()
            self.scanner = None

    def scans(self):
        """Scans answered since the state began (scan states), else None."""
        return self.scanner.done if self.scanner else None

    def off(self):
        self.drop()
        kovctl(self.port, "stop", check=False)
        if self.counting_on:
            for pid in self.pids + [0]:
                kovctl(self.port, "instrument", "--pid", pid, "off", check=False)
            self.counting_on = False
        if self.full_on:
            for pid in self.pids:
                kovctl(self.port, "instrument", "--pid", pid, "--what", "full-locks", "off", check=False)
            self.full_on = False

    def set(self, state):
        self.off()
        if state == "off":
            return
        if state in ("scan", "scan_action"):
            self.scanner = Scanner(self.port, state == "scan_action")
            return
        streams = "counts"
        base = state[:-len("_action")] if state.endswith("_action") else state
        if base in ("thesis", "x10", "x100"):
            kovctl(self.port, "configure", sampling_conf({"thesis": 100000, "x10": 10000, "x100": 1000}[base]))
            streams = "samples,counts"
        elif base.startswith("m_"):
            kovctl(self.port, "configure", metric_conf(base))
            streams = "samples,counts"
        elif base == "metrics":   # the five metrics, as the web stages watch them
            kovctl(self.port, "configure", metrics_conf())
        else:
            kovctl(self.port, "configure", counting_conf())
        if base in ("locks", "fulllocks", "metrics"):
            streams = "counts,locks"
        if base in ("fulllocks", "metrics"):
            for pid in self.pids:
                kovctl(self.port, "instrument", "--pid", pid, "--what", "full-locks", "on")
            self.full_on = True
        if base == "calls":
            for pid in self.pids + [0]:
                kovctl(self.port, "instrument", "--pid", pid, "on")
            self.counting_on = True
        kovctl(self.port, "start", "--streams", streams)
        if not state.endswith("_action"):
            self.rec = subprocess.Popen([KOVCTL, "--target", "127.0.0.1:%d" % self.port, "record", "--out",
                                         os.devnull, "--seconds", "3600"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def rotated(items, k):
    k %= len(items)
    return items[k:] + items[:k]


# ---- ApacheBench ---------------------------------------------------------------------------

def ab(url, n, c, keepalive, seconds=None):
    """ApacheBench: n requests, or as many as fit in `seconds` when given."""
    csv = os.path.join(OUT, "ab.csv")
    if os.path.exists(csv):
        os.unlink(csv)
    limit = ["-t", str(seconds), "-n", "10000000"] if seconds else ["-n", str(n)]
    cmd = ["ab", "-q", "-s", "30"] + limit + ["-c", str(c), "-e", csv] + (["-k"] if keepalive else []) + [url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr

    def field(name, conv=float):
        m = re.search(r"^%s:\s+([0-9.]+)" % re.escape(name), out, re.M)
        return conv(m.group(1)) if m else None
    pct = {}
    if os.path.exists(csv):
        for line in open(csv):
            m = re.match(r"^(\d+),([0-9.]+)$", line.strip())
            if m:
                pct[int(m.group(1))] = float(m.group(2))
    return {"ok": p.returncode == 0, "complete": field("Complete requests", int),
            "failed": field("Failed requests", int), "rps": field("Requests per second"),
            "p50": pct.get(50), "p90": pct.get(90), "p99": pct.get(99), "error": "" if p.returncode == 0 else out[-300:]}


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


class Httpd:
    """httpd on 4 CPUs with its port and the DCI port forwarded."""

    def __init__(self, n, warm=True, options=""):
        self.http, self.dci = free_port(), free_port()
        self.mon_path = os.path.join(OUT, "httpd-%d.monitor" % n)
        self.t = Target("httpd-%d" % n, ["--cpus", "4", "--forward", "%d:80" % self.http, "--port", str(self.dci),
                                         "--timeout", "3000", "--append", "dci.token=%s" % TOKEN,
                                         "--workload", "httpd" + (":" + options if options else ""),
                                         "--", "-monitor", "unix:%s,server,nowait" % self.mon_path])
        self.t.wait_for(r"^httpd: listening", 60)
        self.t.wait_for(r"^dcid: listening", 30)
        self.pid = int(self.t.wait_for(r"workload httpd started, pid (\d+)").group(1))
        self.url = "http://127.0.0.1:%d/" % self.http
        self.mon = Monitor(self.dci, [self.pid])
        # Warm up: QEMU translates the code on its first runs, the file cache fills.
        if warm:
            ab(self.url, 2000 if QUICK else 10000, 16, True)
            ab(self.url, 1000 if QUICK else 3000, 16, False)


def kernel_pointer(monitor_path, symbol):
    """The 64-bit value of a kernel variable, read through QEMU's monitor (the kernel's linear map
    puts virtual 0xC000... at physical 0); None if it cannot be read."""
    nm = subprocess.run(["powerpc64-linux-gnu-nm", os.path.join(TOP, "build", "kov.elf")], capture_output=True,
                        text=True).stdout
    m = re.search(r"^([0-9a-f]{16}) \S %s$" % re.escape(symbol), nm, re.M)
    if not m:
        return None
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(monitor_path)
        s.settimeout(5)
        time.sleep(0.2)
        s.recv(65536)
        s.sendall(b"xp /1gx 0x%x\n" % (int(m.group(1), 16) - 0xC000000000000000))
        buf = b""
        while not re.search(rb"^[0-9a-f]+: (0x[0-9a-f]+)", buf, re.M):
            buf += s.recv(65536)
        s.close()
        return re.search(rb"^[0-9a-f]+: (0x[0-9a-f]+)", buf, re.M).group(1).decode()
    except OSError:
        return None


def throttle_factor(port):
    """The factor the monitor's cost bound multiplies every sampling period by now (1: as
    configured), or None when the daemon did not say."""
    d = kovctl(port, "throttle", json_out=True, check=False)
    return d.get("factor") if isinstance(d, dict) else None


def counting(port, seconds):
    """kovctl counts over the next `seconds`, in the background (the monitor counts instructions
    in every state but off)."""
    return subprocess.Popen([KOVCTL, "--target", "127.0.0.1:%d" % port, "--timeout", "10", "--json", "counts",
                             "--seconds", str(seconds)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def counted(p):
    """Instructions per second of the whole machine (kernel and user, every CPU) over the
    collection of a counting() process; None if there were none."""
    if not p:
        return None
    try:
        d = json.loads(p.communicate(timeout=60)[0])
        inst = sum(c["scaled"] for c in d["counts"] if c["event"] == "PM_INST_CMPL" and c["counted"])
        return inst / (d["intervals"] * 0.1) if d["intervals"] else None
    except (ValueError, KeyError, subprocess.TimeoutExpired):
        return None


def screenshot(port, name, select=None, view=None):
    """The viewer on a live target for 12 s, configured with sim/demo.pmu; its PNG to docs/eval."""
    if not shutil.which("xvfb-run"):
        return {"taken": False, "why": "xvfb-run is missing"}
    png = os.path.join(TOP, "docs", "eval", name)
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", os.path.join(TOP, "build", "host", "kov-viewer"),
           "--target", "127.0.0.1:%d" % port, "--token", TOKEN, "--config", os.path.join(TOP, "sim", "demo.pmu"),
           "--size", "1280x800", "--screenshot", png, "--after", "12"]
    if select:
        cmd += ["--select", select]
    if view:
        cmd += ["--view", view]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    log("screenshot %s: %s" % (name, (p.stdout + p.stderr).strip()[-200:]))
    return {"taken": p.returncode == 0 and os.path.exists(png), "file": "eval/" + name,
            "said": (p.stdout + p.stderr).strip()[-400:]}


def jbb_target(name, args, extra=(), port=None, metrics=None, ready=r"^jbb: running"):
    cmd = ["--cpus", "4", "--timeout", "3000"] + list(extra)
    if port:
        cmd += ["--port", str(port), "--append", "dci.token=%s" % TOKEN]
        if metrics:
            cmd += ["--metrics-port", str(metrics)]
    t = Target(name, cmd + ["--workload", "jbb:" + ":".join(args) if args else "jbb"])
    t.wait_for(ready, 120)
    return t


def tps_lines(t):
    return [int(x) for x in re.findall(r"^jbb: t=\d+ ms tps=(\d+)$", t.text(), re.M)]


def tps_window(t, settle=1, take=3):
    """Skips `settle` per-second reports, returns the median of the next `take`."""
    n0 = len(tps_lines(t))
    end = time.time() + 300
    while len(tps_lines(t)) < n0 + settle + take and time.time() < end:
        time.sleep(0.2)
    got = tps_lines(t)[n0 + settle:n0 + settle + take]
    return median(got), got


class Jbb:
    """jbb running on 4 CPUs under -icount, the DCI and /metrics ports forwarded."""

    def __init__(self, n, warm=True):
        self.dci, self.metrics = free_port(), free_port()
        self.t = jbb_target("jbb-icount-%d" % n, [], extra=["--icount"], port=self.dci, metrics=self.metrics)
        self.t.wait_for(r"^dcid: listening", 30)
        self.pid = int(self.t.wait_for(r"workload jbb started, pid (\d+)").group(1))
        self.mon = Monitor(self.dci, [self.pid])


def lost_samples(metrics):
    try:
        import urllib.request
        text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % metrics, timeout=5).read().decode()
        return sum(int(v) for v in re.findall(r"^kov_samples_lost_total(?:\{[^}]*\})? (\d+)$", text, re.M))
    except OSError:
        return None
