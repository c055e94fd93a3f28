#!/usr/bin/env python3
"""A lane of 1,000 Jobs against the emulated API server (kmock, through the
same thin wrapper the tests use), with a peer measured side by side.

    .tools/venv/bin/python crates/lane-kube/benches/thousand_jobs.py [MINTS=1000]

What it measures, for `lane mint --backend kube` (release build):
  - API requests per Job: every request lane sends (LIST, POST, GET, WATCH,
    each WATCH counted once however many events it streams), divided by the
    number of Jobs (target: at most 3);
  - the time from lane's start to its last Job created (submit time) and to
    its exit (every Job watched to its end, every slot gathered from its
    bundle, the report written);
  - lane's peak resident memory and CPU seconds (from wait4: the kernel's
    own accounting; target: under 150 MB).

The peer: the least any client can do to create the same Jobs: one HTTP
POST per Job, of the exact manifests `lane mint --dry-run` prints, over one
keep-alive connection (Python's http.client), against a fresh emulator in
the same run. It watches nothing and gathers nothing: it is the emulator's
own floor, so the submit times compare like for like.

This script plays the kubelet and the Job controller (as the tests do): each
Job's pod runs for real (lane's agent with a one-line mint that writes a
report; two at a time), then the Job is marked Complete through the API
(one PATCH per Job: see `kubelet`).
Its own requests carry the user agent `lane-bench-kubelet` and are not
counted as lane's.
"""

import concurrent.futures
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import yaml  # PyYAML, in .tools/venv (a dependency of moto)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EMULATOR = os.path.join(ROOT, "crates/lane-testkit/servers/kube_emulator.py")
NS = "mints"
LANE = "0.93.3"
UA = "lane-bench-kubelet"


def start_emulator(work, tag):
    port_file = os.path.join(work, f"{tag}.port")
    log = os.path.join(work, f"{tag}.requests")
    proc = subprocess.Popen(
        [sys.executable, EMULATOR, port_file],
        env={**os.environ, "KMOCK_REQUEST_LOG": log},
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(work, f"{tag}.log"), "w"),
    )
    for _ in range(600):
        if os.path.exists(port_file):
            return proc, int(open(port_file).read()), log
        time.sleep(0.05)
    raise SystemExit("the emulator did not start")


class Api:
    """One keep-alive connection to the emulator."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.lock = threading.Lock()

    def call(self, method, path, body=None, ctype="application/json"):
        with self.lock:
            headers = {"User-Agent": UA}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = ctype
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            payload = r.read()
            if r.status >= 300:
                raise RuntimeError(f"{method} {path}: {r.status} {payload[:200]!r}")
            return json.loads(payload) if payload else None


def write_lane(work, mints):
    cells = mints // 10
    script = "printf '{\"status\":\"minted\",\"recipe\":\"dynamo\",\"phases\":{\"load\":0.1}}' > \"$LANE_REPORT_PATH\""
    lines = [
        f'version: "{LANE}"',
        "upstream: {repo: ./up}",
        "base: v0.93.2",
        "mint:",
        "  gpus: [L40S, L4]",
        "  cold_repeats: 5",
        "  timeout_s: 60",
        "  cells:",
    ]
    for i in range(cells):
        lines.append(f"    - {{name: c{i:04d}, recipe: dynamo, command: [sh, -c, {json.dumps(script)}]}}")
    os.makedirs(os.path.join(work, "lanes"), exist_ok=True)
    with open(os.path.join(work, "lanes", f"{LANE}.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(work, "kube.yaml"), "w") as f:
        f.write(
            f"laneImage: lane:bench\nmintImage: mint:bench\nnamespace: {NS}\n"
            f"store: \"file://{os.path.join(work, 'store')}\"\n"
        )
    return cells * 2 * 5


def kubeconfig(work, port, tag):
    path = os.path.join(work, f"{tag}.kubeconfig")
    with open(path, "w") as f:
        f.write(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: kmock\n"
            f"  cluster: {{server: \"http://127.0.0.1:{port}\"}}\n"
            "users:\n- name: t\n  user: {token: dummy}\ncontexts:\n- name: kmock\n"
            f"  context: {{cluster: kmock, user: t, namespace: {NS}}}\ncurrent-context: kmock\n"
        )
    return path


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def run_pod(work, lane_bin, job):
    """The Job's mint container, run here (see the tests' Kubelet)."""
    name = job["metadata"]["name"]
    c = job["spec"]["template"]["spec"]["containers"][0]
    root = os.path.join(work, "pods", name)
    mint_dir = os.path.join(root, "work/mint")
    os.makedirs(mint_dir, exist_ok=True)
    argv = [
        {"/lane/bin/lane": lane_bin, "/work/mint": mint_dir}.get(a, a) for a in c["command"]
    ]
    env = {"PATH": os.environ["PATH"], "HOME": root, "TMPDIR": root}
    for e in c.get("env", []):
        if e["name"] not in ("HOME", "TMPDIR"):
            env[e["name"]] = e["value"]
    return subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def kubelet(work, lane_bin, api, manifests, stop):
    """Once lane has created every Job (its `created` lines), runs each Job's
    pod (two at a time) and completes the Job with one status PATCH.

    The emulator stores each object's history and scans every object on each
    write, so its cost per request grows with the number of Jobs; one PATCH
    per Job keeps the run to minutes, and lane sees each Job go from its
    created state straight to Complete (a Running step would add one watch
    event per Job and no request of lane's)."""
    err = os.path.join(work, "lane.err")
    while not stop.is_set():
        if open(err).read().count("created ") >= len(manifests):
            break
        time.sleep(0.2)

    def one(job):
        code = run_pod(work, lane_bin, job)
        if code != 0:
            raise SystemExit(f"the agent of {job['metadata']['name']} exited {code}")
        return job["metadata"]["name"]

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name in pool.map(one, manifests):
            if stop.is_set():
                return
            t = now()
            api.call(
                "PATCH",
                f"/apis/batch/v1/namespaces/{NS}/jobs/{name}/status",
                {"status": {"startTime": t, "active": 0, "succeeded": 1, "completionTime": t, "conditions": [
                    {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t},
                    {"type": "Complete", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t}]}},
                "application/merge-patch+json",
            )


def peak_rss_kib(pid, stop, out):
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        out[0] = max(out[0], int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError):
            return
        time.sleep(0.02)


def lane_requests(log):
    """lane's requests: (count, POST timestamps), WATCH counted once each."""
    n, posts, by_kind = 0, [], {}
    for line in open(log):
        ts, agent, method, path = line.split(" ", 3)
        if agent == UA:
            continue
        n += 1
        kind = "WATCH" if "watch=true" in path or "watch=1" in path else method
        by_kind[kind] = by_kind.get(kind, 0) + 1
        if method == "POST":
            posts.append(float(ts))
    return n, posts, by_kind


def main():
    mints = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "lane-cli"], cwd=ROOT, check=True
    )
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    lane_bin = os.path.join(target, "release", "lane")
    with tempfile.TemporaryDirectory() as work:
        jobs = write_lane(work, mints)
        dry = subprocess.run(
            [lane_bin, "mint", LANE, "--backend", "kube", "--kube-config", "kube.yaml", "--dry-run"],
            cwd=work, check=True, capture_output=True, text=True,
        ).stdout
        manifests = [m for m in yaml.safe_load_all(dry) if m]
        assert len(manifests) == jobs, len(manifests)

        # lane.
        emu, port, log = start_emulator(work, "lane")
        try:
            api = Api(port)
            env = {**os.environ, "KUBECONFIG": kubeconfig(work, port, "lane"), "NO_COLOR": "1"}
            env.pop("KUBERNETES_SERVICE_HOST", None)
            t0 = time.time()
            lane = subprocess.Popen(
                [lane_bin, "mint", LANE, "--backend", "kube", "--kube-config", "kube.yaml", "--json"],
                cwd=work, env=env, stdout=open(os.path.join(work, "lane.out"), "w"),
                stderr=open(os.path.join(work, "lane.err"), "w"),
            )
            stop = threading.Event()
            k = threading.Thread(target=kubelet, args=(work, lane_bin, api, manifests, stop))
            k.start()
            # wait4: lane's own CPU seconds and peak RSS from the kernel.
            _, status, usage = os.wait4(lane.pid, 0)
            lane.returncode = os.waitstatus_to_exitcode(status)
            code = lane.returncode
            t_end = time.time()
            stop.set()
            k.join()
            if code != 0:
                raise SystemExit(f"lane mint exited {code}: {open(os.path.join(work, 'lane.err')).read()[-2000:]}")
            summary = json.load(open(os.path.join(work, "out/lanes", LANE, "results/summary.json")))
            assert summary["green"] and len(summary["mints"]) == jobs, summary
            n, posts, by_kind = lane_requests(log)
        finally:
            emu.kill()
            emu.wait()

        # The peer: the same manifests, one POST each, on a fresh emulator.
        emu, port, plog = start_emulator(work, "peer")
        try:
            api = Api(port)
            stop = threading.Event()
            ppeak = [0]
            watcher = threading.Thread(target=peak_rss_kib, args=(os.getpid(), stop, ppeak))
            watcher.start()
            p0 = time.time()
            r0 = os.times()
            for m in manifests:
                api.call("POST", f"/apis/batch/v1/namespaces/{NS}/jobs", m)
            r1 = os.times()
            p_end = time.time()
            peer_cpu = (r1.user - r0.user) + (r1.system - r0.system)
            stop.set()
            watcher.join()
        finally:
            emu.kill()
            emu.wait()

    submit_s = max(posts) - t0
    rows = [
        ("Jobs", f"{jobs}", f"{len(manifests)}"),
        ("API requests (WATCH counted once)", f"{n}", f"{len(manifests)}"),
        ("requests per Job (target <= 3)", f"{n / jobs:.3f}", f"{len(manifests) / len(manifests):.3f}"),
        ("time to submit every Job", f"{submit_s:.2f} s", f"{p_end - p0:.2f} s"),
        ("time to the end (watched, gathered, reported)", f"{t_end - t0:.2f} s", "-"),
        ("CPU seconds of the client", f"{usage.ru_utime + usage.ru_stime:.2f} s (whole run)", f"{peer_cpu:.2f} s (submitting)"),
        ("peak memory (target < 150 MB)", f"{usage.ru_maxrss / 1024:.1f} MiB", f"{ppeak[0] / 1024:.1f} MiB (the Python process)"),
    ]
    print(f"{'':48} {'lane mint --backend kube':>26} {'peer: one POST per Job':>28}")
    for name, a, b in rows:
        print(f"{name:48} {a:>26} {b:>28}")
    print("lane's requests by kind:", json.dumps(by_kind, sort_keys=True))
    ok = n / jobs <= 3 and usage.ru_maxrss / 1024 < 150
    print("targets:", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
