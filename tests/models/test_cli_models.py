"""User metadata, region tags, grouping, Extra-P export and scaling models
through the CLI (issue 26). Usage: test_cli_models.py SCOPE_PROFILER MAKE_MODEL_RUNS
(SP_RECORD_META in the environment: the recording program)."""
import json
import os
import subprocess
import sys
import tempfile

import h5py

SP, MAKE = sys.argv[1], sys.argv[2]
RECORD = os.environ["SP_RECORD_META"]
work = tempfile.mkdtemp(prefix="sp_models_")
subprocess.run([MAKE, work], check=True)


def sp(*args, env=None, code=0):
    p = subprocess.run([SP, *args], cwd=work, capture_output=True, text=True,
                       env={**os.environ, **(env or {})})
    assert p.returncode == code, (args, p.returncode, p.stdout, p.stderr)
    return p


SIZES = [f"size_{n}.h5" for n in (2, 4, 8, 16, 32)]

# --- metadata round trip: C API + environment -> file -> h5py (as the Python
# package reads /metadata: its attributes, typed) -> our CLI
env = {"SCOPE_PROFILER_METADATA_compiler_flags": "-O3 -march=native",
       "SCOPE_PROFILER_METADATA_nodes": "4", "SCOPE_PROFILER_METADATA_ratio": "0.5",
       "SCOPE_PROFILER_METADATA_label": "clash", "SCOPE_PROFILER_METADATA_bad key": "1"}
p = subprocess.run([RECORD, os.path.join(work, "rec.h5")], env={**os.environ, **env},
                   capture_output=True, text=True)
assert p.returncode == 0, p
assert ('ignoring SCOPE_PROFILER_METADATA_label: the key is a built-in metadata field'
        in p.stderr), p.stderr
assert "ignoring SCOPE_PROFILER_METADATA_bad key: a key is 1 to 64" in p.stderr, p.stderr
with h5py.File(os.path.join(work, "rec.h5")) as f:
    attrs = dict(f["metadata"].attrs)
    tags = [t.decode() if isinstance(t, bytes) else t for t in f["rank_region_index/tags"][()]]
    names = [n.decode() for n in f["region_table/names"][()]]
assert attrs["problem_size"] == 128 and attrs["problem_size"].dtype.kind == "i"
assert attrs["dt"] == 0.25 and attrs["dt"].dtype.kind == "f"
assert attrs["ratio"] == 0.5 and attrs["nodes"] == 4 and attrs["nodes"].dtype.kind == "i"
text = lambda v: v.decode() if isinstance(v, bytes) else v
assert text(attrs["mesh"]) == "box-3d" and text(attrs["replaced"]) == "two"
assert text(attrs["compiler_flags"]) == "-O3 -march=native"
assert attrs["mpi_size"] == 1 and "label" not in attrs
assert json.loads(tags[names.index("solve")]) == ["solver", "linear"]
assert json.loads(tags[names.index("io")]) == []
meta = json.loads(sp("metadata", "rec.h5", "-o", "-").stdout)["files"][0]["metadata"]
assert meta["problem_size"] == 128 and meta["dt"] == 0.25 and meta["mesh"] == "box-3d"
insp = sp("inspect", "rec.h5").stdout
assert "problem_size           : 128" in insp and "mesh                   : box-3d" in insp
stats = json.loads(sp("stats", "rec.h5", "--tag", "linear", "-o", "-").stdout)
assert list(stats["files"][0]["region_statistics"]) == ["solve"]

# --- run --meta: bad keys refused before the program starts
p = sp("run", "--meta", "mpi_size=2", "--", "true", code=2)
assert 'run: --meta "mpi_size=2": the key is a built-in metadata field' in p.stderr
p = sp("run", "--meta", "novalue", "--", "true", code=2)
assert 'run: --meta "novalue": expected KEY=VALUE' in p.stderr

# --- scaling --x KEY and --model on noise-free runs: t = 1 ms + 10 us * n log2 n
out = json.loads(sp("scaling", *SIZES, "--x", "problem_size", "--model", "--predict", "1024",
                    "--format", "json").stdout)
solve = next(r for r in out["regions"] if r["name"] == "solve")
io = next(r for r in out["regions"] if r["name"] == "io")
assert (solve["poly_exponent"], solve["log_exponent"]) == ("1", 1), solve
assert abs(solve["c0"] - 1e-3) < 1e-12 and abs(solve["c1"] - 1e-5) < 1e-15, solve
assert abs(solve["prediction"]["seconds"] - (1e-3 + 1e-5 * 1024 * 10)) < 1e-12
assert solve["model"] == "0.001 + 1e-05 * p * log2(p)" and solve["cv_smape_percent"] < 1e-9
assert io["constant_model"] and io["model"] == "0.002"
assert out["selection"] == "leave-one-out cross-validated SMAPE" and out["min_sizes"] == 5
table = sp("scaling", *SIZES, "--x", "problem_size", "--model").stdout
assert "0.001 + 1e-05 * p * log2(p)" in table and "t(p=" not in table
csv = sp("scaling", *SIZES, "--x", "problem_size", "--model", "--predict", "64",
         "--format", "csv").stdout.splitlines()
assert csv[0] == ("region,model,c0,c1,poly_exponent,log_exponent,cv_smape_percent,"
                  "smape_percent,adjusted_r2,predicted_x,predicted_seconds")
assert csv[1].startswith("solve,0.001 + 1e-05 * p * log2(p),") and ",1,1," in csv[1]
assert csv[1].split(",")[-2] == "64.0" and abs(float(csv[1].split(",")[-1]) - 0.00484) < 1e-12
p = sp("scaling", *SIZES[:3], "--x", "problem_size", "--model", code=2)
assert ("a model needs runs at 5 or more different problem_size values, these runs have 3; "
        "add runs at 2 more") in p.stderr
p = sp("scaling", *SIZES, "--x", "problem_size", "--predict", "8", code=2)
assert "--predict evaluates the fitted models: add --model" in p.stderr
p = sp("scaling", *SIZES, "--x", "problem_size", "--model", "--predict", "-1", code=2)
assert '--predict "-1" is not a positive number' in p.stderr
p = sp("scaling", *SIZES, "--x", "mesh", code=2)
assert "metadata field 'mesh' is not a number, so it cannot be a scaling axis" in p.stderr

# --- stats --group-by: groups, runs without the key listed and skipped
p = sp("stats", *SIZES, "nomesh.h5", "--group-by", "mesh", "--format", "json")
assert "skipped 1 of 6 runs without the key: nomesh.h5 (no mesh)" in p.stderr, p.stderr
g = json.loads(p.stdout)
assert g["group_by"] == ["mesh"] and g["skipped"] == [{"file": "nomesh.h5", "missing": "mesh"}]
assert [x["values"] for x in g["groups"]] == [{"mesh": "box"}, {"mesh": "ring"}]
box = {r["name"]: r for r in g["groups"][0]["regions"]}
want = [1e-3 + 1e-5 * n * __import__("math").log2(n) for n in (2, 4, 8)]
assert box["solve"]["runs"] == 3 and abs(box["solve"]["mean"] - sum(want) / 3) < 1e-12
assert abs(box["solve"]["min"] - want[0]) < 1e-12 and abs(box["solve"]["max"] - want[2]) < 1e-12
assert g["groups"][0]["files"] == SIZES[:3]
csv = sp("stats", *SIZES, "--group-by", "mesh,dt", "--tag", "solver",
         "--format", "csv").stdout.splitlines()
assert csv[0] == "mesh,dt,region,runs,mean,min,max" and len(csv) == 3, csv
assert csv[1].startswith("box,0.5,solve,3,") and csv[2].startswith("ring,0.5,solve,2,")
txt = sp("stats", *SIZES, "--group-by", "problem_size").stdout
assert "group problem_size=2: 1 run" in txt and "group problem_size=32: 1 run" in txt
assert txt.index("problem_size=4:") < txt.index("problem_size=16:")  # numeric order
p = sp("stats", "nomesh.h5", "--group-by", "mesh", code=2)
assert "--group-by: no run has every key asked for" in p.stderr
p = sp("stats", "nomesh.h5", "--format", "csv", code=2)
assert "--format is for --group-by" in p.stderr
p = sp("stats", "size_2.h5", "--tag", "nope", "-o", "-", code=2)
assert 'size_2.h5: --tag nope: no region carries it (the file\'s tags: ["solver", "linear"])' \
    in p.stderr, p.stderr

# --- export extrap: Extra-P's JSON Lines input
sp("export", "extrap", *SIZES, "--param", "mpi_size,problem_size", "-o", "m.jsonl")
lines = [json.loads(l) for l in open(os.path.join(work, "m.jsonl"))]
assert len(lines) == 10 and {tuple(l) for l in lines} == {("params", "callpath", "metric", "value")}
first = lines[0]
assert first == {"params": {"mpi_size": 1, "problem_size": 2}, "callpath": "solve",
                 "metric": "time", "value": 0.00102}, first
assert {l["callpath"] for l in lines} == {"solve", "io"}
p = sp("export", "extrap", "size_2.h5", "--param", "mesh", "-o", "x.jsonl", code=2)
assert "metadata key 'mesh' is not a number, so it cannot be a model parameter" in p.stderr
p = sp("export", "extrap", "nomesh.h5", "--param", "mesh", "-o", "x.jsonl", code=2)
assert "nomesh.h5 has no metadata key 'mesh'" in p.stderr
assert not os.path.exists(os.path.join(work, "x.jsonl"))
p = sp("export", "extrap", "size_2.h5", "-o", "x.jsonl", code=2)
assert "needs --param" in p.stderr

# --- diff/check titles with metadata
d = sp("diff", "size_2.h5", "size_4.h5", "--title-meta", "problem_size,mesh,absent").stdout
assert "a: size_2.h5 (1 rank) [problem_size=2, mesh=box, absent=?]" in d, d
assert "b: size_4.h5 (1 rank) [problem_size=4, mesh=box, absent=?]" in d, d
print("ok")
