#!/usr/bin/python3
"""Checks of `scope-profiler export` against known inputs (tests/export/).

    check_exports.py CHECK BIN_DIR WORK_DIR SOURCE_DIR

WORK_DIR holds the profiles make_export_profiles wrote; SOURCE_DIR is
tests/export (perfetto_subset.proto, expected/) and ../fixtures beside it.
Every check asserts exact values; a failure raises and exits non-zero.
"""
import codecs
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

CHECK, BIN, WORK, SRC = sys.argv[1:5]
TOOL = os.path.join(BIN, "scope-profiler")
FIXTURES = os.path.join(SRC, "..", "fixtures")
OUT = tempfile.mkdtemp(prefix="sp_export_")
MS = 1_000_000


def run(*args, rc=0):
    p = subprocess.run([TOOL, "export", *args], cwd=WORK, capture_output=True)
    if p.returncode != rc:
        raise AssertionError(f"export {' '.join(args)}: exit {p.returncode}, expected {rc}\n"
                             f"stderr: {p.stderr.decode(errors='replace')}")
    return p


def export_bytes(fmt, profile, *opts):
    path = os.path.join(OUT, "out")
    run(fmt, profile, "-o", path, *opts)
    with open(path, "rb") as f:
        return f.read()


def chrome(profile, *opts):
    return json.loads(export_bytes("chrome-trace", profile, *opts))


def calls(doc):
    return [e for e in doc["traceEvents"] if e["ph"] == "X"]


def names_of(doc):
    return sorted(e["name"] for e in calls(doc))


def expect(got, want, what):
    if got != want:
        raise AssertionError(f"{what}:\n  got  {got!r}\n  want {want!r}")


# --- folded: exact lines --------------------------------------------------------

def check_folded():
    expect(export_bytes("folded", "nested.h5").decode(),
           "main 12000000\nmain;init 10000000\nmain;loop;step 25000000\n"
           "main;loop;step;kernel 30000000\nmain;loop;step;io 15000000\n"
           "main;rec 3000000\nmain;rec;rec 5000000\n", "folded nested.h5")
    # --include keeps the ancestors; their time outside the kept children is theirs.
    expect(export_bytes("folded", "nested.h5", "--include", "kernel").decode(),
           "main 30000000\nmain;loop;step 40000000\nmain;loop;step;kernel 30000000\n",
           "folded --include kernel")
    expect(export_bytes("folded", "mpi.h5", "--per-rank").decode(),
           "rank 0;work 2000000\nrank 0;work;sub 1000000\n"
           "rank 1;work 2000000\nrank 1;work;sub 3000000\n", "folded --per-rank")
    expect(export_bytes("folded", "mpi.h5").decode(),
           "work 4000000\nwork;sub 4000000\n", "folded pooled over ranks")
    expect(export_bytes("folded", "threads.h5").decode(),
           "run 11000000\nrun;task 6000000\n", "folded pooled over threads")
    # The depth cap: frames from the cap's on fold into one with their time (issue 22).
    expect(export_bytes("folded", "nested.h5", "--max-depth", "3").decode(),
           "main 12000000\nmain;init 10000000\nmain;loop;\u2026(2 levels) 70000000\n"
           "main;rec 3000000\nmain;rec;\u2026(1 level) 5000000\n", "folded --max-depth 3")
    expect(export_bytes("folded", "mpi.h5", "--per-rank", "--max-depth", "2").decode(),
           "rank 0;\u2026(2 levels) 3000000\nrank 1;\u2026(2 levels) 5000000\n",
           "folded --per-rank --max-depth 2")
    lines = export_bytes("folded", "deep.h5").decode().splitlines()
    names = ["d%04d" % i for i in range(4000)]
    expect(len(lines), 256, "4,000 deep: 255 lines and the folded one")
    expect(lines[:255], [";".join(names[:k + 1]) + " 2000" for k in range(255)],
           "4,000 deep: the first 255 frames")
    expect(lines[255], ";".join(names[:255]) + ";\u2026(3745 levels) 7490000",
           "4,000 deep: calls 255 to 3999 in one frame with call 255's time")
    p = run("folded", "deep.h5", "--max-depth", "1", rc=2)
    one_error_line(p, "bad --max-depth value", "from 2 to 1000000")
    p = run("chrome-trace", "nested.h5", "-o", os.path.join(OUT, "x"), "--max-depth", "4", rc=2)
    one_error_line(p, "--max-depth applies to the folded format only")


# --- chrome-trace: fields, ids, metadata events ------------------------------------

def check_chrome():
    doc = chrome("nested.h5")
    expect(list(doc), ["displayTimeUnit", "metadata", "traceEvents"], "top-level keys")
    expect(doc["displayTimeUnit"], "ms", "displayTimeUnit")
    expect(doc["metadata"]["name"], "nested", "metadata name")
    expect(doc["metadata"]["run_metadata"]["start_time_ns"], 1_000_000_000_000, "run metadata")
    meta = [e for e in doc["traceEvents"] if e["ph"] == "M"]
    expect(meta, [{"name": "process_name", "ph": "M", "pid": 0, "tid": 0,
                   "args": {"name": "rank 0"}},
                  {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0,
                   "args": {"name": "rank 0", "lane": "rank"}}], "metadata events")
    got = [(e["name"], e["ts"], e["dur"], e["args"]["call_id"], e["args"]["parent_id"],
            e["args"]["call_index"]) for e in calls(doc)]
    expect(got, [("main", 0, 100000, 0, -1, 0), ("init", 1000, 10000, 1, 0, 0),
                 ("loop", 20000, 70000, 2, 0, 0), ("step", 20000, 30000, 3, 2, 0),
                 ("kernel", 22000, 20000, 4, 3, 0), ("step", 50000, 40000, 5, 2, 1),
                 ("kernel", 52000, 10000, 6, 5, 1), ("io", 70000, 15000, 7, 5, 0),
                 ("rec", 91000, 8000, 8, 0, 0), ("rec", 92000, 5000, 9, 8, 1)],
           "X events in tree order")
    main = calls(doc)[0]
    expect(main, {"name": "main", "cat": "scope-profiler", "ph": "X", "ts": 0, "dur": 100000,
                  "pid": 0, "tid": 0,
                  "args": {"rank": 0, "call_index": 0, "duration_s": 0.1, "call_id": 0,
                           "parent_id": -1, "source_file": 'src/app "main".c',
                           "source_line": 12}}, "one whole event")
    doc = chrome("threads.h5")
    meta = [e for e in doc["traceEvents"] if e["name"] == "thread_name"]
    expect([(e["tid"], e["args"]) for e in meta],
           [(0, {"name": "main", "lane": "thread", "thread_index": 0, "native_id": 5001,
                 "ident": 140001, "cpu_time_s": 0.009}),
            (1, {"name": 'worker "1"', "lane": "thread", "thread_index": 1, "native_id": 5002,
                 "ident": 140002, "cpu_time_s": 0.006})],
           "thread names: the Python package's keys from the thread table")
    expect(sorted((e["tid"], e["name"], e["ts"]) for e in calls(doc)),
           [(0, "run", 0), (0, "task", 1000), (1, "run", 2000), (1, "task", 3000),
            (1, "task", 6000)], "threads as tids")
    # Nanoseconds survive: microseconds with three exact decimals.
    raw = export_bytes("chrome-trace", "big.h5", "--max-events", "1")
    expect(b'"dur":8.006' in raw, True, "fractional microseconds")


# --- selection options ----------------------------------------------------------

def check_selection():
    expect(names_of(chrome("mpi.h5", "--ranks", "1")), ["sub", "work"], "--ranks 1")
    expect({e["pid"] for e in calls(chrome("mpi.h5", "--ranks", "1"))}, {1}, "--ranks pid")
    expect(sorted((e["tid"], e["name"]) for e in calls(chrome("threads.h5", "--threads", "1"))),
           [(1, "run"), (1, "task"), (1, "task")], "--threads 1")
    expect(names_of(chrome("nested.h5", "--window", "0.021:0.023")),
           ["kernel", "loop", "main", "step"], "--window")
    expect(names_of(chrome("nested.h5", "--window", "0.095:")), ["main", "rec", "rec"],
           "--window open end")
    expect(names_of(chrome("nested.h5", "--min-duration", "25ms")),
           ["loop", "main", "step", "step"], "--min-duration 25ms")
    expect(names_of(chrome("nested.h5", "--min-duration", "0.025")),
           ["loop", "main", "step", "step"], "--min-duration seconds")
    top3 = calls(chrome("nested.h5", "--max-events", "3"))
    expect([(e["name"], e["dur"]) for e in top3],
           [("main", 100000), ("loop", 70000), ("step", 40000)], "--max-events 3")
    # The longest kernel with its whole path.
    one = calls(chrome("nested.h5", "--max-events", "1", "--include", "kernel"))
    expect([(e["name"], e["ts"]) for e in one],
           [("main", 0), ("loop", 20000), ("step", 20000), ("kernel", 22000)],
           "--max-events with ancestors")
    expect(names_of(chrome("nested.h5", "--include", "kernel")),
           ["kernel", "kernel", "loop", "main", "step", "step"], "--include keeps paths")
    expect(names_of(chrome("nested.h5", "--exclude", "kernel|io|rec")),
           ["init", "loop", "main", "step", "step"], "--exclude")
    aligned = {e["pid"]: e["ts"] for e in calls(chrome("mpi.h5", "--include", "work"))}
    raw = {e["pid"]: e["ts"] for e in calls(chrome("mpi.h5", "--include", "work",
                                                   "--raw-clock"))}
    # raw clock: the Python package's float arithmetic (ns / 1e9 differences, times 1e6)
    py_ts = (1_000_001_000_000 / 1e9 - 1_000_000_000_000 / 1e9) * 1e6
    expect((aligned, raw), ({0: 1000, 1: 6000}, {0: py_ts, 1: py_ts}), "clock alignment")


# --- perfetto: protoc --decode against our subset of the public protos -----------

def parse_text_format(text):
    """protoc's text output as nested lists of (key, value)."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|[{}]|[A-Za-z_0-9.\-]+:?', text)
    pos = 0

    def value(tok):
        if tok.startswith('"'):
            return codecs.escape_decode(tok[1:-1].encode())[0].decode("utf-8")
        try:
            return int(tok)
        except ValueError:
            return tok

    def block():
        nonlocal pos
        items = []
        while pos < len(tokens) and tokens[pos] != "}":
            key = tokens[pos].rstrip(":")
            pos += 1
            if tokens[pos] == "{":
                pos += 1
                items.append((key, block()))
                pos += 1
            else:
                items.append((key, value(tokens[pos])))
                pos += 1
        return items

    return block()


def field(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def decode_perfetto(profile, *opts):
    data = export_bytes("perfetto", profile, *opts)
    p = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", SRC,
                        "perfetto_subset.proto"], input=data, capture_output=True)
    if p.returncode != 0:
        raise AssertionError("protoc --decode failed: " + p.stderr.decode())
    return [v for k, v in parse_text_format(p.stdout.decode()) if k == "packet"]


def perfetto_slices(packets):
    """Tracks, names and slices [(track, name, begin, end)] of a decoded trace."""
    names, tracks, slices, stacks = {}, {}, [], {}
    for i, pk in enumerate(packets):
        expect(field(pk, "trusted_packet_sequence_id"), 1, "sequence id")
        expect(field(pk, "sequence_flags"), 1 if i == 0 else 2, "sequence flags")
        for entry in field(pk, "interned_data", []):
            names[field(entry[1], "iid")] = field(entry[1], "name")
        td = field(pk, "track_descriptor")
        if td:
            tracks[field(td, "uuid")] = td
        ev = field(pk, "track_event")
        if ev:
            track, ts = field(ev, "track_uuid"), field(pk, "timestamp")
            if field(ev, "type") == "TYPE_SLICE_BEGIN":
                expect(track in tracks, True, "track described before its first slice")
                stacks.setdefault(track, []).append((names[field(ev, "name_iid")], ts))
            else:
                name, begin = stacks[track].pop()
                slices.append((track, name, begin, ts))
    expect(all(not s for s in stacks.values()), True, "every slice ends")
    return tracks, sorted(slices, key=lambda s: (s[0], s[2], -s[3]))


def check_perfetto():
    tracks, slices = perfetto_slices(decode_perfetto("nested.h5"))
    expect(slices, [(1, "main", 0, 100 * MS), (1, "init", 1 * MS, 11 * MS),
                    (1, "loop", 20 * MS, 90 * MS), (1, "step", 20 * MS, 50 * MS),
                    (1, "kernel", 22 * MS, 42 * MS), (1, "step", 50 * MS, 90 * MS),
                    (1, "kernel", 52 * MS, 62 * MS), (1, "io", 70 * MS, 85 * MS),
                    (1, "rec", 91 * MS, 99 * MS), (1, "rec", 92 * MS, 97 * MS)], "slices")
    expect(tracks[2], [("uuid", 2), ("process", [("pid", 1), ("process_name", "rank 0")])],
           "process track")
    expect(field(tracks[1], "parent_uuid"), 2, "thread track under its process")
    tracks, slices = perfetto_slices(decode_perfetto("threads.h5"))
    threads = {u: field(t, "thread") for u, t in tracks.items() if field(t, "thread")}
    expect({u: (field(t, "tid"), field(t, "thread_name")) for u, t in threads.items()},
           {1: (1, "main"), 2: (2, 'worker "1"')}, "thread tracks")
    expect([(s[0], s[1]) for s in slices],
           [(1, "run"), (1, "task"), (2, "run"), (2, "task"), (2, "task")], "slices per thread")
    tracks, slices = perfetto_slices(decode_perfetto("mpi.h5"))
    procs = {field(field(t, "process"), "process_name") for t in tracks.values()
             if field(t, "process")}
    expect(procs, {"rank 0", "rank 1"}, "a process per rank")
    expect([(s[1], s[2]) for s in slices if s[1] == "work"], [("work", 0), ("work", 5 * MS)],
           "aligned ranks")


# --- compatibility with the Python package's exports --------------------------

def close(a, b, tol, what):
    if abs(a - b) > tol:
        raise AssertionError(f"{what}: {a!r} vs {b!r}")


def check_python_compat():
    compare = os.path.join(FIXTURES, "compare")
    profile = os.path.join(compare, "shift_a.h5")
    with open(os.path.join(compare, "shift_a.chrome.json")) as f:
        py = json.load(f)
    ours = chrome(profile)
    expect(sorted(ours), sorted(py), "chrome-trace top-level keys")
    expect(ours["displayTimeUnit"], py["displayTimeUnit"], "displayTimeUnit")
    expect(set(py["metadata"]) <= set(ours["metadata"]), True, "metadata keys")
    expect(ours["metadata"]["name"], py["metadata"]["name"], "metadata name")
    key = lambda e: (e["name"], e["args"]["call_index"])
    py_x, our_x = sorted(calls(py), key=key), sorted(calls(ours), key=key)
    expect(len(our_x), len(py_x), "number of X events")
    for a, b in zip(our_x, py_x):
        expect(sorted(a), sorted(b), "event fields")
        expect(sorted(a["args"]), sorted(b["args"]), "args fields")
        for k in ("name", "cat", "ph", "pid", "tid"):
            expect(a[k], b[k], k)
        for k in ("rank", "call_index", "call_id", "parent_id", "source_file", "source_line"):
            expect(a["args"][k], b["args"][k], "args." + k)
        close(a["ts"], b["ts"], 1e-3, "ts (us)")
        close(a["dur"], b["dur"], 1e-3, "dur (us)")
        close(a["args"]["duration_s"], b["args"]["duration_s"], 1e-12, "duration_s")
    meta = lambda d: sorted(json.dumps(e, sort_keys=True) for e in d["traceEvents"]
                            if e["ph"] == "M")
    expect(meta(ours), meta(py), "metadata events")

    with open(os.path.join(compare, "shift_a.speedscope.json")) as f:
        py = json.load(f)
    ours = json.loads(export_bytes("speedscope", profile))
    expect(sorted(ours), sorted(py), "speedscope top-level keys")
    for k in ("$schema", "name", "activeProfileIndex", "shared"):
        expect(ours[k], py[k], k)
    expect(len(ours["profiles"]), len(py["profiles"]), "profiles")
    for a, b in zip(ours["profiles"], py["profiles"]):
        expect(sorted(a), sorted(b), "profile fields")
        for k in ("type", "name", "unit"):
            expect(a[k], b[k], k)
        close(a["startValue"], b["startValue"], 1e-9, "startValue")
        close(a["endValue"], b["endValue"], 1e-9, "endValue")
        expect([(e["type"], e["frame"]) for e in a["events"]],
               [(e["type"], e["frame"]) for e in b["events"]], "O/C events")
        for x, y in zip(a["events"], b["events"]):
            close(x["at"], y["at"], 1e-9, "at")

    # --ranks 0 --raw-clock: the Python package's export (docs/cli.md "Clocks"),
    # byte for byte once our exporter name (and chrome-trace's run_metadata)
    # is taken out and the JSON is written with the Python package's separators.
    raw = export_bytes("speedscope", profile, "--ranks", "0", "--raw-clock")
    ours = json.loads(raw)
    expect(ours["exporter"].startswith("scope-profiler-c@"), True, "our exporter name")
    ours["exporter"] = py["exporter"]
    expect(ours, py, "speedscope --ranks 0 --raw-clock equals the Python package's export")
    with open(os.path.join(compare, "shift_a.speedscope.json"), "rb") as f:
        py_bytes = f.read()
    expect(json.dumps(ours).encode(), py_bytes.rstrip(b"\n"),
           "speedscope --ranks 0 --raw-clock, as json.dump writes it, equals the Python bytes")
    with open(os.path.join(compare, "shift_a.chrome.json"), "rb") as f:
        py_bytes = f.read()
    py = json.loads(py_bytes)
    ours = chrome(profile, "--ranks", "0", "--raw-clock")
    ours["metadata"].pop("run_metadata")
    ours["metadata"]["exporter"] = py["metadata"]["exporter"]
    # the same events in the same order (region by region), every float bit for bit
    expect([(e["ph"], e["name"], e.get("args", {}).get("call_index")) for e in ours["traceEvents"]],
           [(e["ph"], e["name"], e.get("args", {}).get("call_index")) for e in py["traceEvents"]],
           "chrome-trace --ranks 0 --raw-clock event order")
    expect(ours, py, "chrome-trace --ranks 0 --raw-clock equals the Python package's export")
    expect(json.dumps(ours, separators=(",", ":")).encode(), py_bytes.rstrip(b"\n"),
           "chrome-trace --ranks 0 --raw-clock, with compact separators, equals the Python bytes")


# --- hostile names survive every format ------------------------------------------

HOSTILE = ["say \"hi\"", "back\\slash", "line\nbreak", "</script><b>x</b>", "a;b", "100% sure",
           "ünï/cödé 名前 🚀", "tab\there"]


def unfold(frame):
    return re.sub(rb"%([0-9A-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  frame.encode()).decode("utf-8")


def check_names():
    raw = export_bytes("chrome-trace", "names.h5")
    expect(b"</script" in raw, False, "no literal </script in chrome-trace")
    doc = json.loads(raw)
    expect(sorted(e["name"] for e in calls(doc)), sorted(HOSTILE), "chrome-trace names")
    expect(doc["metadata"]["name"], 'names "<\\/script>" ;', "label")
    raw = export_bytes("speedscope", "names.h5")
    expect(b"</script" in raw, False, "no literal </script in speedscope")
    doc = json.loads(raw)
    expect([f["name"] for f in doc["shared"]["frames"]], HOSTILE, "speedscope frames")
    expect(doc["name"], 'names "<\\/script>" ;', "speedscope name")
    _, slices = perfetto_slices(decode_perfetto("names.h5"))
    expect(sorted(s[1] for s in slices), sorted(HOSTILE), "perfetto names")
    text = export_bytes("folded", "names.h5").decode("utf-8")
    lines = text.split("\n")
    expect(lines[-1], "", "folded ends with a newline")
    paths = []
    for line in lines[:-1]:
        stack, _, count = line.rpartition(" ")
        expect(count.isdigit(), True, "folded count")
        paths.append([unfold(f) for f in stack.split(";")])
    expect(paths, [[HOSTILE[0]], [HOSTILE[0], HOSTILE[1]], [HOSTILE[0], HOSTILE[1], HOSTILE[2]],
                   [HOSTILE[0], HOSTILE[1], HOSTILE[2], HOSTILE[3]], [HOSTILE[0], HOSTILE[4]],
                   [HOSTILE[0], HOSTILE[4], HOSTILE[5]], [HOSTILE[0], HOSTILE[6]],
                   [HOSTILE[0], HOSTILE[7]]], "folded paths decode to the names")
    expect("a%3Bb" in text and "100%25 sure" in text and "line%0Abreak" in text, True,
           "folded escapes")


# --- output streams, compression, atomic files, errors --------------------------------

def check_streams():
    path = os.path.join(OUT, "plain.json")
    run("chrome-trace", "nested.h5", "-o", path)
    with open(path, "rb") as f:
        plain = f.read()
    expect(run("chrome-trace", "nested.h5", "-o", "-").stdout, plain, "-o - writes stdout")
    gz = os.path.join(OUT, "trace.json.gz")
    run("chrome-trace", "nested.h5", "-o", gz)
    with gzip.open(gz, "rb") as f:
        expect(f.read(), plain, ".gz holds the same bytes")
    for fmt in ("perfetto", "speedscope", "folded"):
        a = export_bytes(fmt, "big.h5", "--max-events", "500")
        b = run(fmt, "big.h5", "--max-events", "500", "-o", "-").stdout
        expect(a, b, fmt + " to a file and to stdout")
    # A failed export leaves no file and keeps an older one.
    with open(path, "w") as f:
        f.write("old")
    p = run("chrome-trace", "nested.h5", "-o", path, "--include", "(", rc=2)
    with open(path) as f:
        expect(f.read(), "old", "older output kept")
    expect(sorted(os.listdir(OUT)).count("plain.json"), 1, "no temporary file left")
    expect([n for n in os.listdir(OUT) if n.startswith(".")], [], "no temporary file left")
    # A device is written in place (never renamed over).
    run("folded", "nested.h5", "-o", "/dev/null")
    expect(os.path.exists("/dev/null") and not os.path.isfile("/dev/null"), True, "/dev/null")


def one_error_line(p, *needles):
    err = p.stderr.decode()
    expect(err.count("\n"), 1, "one error line: " + err)
    expect(err.startswith("scope-profiler: "), True, "error prefix: " + err)
    for n in needles:
        expect(n in err, True, f"error mentions {n!r}: {err}")
    expect(p.stdout, b"", "nothing on stdout")


def check_errors():
    o = os.path.join(OUT, "x")
    one_error_line(run("svg", "nested.h5", "-o", o, rc=2), "unknown FORMAT", "perfetto")
    one_error_line(run("chrome-trace", "nested.h5", rc=2), "-o OUT")
    one_error_line(run("chrome-trace", rc=2), "FILE")
    one_error_line(run("chrome-trace", "nested.h5", "-o", o, "--per-rank", rc=2), "folded")
    one_error_line(run("folded", "nested.h5", "-o", o, "--window", "5", rc=2), "START:END")
    one_error_line(run("folded", "nested.h5", "-o", o, "--window", "5:1", rc=2), "START <= END")
    one_error_line(run("folded", "nested.h5", "-o", o, "--min-duration", "fast", rc=2), "2ms")
    one_error_line(run("folded", "nested.h5", "-o", o, "--max-events", "0", rc=2), "positive")
    one_error_line(run("folded", "nested.h5", "-o", o, "--max-size", "lots", rc=2), "300MB")
    one_error_line(run("folded", "nested.h5", "-o", o, "--threads", "1-", rc=2), "--threads")
    one_error_line(run("folded", "nested.h5", "-o", o, "--include", "(", rc=2), "(")
    one_error_line(run("folded", "missing.h5", "-o", o, rc=2), "missing.h5")
    one_error_line(run("folded", "nested.h5", "-o", "/nonexistent/dir/x", rc=2), "/nonexistent")
    expect(os.path.exists(o), False, "no output after errors")


# --- size estimates and --max-size ---------------------------------------------------

def check_size():
    for fmt in ("chrome-trace", "speedscope", "perfetto"):
        for opts in ((), ("--max-events", "1000")):
            p = run(fmt, "big.h5", "--dry-run", *opts)
            m = re.match(rb"^[a-z-]+: about .* \((\d+) bytes\), (\d+) calls\n$", p.stdout)
            expect(bool(m), True, "dry-run line: " + p.stdout.decode())
            estimate, ncalls = int(m.group(1)), int(m.group(2))
            expect(ncalls, 1000 if opts else 200000, "selected calls")
            actual = len(export_bytes(fmt, "big.h5", "--max-size", "0", *opts))
            ratio = estimate / actual
            print(f"{fmt} {' '.join(opts)}: estimate {estimate}, actual {actual}, ratio {ratio:.3f}")
            if not 0.8 <= ratio <= 1.25:
                raise AssertionError(f"{fmt} {opts}: estimate {estimate}, actual {actual}")
    # folded: the paths are built for the estimate, so it is the size (4,000 deep: 787 B
    # estimated for 16 MB written before the depth cap)
    for name, opts in (("nested.h5", ()), ("big.h5", ()), ("deep.h5", ()),
                       ("deep.h5", ("--max-depth", "1000")), ("mpi.h5", ("--per-rank",))):
        p = run("folded", name, "--dry-run", *opts)
        m = re.match(rb"^[a-z-]+: about .* \((\d+) bytes\), (\d+) calls\n$", p.stdout)
        expect(bool(m), True, "folded dry-run line: " + p.stdout.decode())
        actual = len(export_bytes("folded", name, *opts))
        print(f"folded {name} {' '.join(opts)}: estimate {m.group(1).decode()}, actual {actual}")
        expect(int(m.group(1)), actual, f"folded {name} {opts}: the estimate is the size")
    p = run("chrome-trace", "big.h5", "-o", os.path.join(OUT, "big.json"), "--max-size", "5MB",
            rc=2)
    one_error_line(p, "would be about", "200000 calls", "--max-size 5 MB", "--max-events",
                   "--window", "perfetto")
    expect(os.path.exists(os.path.join(OUT, "big.json")), False, "nothing written when refused")
    p = run("chrome-trace", "big.h5", "-o", os.path.join(OUT, "big.json"))
    err = p.stderr.decode()
    expect(bool(re.match(r"^scope-profiler: export: writing about \d+ MB \(200000 calls\) to ",
                         err)), True, "estimate announced above 10 MB: " + err)
    # the written size from 1 MB on, and the warning above 10 MB (cli_print_written)
    size = os.path.getsize(os.path.join(OUT, "big.json"))
    expect(p.stdout.decode(), "chrome-trace export written to %s (%.2f MB)\n"
           % (os.path.join(OUT, "big.json"), size / 1e6), "the size printed with the file")
    warning = "scope-profiler: warning: %s is %.1f MB (over 10 MB): browsers open it slowly; " \
              "select less with --include, --exclude or --ranks\n" % (
                  os.path.join(OUT, "big.json"), size / 1e6)
    expect(err.endswith(warning), True, "the 10 MB warning: " + err)
    p = run("chrome-trace", "nested.h5", "-o", os.path.join(OUT, "small.json"))
    expect(p.stderr, b"", "nothing announced below 10 MB")
    expect(p.stdout.decode(), "chrome-trace export written to %s\n"
           % os.path.join(OUT, "small.json"), "no size below 1 MB")


CHECKS = {
    "names": check_names,
    "streams": check_streams,
    "errors": check_errors,
    "size": check_size,
    "python_compat": check_python_compat,
    "folded": check_folded,
    "chrome": check_chrome,
    "selection": check_selection,
    "perfetto": check_perfetto,
}

if __name__ == "__main__":
    CHECKS[CHECK]()
    print(f"ok: {CHECK}")
