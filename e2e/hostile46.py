#!/usr/bin/env python3
"""Issue 46, verified from outside: every failure the issue measured, run
again against a built `agkit` as a hostile user would, with wall time and
peak RSS of each run.

    cargo build --release
    python3 e2e/hostile46.py [--agkit target/release/agkit] [--work /tmp/h46]
                             [--corpus ../shared/corpus]

It needs only the binary and python3: every input is made here, in the work
folder (device nodes with mknod when run as root, never under /dev). The
corpus folder is optional; without it the `check` of real art files is
skipped and said so. Prints a Markdown table (case, command, result, wall
time, peak RSS) and exits 1 if any case failed.
"""

import argparse
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

ROWS = []
FAILED = []


def watch_hwm(pid):
    """Samples the peak resident size (VmHWM, MB) of process `pid` every few
    milliseconds until it ends: that of the program itself, where wait4's
    ru_maxrss would count the forking Python's size too. Returns a dict
    whose "mb" holds the last sample, and the sampling thread."""
    got = {"mb": 0.0}

    def sample():
        while True:
            try:
                with open(f"/proc/{pid}/status") as f:
                    hwm = [l for l in f if l.startswith("VmHWM")]
            except OSError:
                return
            if not hwm:
                return
            got["mb"] = max(got["mb"], int(hwm[0].split()[1]) / 1024)
            time.sleep(0.005)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    return got, t


def run(cmd, *, cap=None, timeout=120, stdin=None, stdout=subprocess.PIPE, cwd=None):
    """Runs `cmd`; (returncode, stdout, stderr, wall seconds, peak RSS MB).
    `cap` caps the address space in bytes."""

    def limit():
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    t0 = time.monotonic()
    p = subprocess.Popen(
        [str(c) for c in cmd],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
        cwd=cwd,
    )
    hwm, sampler = watch_hwm(p.pid)
    out, err = [b""], [b""]

    def drain(f, into):
        if f is not None:
            into[0] = f.read()

    ts = [
        threading.Thread(target=drain, args=(p.stdout, out)),
        threading.Thread(target=drain, args=(p.stderr, err)),
    ]
    for t in ts:
        t.start()
    timer = threading.Timer(timeout, lambda: p.kill())
    timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    timer.cancel()
    for t in ts:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    sampler.join(1)
    # None: it ended before the first sample (a few milliseconds).
    return p.returncode, out[0], err[0].decode("utf-8", "replace"), wall, hwm["mb"] or None


def row(case, cmd, ok, result, wall=None, rss=None):
    ROWS.append((case, cmd, "PASS" if ok else "FAIL", result, wall, rss))
    if not ok:
        FAILED.append(case)
    mark = "ok  " if ok else "FAIL"
    extra = f" [{wall:.2f} s" if wall is not None else ""
    extra += (f", {rss:.0f} MB]" if rss is not None else "]") if extra else ""
    print(f"{mark} {case}: {result}{extra}", file=sys.stderr, flush=True)


def first_line(err):
    lines = [l for l in err.strip().splitlines() if l.strip()]
    errs = [l for l in lines if l.startswith("error")]
    return (errs or lines or [""])[0][:160]


def temps(folder):
    return [n for n in os.listdir(folder) if n.startswith(".agkit-tmp-")]


# ---------------------------------------------------------------- inputs


def dsf_text(defs, body, overlay=True):
    head = [
        "I",
        "800 written by e2e/hostile46.py",
        "DSF2TEXT",
        "",
        "PROPERTY sim/west 13",
        "PROPERTY sim/south 47",
        "PROPERTY sim/east 14",
        "PROPERTY sim/north 48",
        "PROPERTY sim/planet earth",
    ]
    if overlay:
        head.append("PROPERTY sim/overlay 1")
    return "\n".join(head + defs) + "\n" + body


def build_dsf(A, text, path):
    txt = path.with_suffix(".txt")
    txt.write_bytes(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)
    rc, _, err, _, _ = run([A, "dsf", "build", txt, "-o", path])
    if rc != 0:
        raise RuntimeError(f"cannot build {path}: {first_line(err)}")
    return path


def ring(lon, lat, side_m):
    dx, dy = side_m / 2 / 75_200, side_m / 2 / 111_320
    return [(lon - dx, lat - dy), (lon + dx, lat - dy), (lon + dx, lat + dy), (lon - dx, lat + dy)]


def polygon(defn, param, pts, depth=2):
    s = f"BEGIN_POLYGON {defn} {param} {depth}\nBEGIN_WINDING\n"
    for p in pts:
        s += "POLYGON_POINT " + " ".join(f"{v:.9f}" for v in p) + "\n"
    return s + "END_WINDING\nEND_POLYGON\n"


def package(root, name):
    pkg = root / name
    (pkg / "Earth nav data/+40+010").mkdir(parents=True, exist_ok=True)
    return pkg, pkg / "Earth nav data/+40+010/+47+013.dsf"


def cone_forest(n):
    f = [
        "A", "800", "FOREST", "", "TEXTURE t.png", "SCALE_X 256", "SCALE_Y 256",
        "SPACING 4 4", "RANDOM 0 0", "", "SHADER_3D", "TEXTURE t3.png",
        f"MESH cone 0 500 {n + 1} {3 * n}", "VERTEX 0 10 0  0 1 0  0.5 1  0",
    ]
    import math

    for k in range(n):
        a = k / n * math.tau
        c, s = math.cos(a), math.sin(a)
        f.append(f"VERTEX {2 * c:.4f} 0 {2 * s:.4f}  {c:.4f} 0.3 {s:.4f}  0.5 0  0")
    for k in range(n):
        f.append(f"IDX 0 {1 + k} {1 + (k + 1) % n}")
    f += ["", "TREE 0 0 64 128 32 100 8 12 2 0 cone", "MESH_3D cone", ""]
    return "\n".join(f)


BOX_OBJ = """I
800
OBJ

POINT_COUNTS 8 0 0 36
VT -1 0 -1 0 1 0 0 0
VT 1 0 -1 0 1 0 0 0
VT 1 0 1 0 1 0 0 0
VT -1 0 1 0 1 0 0 0
VT -1 2 -1 0 1 0 0 0
VT 1 2 -1 0 1 0 0 0
VT 1 2 1 0 1 0 0 0
VT -1 2 1 0 1 0 0 0
IDX10 0 1 2 0 2 3 4 5 6 4
IDX10 6 7 0 1 5 0 5 4 1 2
IDX10 6 1 6 5 2 3 7 2 7 6
IDX 3
IDX 0
IDX 4
IDX 3
IDX 4
IDX 7
TRIS 0 36
"""


# ----------------------------------------------------------------- cases


def outputs(A, W, small, big):
    """Item 1: an output path by what it names."""
    d = W / "out"
    d.mkdir(exist_ok=True)
    # A FIFO: the reader gets the bytes, the node stays a FIFO.
    for label, cmd_of in [
        ("dsftool --dsf2text TILE FIFO", lambda o: [A, "dsftool", "--dsf2text", small, o]),
        ("place --dsf TILE -o FIFO.json", lambda o: [A, "place", "--dsf", small, "--all", "-o", o]),
    ]:
        fifo = d / ("fifo-" + str(len(ROWS)) + ".json")
        os.mkfifo(fifo)
        got = {}

        def read(fifo=fifo, got=got):
            with open(fifo, "rb") as f:
                got["n"] = len(f.read())

        t = threading.Thread(target=read)
        t.start()
        rc, _, err, wall, rss = run(cmd_of(fifo), timeout=60)
        t.join(10)
        still = stat.S_ISFIFO(os.lstat(fifo).st_mode)
        ok = rc == 0 and still and got.get("n", 0) > 0 and not temps(d)
        row(f"output FIFO: {label}", label, ok,
            f"exit {rc}, reader got {got.get('n', 0)} B, still a FIFO: {still}", wall, rss)
    # A character device node made here (the numbers of /dev/null, 1:3).
    if os.geteuid() == 0:
        node = d / "null"
        if not node.exists():
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", small, node])
        still = stat.S_ISCHR(os.lstat(node).st_mode)
        row("output char device (mknod 1:3)", "dsftool --dsf2text TILE ./null", rc == 0 and still and not temps(d),
            f"exit {rc}, still a character device: {still}", wall, rss)
        full = d / "full"
        if not full.exists():
            os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", big, full])
        still = stat.S_ISCHR(os.lstat(full).st_mode)
        row("output char device (mknod 1:7, full)", "dsftool --dsf2text BIG ./full",
            rc != 0 and still and "space" in err.lower(), f"exit {rc}: {first_line(err)}", wall, rss)
    else:
        row("output char device", "(mknod)", True, "skipped: not root")
    # /dev/stdout: into the descriptor.
    rc, out, err, wall, rss = run([A, "dsftool", "--dsf2text", small, "/dev/stdout"])
    row("output /dev/stdout", "dsftool --dsf2text TILE /dev/stdout", rc == 0 and b"DSF2TEXT" in out,
        f"exit {rc}, {len(out)} B on stdout", wall, rss)
    # /dev/full: an error, not success.
    rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", big, "/dev/full"])
    row("output /dev/full", "dsftool --dsf2text BIG /dev/full", rc != 0 and "space" in err.lower(),
        f"exit {rc}: {first_line(err)}", wall, rss)
    # A folder: refused by name.
    folder = d / "folder.json"
    folder.mkdir(exist_ok=True)
    rc, _, err, wall, rss = run([A, "place", "--dsf", small, "--all", "-o", folder])
    row("output a folder", "place --dsf TILE -o DIR.json", rc != 0 and str(folder) in err and folder.is_dir(),
        f"exit {rc}: {first_line(err)}", wall, rss)
    # A socket: refused by name, left as it is.
    sock_path = d / "sock.json"
    if sock_path.exists():
        sock_path.unlink()
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock_path))
    rc, _, err, wall, rss = run([A, "place", "--dsf", small, "--all", "-o", sock_path])
    still = stat.S_ISSOCK(os.lstat(sock_path).st_mode)
    row("output a socket", "place --dsf TILE -o SOCK.json", rc != 0 and still and str(sock_path) in err,
        f"exit {rc}, still a socket: {still}: {first_line(err)}", wall, rss)
    s.close()
    # A symlink to a regular file: the file it names is written, the link kept.
    target = d / "target.txt"
    target.write_text("old\n")
    link = d / "link.txt"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target.name)
    rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", small, link])
    ok = rc == 0 and link.is_symlink() and "DSF2TEXT" in target.read_text() and not temps(d)
    row("output a symlink to a file", "dsftool --dsf2text TILE LINK", ok,
        f"exit {rc}, still a link: {link.is_symlink()}, target written: {'DSF2TEXT' in target.read_text()}",
        wall, rss)
    # A symlink to a FIFO: written into the FIFO.
    fifo = d / "fifo-link-target"
    if not fifo.exists():
        os.mkfifo(fifo)
    link2 = d / "fifo-link.txt"
    if link2.is_symlink():
        link2.unlink()
    link2.symlink_to(fifo.name)
    got = {}

    def read2():
        with open(fifo, "rb") as f:
            got["n"] = len(f.read())

    t = threading.Thread(target=read2)
    t.start()
    rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", small, link2], timeout=60)
    t.join(10)
    ok = rc == 0 and got.get("n", 0) > 0 and stat.S_ISFIFO(os.lstat(fifo).st_mode) and link2.is_symlink()
    row("output a symlink to a FIFO", "dsftool --dsf2text TILE LINK->FIFO", ok,
        f"exit {rc}, reader got {got.get('n', 0)} B", wall, rss)
    # A dangling symlink: refused or written, never a crash or a temp left.
    link3 = d / "dangling.txt"
    if link3.is_symlink():
        link3.unlink()
    link3.symlink_to("nowhere/x.txt")
    rc, _, err, wall, rss = run([A, "dsftool", "--dsf2text", small, link3])
    ok = rc in (0, 1, 2) and not temps(d) and "panick" not in err and (rc == 0 or str(link3) in err)
    row("output a dangling symlink", "dsftool --dsf2text TILE DANGLING", ok,
        f"exit {rc}: {first_line(err) or 'written'}", wall, rss)


def signals(A, W, big):
    """Item 2: every ending signal midway through a big write cleans up."""
    d = W / "sig"
    d.mkdir(exist_ok=True)
    for name, sig, want in [
        ("SIGINT", signal.SIGINT, 130),
        ("SIGTERM", signal.SIGTERM, 143),
        ("SIGHUP", signal.SIGHUP, 129),
        ("SIGQUIT", signal.SIGQUIT, 131),
        ("SIGPIPE", signal.SIGPIPE, 0),
    ]:
        for n in temps(d):
            os.unlink(d / n)
        out = d / "big.txt"
        if out.exists():
            out.unlink()
        t0 = time.monotonic()
        p = subprocess.Popen([str(A), "dsf", "totext", str(big), "-o", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        hwm, sampler = watch_hwm(p.pid)
        # Midway: once the temporary file holds something.
        while time.monotonic() - t0 < 60:
            ts = temps(d)
            if ts and os.path.getsize(d / ts[0]) > 1 << 20:
                break
            if p.poll() is not None:
                break
            time.sleep(0.002)
        midway = p.poll() is None
        p.send_signal(sig)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode("utf-8", "replace")
        rc = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        left = temps(d)
        if sig == signal.SIGPIPE:
            ok = midway and rc == 0 and not left and out.exists()
            res = f"exit {rc} (ignored, write finished), temps left: {len(left)}"
        else:
            ok = midway and rc == want and not left and not out.exists()
            res = f"exit {rc}, temps left: {len(left)}, output written: {out.exists()}"
        if not midway:
            res += " (the write ended before the signal)"
        sampler.join(1)
        row(f"signal {name} midway", f"dsf totext BIG -o big.txt; kill -{name[3:]}", ok, res, wall, hwm["mb"])
    # SIGPIPE from a reader that goes away: the writer ends with an error, no temp.
    p = subprocess.Popen([str(A), "dsftool", "--dsf2text", str(big), "/dev/stdout"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=d)
    hwm, sampler = watch_hwm(p.pid)
    t0 = time.monotonic()
    p.stdout.read(4096)
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode("utf-8", "replace")
    row("reader of /dev/stdout goes away (EPIPE)", "dsftool --dsf2text BIG /dev/stdout | head -c 4096",
        rc != 0 and "panick" not in err and not temps(d), f"exit {rc}: {first_line(err)}",
        time.monotonic() - t0, hwm["mb"])


def bomb(A, W, serve_port):
    """Item 3: the 305-byte DSF of 20,000-triangle 3-D trees."""
    pkg, tile = package(W, "bomb")
    (pkg / "forest.for").write_text(cone_forest(20_000))
    r = ring(13.5, 47.5, 150.0)
    build_dsf(A, dsf_text(["POLYGON_DEF forest.for"], polygon(0, 255, r)), tile)
    size = tile.stat().st_size
    for ext in ["glb", "png"]:
        out = W / f"bomb.{ext}"
        rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", out], cap=2500 << 20)
        ok = rc in (0, 1) and wall < 10 and (rss or 0) < 1000 and "panick" not in err
        res = f"exit {rc}, {out.stat().st_size if out.exists() else 0} B out" + (
            f": {first_line(err)}" if rc else "")
        row(f"3-D tree bomb ({size} B DSF) to {ext}", f"place --all --dsf bomb.dsf -o bomb.{ext} (2.5 GB cap)",
            ok, res, wall, rss)
    # The previewer: its process's RSS before and after one GET.
    srv = subprocess.Popen([str(A), "serve", str(pkg), "--port", str(serve_port)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{serve_port}"
        t0 = time.monotonic()
        while time.monotonic() - t0 < 30:
            try:
                urllib.request.urlopen(url + "/api/version", timeout=2).read()
                break
            except Exception:
                time.sleep(0.1)
        t0 = time.monotonic()
        try:
            resp = urllib.request.urlopen(
                url + "/api/tile.glb?path=Earth%20nav%20data/%2B40%2B010/%2B47%2B013.dsf", timeout=60)
            code, body = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            code, body = e.code, e.read()
        wall = time.monotonic() - t0
        hwm = 0
        for line in open(f"/proc/{srv.pid}/status"):
            if line.startswith("VmHWM"):
                hwm = int(line.split()[1]) / 1024
        ok = wall < 10 and hwm < 1000 and code in (200, 413, 422, 400)
        row("3-D tree bomb: previewer GET /api/tile.glb", "serve bomb/; GET /api/tile.glb?path=…",
            ok, f"HTTP {code}, {len(body)} B: {body[:100]!r}" if code != 200 else f"HTTP 200, {len(body)} B glb",
            wall, hwm)
    finally:
        srv.terminate()
        srv.wait()


def strings(A, W):
    """Item 4: a glb's memory per placed object (two strings at 1 m spacing)."""
    pkg, tile = package(W, "strings")
    (pkg / "box.obj").write_text(BOX_OBJ)
    (pkg / "s.str").write_text("A\n850\nOBJECT_STRING\n\nOFFSET 0\nOBJECT 0 0 box.obj\n")
    # Two zigzags across the tile, about 207 km each, param 1 = 1 m apart.
    body = ""
    for k in range(2):
        pts = []
        for i in range(12):
            lat = 47.05 + 0.9 * (i / 11)
            lon = 13.05 + (0.0 if i % 2 == 0 else 0.24) + 0.3 * k
            pts.append((lon, lat))
        body += polygon(0, 1, pts)
    build_dsf(A, dsf_text(["POLYGON_DEF s.str"], body), tile)
    res = {}
    for ext in ["json", "glb"]:
        out = W / f"strings.{ext}"
        rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", out], timeout=300)
        res[ext] = (rc, wall, rss, out.stat().st_size if out.exists() else 0, err)
    import json

    data = json.loads((W / "strings.json").read_text())

    def count(v):
        if isinstance(v, dict):
            n = len(v.get("objects", [])) if isinstance(v.get("objects"), list) else 0
            return n + sum(count(x) for k, x in v.items() if k != "objects")
        if isinstance(v, list):
            return sum(count(x) for x in v)
        return 0

    objs = count(data)
    jrc, jwall, jrss, jsize, _ = res["json"]
    grc, gwall, grss, gsize, gerr = res["glb"]
    per = ((grss or 0) - (jrss or 0)) * (1 << 20) / max(objs, 1)
    per_out = ((grss or 0) * (1 << 20) - gsize) / max(objs, 1)
    row("strings at 1 m to json", "place --all --dsf strings.dsf -o strings.json", jrc == 0,
        f"{objs:,} objects, {jsize / 1e6:.1f} MB json", jwall, jrss)
    row("strings at 1 m to glb", "place --all --dsf strings.dsf -o strings.glb",
        grc == 0 and objs > 300_000 and per <= 300,
        f"{gsize / 1e6:.1f} MB glb; {per:.0f} B/object over the json run's peak, "
        f"{per_out:.0f} B/object of peak beyond the glb's size" + (f": {first_line(gerr)}" if grc else ""),
        gwall, grss)


def svg_text(A, W):
    """Items 5 and 6: control characters and long names in the pictures."""
    d = W / "svg"
    d.mkdir(exist_ok=True)
    names = ["ctl\x01one.obj", "esc\x1b[31mred.obj", "amp&<lt>\"q'.obj", "bell\x07\x08\x0b\x0c.obj",
             "ffff\ufffe.obj", "lone\udcff.obj"]
    defs = [f"OBJECT_DEF {n}" for n in names]
    body = "".join(f"OBJECT {i} 13.{5000 + i * 3} 47.5 0\n" for i in range(len(names)))
    tile = build_dsf(A, dsf_text(defs, body), d / "ctl.dsf")
    for ext in ["svg", "png", "json"]:
        out = d / f"ctl.{ext}"
        rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", out])
        if ext == "svg":
            try:
                ET.parse(out)
                parsed = "parses as XML (xml.etree)"
                ok = rc == 0
            except Exception as e:
                parsed, ok = f"not XML: {e}", False
            row("SVG of names with control characters", "place --all --dsf ctl.dsf -o ctl.svg", ok,
                f"exit {rc}, {parsed}; stderr: {first_line(err)}", wall, rss)
        elif ext == "json":
            import json

            text = out.read_text(errors="replace") if out.exists() else ""
            kept = "ctl\\u0001one.obj" in text or "ctl\x01one.obj" in json.dumps(json.loads(text) if text else "")
            row("JSON keeps the full control-character name", "place --all --dsf ctl.dsf -o ctl.json",
                rc == 0 and kept, f"exit {rc}, name kept: {kept}", wall, rss)
        else:
            row("PNG of names with control characters", "place --all --dsf ctl.dsf -o ctl.png",
                rc == 0 and out.exists(), f"exit {rc}", wall, rss)
    # Long names: time per byte must not grow with the length.
    per_byte = {}
    for n in [25_000, 50_000, 100_000, 1_000_000, 2_000_000]:
        name = "n" * (n - 4) + ".obj"
        tile = build_dsf(A, dsf_text([f"OBJECT_DEF {name}"], "OBJECT 0 13.5 47.5 0\n"), d / f"long{n}.dsf")
        for ext in ["svg", "png"]:
            out = d / f"long{n}.{ext}"
            rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", out], timeout=120)
            ok = rc == 0 and wall < 10
            if ext == "svg" and ok:
                try:
                    ET.parse(out)
                except Exception as e:
                    ok = False
                    err = f"not XML: {e}"
            per_byte.setdefault(ext, []).append((n, wall))
            row(f"long name {n:,} chars to {ext}", f"place --all --dsf long{n}.dsf -o long{n}.{ext}", ok,
                f"exit {rc}, {out.stat().st_size if out.exists() else 0:,} B" + (f": {first_line(err)}" if not ok else ""),
                wall, rss)
    for ext, pts in per_byte.items():
        # From 100,000 characters: below it the run is its start-up.
        (n0, w0), (n1, w1) = pts[2], pts[-1]
        ratio = w1 / max(w0, 1e-3)
        row(f"long names linear ({ext})", f"wall at {n1:,} / at {n0:,} chars", ratio < (n1 / n0) * 1.5,
            f"{ratio:.1f}x for {n1 / n0:.0f}x the length")


def check_art(A, W, corpus):
    """Item 5: check of every art kind, unreadable says why."""
    d = W / "art"
    d.mkdir(exist_ok=True)
    # Written as authors write them (Laminar's library and airport packages):
    # the corpus holds no .pol, .lin, .str or .ter of its own.
    files = {
        "nowrap.pol": "A\n850\nDRAPED_POLYGON\n\nTEXTURE_NOWRAP apron.png\nSCALE 25 25\n"
        "LAYER_GROUP TAXIWAYS -1\nSURFACE concrete\nNO_ALPHA\n",
        "plain.lin": "A\n850\nLINE_PAINT\n\nTEXTURE line.png\nSCALE 8 32\nTEX_WIDTH 512\n"
        "LAYER_GROUP MARKINGS 0\nS_OFFSET 0 17 20 23\nMIRROR\n",
        "plain.str": "A\n850\nOBJECT_STRING\n\nOFFSET 0.0\nOBJECT 0 0 box.obj\n",
        "plain.ter": "A\n800\nTERRAIN\n\nBASE_TEX apron.png\nLOAD_CENTER 47.5 13.5 4000 1024\nNO_ALPHA\n",
        "nan.pol": "A\n850\nDRAPED_POLYGON\n\nTEXTURE apron.png\nSCALE nan 10\n",
        "many.str": "A\n850\nOBJECT_STRING\n\nOFFSET 0\n" + "OBJECT 0 0 box.obj\n" * 100_000,
    }
    for n, t in files.items():
        (d / n).write_text(t)
    (d / "box.obj").write_text(BOX_OBJ)
    for n in ["apron.png", "line.png"]:
        # A 1x1 PNG.
        (d / n).write_bytes(bytes.fromhex(
            "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
            "1f15c4890000000d49444154789c6360f8cf0000000301010018dd8db0"
            "0000000049454e44ae426082"))
    for n in ["nowrap.pol", "plain.lin", "plain.str", "plain.ter"]:
        rc, out, err, wall, rss = run([A, "check", d / n])
        text = (out.decode() + err)
        ok = rc == 0 and not re.search(r"AG000[23]", text) and "error" not in text.split("\n")[-2:][0].lower()
        ok = rc == 0 and not re.search(r"AG000[23]", text)
        row(f"check {n}", f"check {n}", ok, f"exit {rc}: {first_line(text.strip().splitlines()[-1] if text.strip() else '')}",
            wall, rss)
    for n, want in [("nan.pol", r"nan\.pol:\d+"), ("many.str", r"many\.str:\d+")]:
        rc, out, err, wall, rss = run([A, "check", d / n])
        text = out.decode() + err
        ok = rc != 0 and re.search(want, text) is not None and "unreadable" not in text.lower().replace("unreadable:", "")
        m = re.search(r"(error\[[A-Z0-9]+\][^\n]*)", text)
        row(f"check {n} says why with file:line", f"check {n}", rc != 0 and re.search(want, text) is not None,
            f"exit {rc}: {m.group(1) if m else first_line(text)}", wall, rss)
    # info of the .pol with TEXTURE_NOWRAP: its texture.
    rc, out, err, wall, rss = run([A, "info", d / "nowrap.pol"])
    text = out.decode() + err
    row("TEXTURE_NOWRAP is the .pol's texture", "info nowrap.pol", rc == 0 and "apron.png" in text,
        f"exit {rc}, names apron.png: {'apron.png' in text}", wall, rss)
    # Real art from the corpus, when given.
    if corpus and (corpus / "MANIFEST.tsv").exists():
        picked = {}
        for p in sorted(corpus.rglob("*")):
            ext = p.suffix.lower()
            if ext in (".pol", ".lin", ".str", ".ter") and p.is_file() and ext not in picked:
                picked[ext] = p
        for ext, p in sorted(picked.items()):
            rc, out, err, wall, rss = run([A, "check", p])
            text = out.decode() + err
            ok = rc == 0 and not re.search(r"AG000[23]", text)
            last = text.strip().splitlines()[-1] if text.strip() else ""
            row(f"check real {ext}", f"check {p.relative_to(corpus)}", ok, f"exit {rc}: {last[:120]}", wall, rss)
    else:
        row("check real .pol/.lin/.str/.ter", "(corpus)", True, "skipped: no --corpus")


def missing_art(A, W, serve_port):
    """check of a package with missing art; missing .fac and .agp drawn."""
    import json

    pkg, tile = package(W, "missing")
    (pkg / "objects").mkdir(exist_ok=True)
    defs = [f"OBJECT_DEF objects/gone{i}.obj" for i in range(60)] + [
        "OBJECT_DEF point/gone.agp", "POLYGON_DEF lib/fences/Fence.fac", "POLYGON_DEF gone.fac"]
    body = "".join(f"OBJECT {i} {13.5 + i * 1e-4:.6f} 47.5 0\nOBJECT {i} {13.5 + i * 1e-4:.6f} 47.501 0\n"
                   for i in range(60))
    body += "OBJECT 60 13.51 47.51 0\n"
    big = ring(13.52, 47.52, 400)
    body += polygon(0, 10, big)
    body += polygon(1, 10, ring(13.53, 47.53, 200))
    build_dsf(A, dsf_text(defs, body), tile)
    rc, out, err, wall, rss = run([A, "check", "--max-per-code", "all", pkg])
    text = out.decode() + err
    gone = re.findall(r"gone(\d+)\.obj", text)
    codes = set(re.findall(r"warning\[([A-Z]+\d+)\][^\n]*gone", text))
    per = {}
    for g in gone:
        per[g] = per.get(g, 0) + 1
    once = len(per) == 60 and all(v == 1 for v in per.values())
    row("check a package whose DSF names 60 missing objects", "check --max-per-code all missing/", bool(codes) and once,
        f"exit {rc}, codes {sorted(codes)}, {len(per)} paths named, each once: {once}", wall, rss)
    rc, out, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", W / "missing.json"])
    twice = [l for l in err.splitlines() if re.search(r"(objects/gone\d+\.obj).*\1", l)]
    row("place: unresolved art named once a line", "place --all --dsf missing.dsf", rc == 0 and not twice,
        f"exit {rc}, lines saying a path twice: {len(twice)}", wall, rss)
    rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", W / "missing.glb"])
    glb = (W / "missing.glb").read_bytes() if rc == 0 else b""
    doc = {}
    if glb:
        n = int.from_bytes(glb[12:16], "little")
        doc = json.loads(glb[20:20 + n])
    nodes = doc.get("nodes", [])
    fac = [n for n in nodes if "fac" in json.dumps(n.get("extras", {})) and "gone.fac" in json.dumps(n) or
           "Fence.fac" in json.dumps(n)]
    roofs = [n for n in fac if "roof" in json.dumps(n.get("extras", {})).lower() and "outline" not in json.dumps(n)]
    drawn = sorted({str(n.get("extras", {}).get("drawn", "")) for n in fac})
    row("missing .fac drawn as outline (glb)", "place --all --dsf missing.dsf -o missing.glb",
        rc == 0 and fac and not roofs and any("outline" in x for x in drawn),
        f"{len(fac)} facade nodes, drawn {drawn}", wall, rss)
    agp = [n for n in nodes if "gone.agp" in json.dumps(n)]
    idx = {id(n): i for i, n in enumerate(nodes)}
    marks = [n for n in agp if n.get("extras", {}).get("item") == "unplaced" and "mesh" in n]
    near = False
    for m in marks:
        # The mark is a small box at its parent's origin, the DSF's point.
        parent = [p for p in nodes if idx[id(m)] in p.get("children", [])]
        at = parent[0].get("translation") if parent else None
        acc = doc["accessors"][doc["meshes"][m["mesh"]]["primitives"][0]["attributes"]["POSITION"]]
        lo, hi = acc["min"], acc["max"]
        near = at is not None and all(lo[i] - 5 <= 0 <= hi[i] + 5 for i in (0, 2)) and abs(at[0]) > 1
    row("missing .agp marked at its point (glb)", "place --all --dsf missing.dsf -o missing.glb",
        rc == 0 and bool(marks) and near,
        f"{len(marks)} mark(s) ({marks[0].get('extras', {}).get('why') if marks else ''}), at the DSF's point: {near}",
        wall, rss)
    rc, _, err, wall, rss = run([A, "place", "--all", "--dsf", tile, "-o", W / "missing.svg"])
    svg = (W / "missing.svg").read_text() if rc == 0 else ""
    row("missing .fac and .agp in the SVG legend", "place --all --dsf missing.dsf -o missing.svg",
        rc == 0 and ".fac is missing" in svg.replace("facade is missing", ".fac is missing") or "not placed" in svg,
        f"legend says outline: {'outline' in svg}, 'not placed': {'not placed' in svg}", wall, rss)
    # The previewer draws the same.
    srv = subprocess.Popen([str(A), "serve", str(pkg), "--port", str(serve_port)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{serve_port}"
        wait_up(url)
        t0 = time.monotonic()
        body = urllib.request.urlopen(
            url + "/api/tile.glb?path=Earth%20nav%20data/%2B40%2B010/%2B47%2B013.dsf", timeout=60).read()
        wall = time.monotonic() - t0
        n = int.from_bytes(body[12:16], "little")
        pdoc = json.loads(body[20:20 + n])
        pn = pdoc.get("nodes", [])
        pf = sorted({str(x.get("extras", {}).get("drawn", "")) for x in pn if "Fence.fac" in json.dumps(x)})
        pa = [x for x in pn if "gone.agp" in json.dumps(x)]
        row("previewer draws missing .fac/.agp the same", "serve missing/; GET /api/tile.glb",
            pf == drawn and len(pa) == len(agp), f"facade drawn {pf}, {len(pa)} .agp node(s)", wall, None)
    finally:
        srv.terminate()
        srv.wait()


def wait_up(url):
    t0 = time.monotonic()
    while time.monotonic() - t0 < 30:
        try:
            urllib.request.urlopen(url + "/api/version", timeout=2).read()
            return
        except Exception:
            time.sleep(0.1)


def serve_hole(A, repo, serve_port):
    """The previewer: city_block.agb picked on the lake with an island."""
    import json

    srv = subprocess.Popen([str(A), "serve", str(repo / "examples"), "--port", str(serve_port)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{serve_port}"
        wait_up(url)
        t0 = time.monotonic()
        got = json.loads(urllib.request.urlopen(url + "/api/polygons", timeout=10).read())
        polys = got["polygons"]
        lake = [p for p in polys if "hole" in p["label"].lower()][0]
        # What web/fit.js does: the asset's kind is not in what the polygon
        # takes, so the page moves it to the first polygon that takes it.
        fit = next((p for p in polys if "agb" in p["takes"]), None)
        q = urllib.parse.urlencode({"asset": "block/city_block.agb", "polygon": fit["name"] if fit else "lake"})
        try:
            r = urllib.request.urlopen(url + "/api/place?" + q, timeout=30)
            code, body = r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            code, body = e.code, {}
        wall = time.monotonic() - t0
        tiles = len(body.get("placement", {}).get("tiles", [])) if isinstance(body, dict) else 0
        ok = "agb" not in lake["takes"] and fit is not None and code == 200 and tiles > 0
        row("serve examples/: city_block.agb picked on the lake with a hole",
            f"GET /api/polygons; GET /api/place?{q}", ok,
            f"lake takes {lake['takes']}; the page moves it to {fit['label'] if fit else None!r}: "
            f"HTTP {code}, {tiles} tiles", wall, None)
    finally:
        srv.terminate()
        srv.wait()


def main():
    repo = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agkit", type=Path, default=repo / "target/release/agkit")
    ap.add_argument("--work", type=Path, default=Path("/tmp/h46"))
    near = [repo.parent / "shared/corpus", repo.parent.parent / "shared/corpus"]
    ap.add_argument("--corpus", type=Path, default=next((c for c in near if c.exists()), near[0]))
    ap.add_argument("--port", type=int, default=18046)
    ap.add_argument("--only", default="", help="comma-separated case groups")
    a = ap.parse_args()
    A, W = a.agkit.resolve(), a.work
    W.mkdir(parents=True, exist_ok=True)
    small = build_dsf(A, dsf_text(["OBJECT_DEF a.obj"], "OBJECT 0 13.5 47.5 0\n"), W / "small.dsf")
    big = W / "big.dsf"
    if not big.exists():
        body = "".join(f"OBJECT 0 {13 + i / 1_000_000:.7f} {47 + (i * 977 / 1_000_000) % 1:.7f} {i % 360}\n"
                       for i in range(1_000_000))
        build_dsf(A, dsf_text(["OBJECT_DEF a.obj"], body), big)
    groups = {
        "outputs": lambda: outputs(A, W, small, big),
        "signals": lambda: signals(A, W, big),
        "bomb": lambda: bomb(A, W, a.port),
        "strings": lambda: strings(A, W),
        "svg": lambda: svg_text(A, W),
        "art": lambda: check_art(A, W, a.corpus if a.corpus.exists() else None),
        "missing": lambda: missing_art(A, W, a.port + 1),
        "serve": lambda: serve_hole(A, repo, a.port + 2),
    }
    only = [g for g in a.only.split(",") if g] or list(groups)
    for g in only:
        try:
            groups[g]()
        except Exception as e:  # a case that cannot run is a failure, said
            row(f"{g} (could not run)", g, False, f"{type(e).__name__}: {e}")
    print("| case | command | result | | wall | peak RSS |")
    print("|---|---|---|---|---:|---:|")
    for case, cmd, status, res, wall, rss in ROWS:
        w = f"{wall:.2f} s" if wall is not None else ""
        r = f"{rss:.0f} MB" if rss is not None else "—"
        res = res.replace("|", "\\|").replace("\n", " ")
        print(f"| {case} | `{cmd}` | {res} | {status} | {w} | {r} |")
    if FAILED:
        print(f"\n{len(FAILED)} failed: {', '.join(FAILED)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
