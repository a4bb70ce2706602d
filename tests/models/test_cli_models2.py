"""scaling --model with two parameters (--x procs,problem_size) through the CLI,
on a noise-free 5 x 5 grid of written profiles (make_model_runs DIR grid):
solve = 1 ms + 1 us * p * n, exchange = 0.5 ms + 2 us * p + 3 us * log2(n).
Usage: test_cli_models2.py SCOPE_PROFILER MAKE_MODEL_RUNS"""
import json
import math
import os
import subprocess
import sys
import tempfile

SP, MAKE = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="sp_models2_")
subprocess.run([MAKE, work, "grid"], check=True)
PS, NS = (2, 4, 8, 16, 32), (16, 32, 64, 128, 256)
GRID = [f"grid_{p}_{n}.h5" for p in PS for n in NS]


def sp(*args, code=0):
    p = subprocess.run([SP, *args], cwd=work, capture_output=True, text=True)
    assert p.returncode == code, (args, p.returncode, p.stdout, p.stderr)
    return p


X = ("--x", "procs,problem_size", "--model")

# JSON: the forms and terms recovered exactly, the prediction the generating function's
out = json.loads(sp("scaling", *GRID, *X, "--predict", "p=1024,n=4096", "--format",
                    "json").stdout)
assert out["parameters"] == ["procs", "problem_size"], out
regions = {r["name"]: r for r in out["regions"]}
solve, exchange = regions["solve"], regions["exchange"]
assert solve["form"] == "product" and solve["model"] == "0.001 + 1e-06 * p * n", solve
assert solve["p_term"] == {"poly_exponent": "1", "poly_exponent_value": 1.0, "log_exponent": 0}
assert solve["n_term"] == {"poly_exponent": "1", "poly_exponent_value": 1.0, "log_exponent": 0}
assert abs(solve["coefficients"][0] - 1e-3) < 1e-12 and abs(solve["coefficients"][1] - 1e-6) < 1e-15
assert solve["cells"] == 25 and solve["measurements"] == 25 and solve["cv_smape_percent"] < 1e-6
assert abs(solve["prediction"]["seconds"] - (1e-3 + 1e-6 * 1024 * 4096)) < 1e-9
assert (solve["prediction"]["p"], solve["prediction"]["n"]) == (1024.0, 4096.0)
assert exchange["form"] == "sum", exchange
assert exchange["model"] == "0.0005 + 2e-06 * p + 3e-06 * log2(n)", exchange
assert exchange["n_term"] == {"poly_exponent": "0", "poly_exponent_value": 0.0, "log_exponent": 1}
want = 0.5e-3 + 2e-6 * 1024 + 3e-6 * 12
assert abs(exchange["prediction"]["seconds"] - want) < 1e-12, exchange

# the same names work in --predict, in either order
out2 = json.loads(sp("scaling", *GRID, *X, "--predict", "problem_size=4096,procs=1024",
                     "--format", "json").stdout)
assert out2["regions"][0]["prediction"] == solve["prediction"]

# the table and CSV
table = sp("scaling", *GRID, *X, "--predict", "p=64,n=64").stdout.splitlines()
assert table[0] == ("Models over procs and problem_size (p = procs, 5 values; n = problem_size, "
                    "5 values; 25 runs)"), table[0]
assert any("0.001 + 1e-06 * p * n" in line and "0.005096" in line for line in table), table
assert any("t(p=64, n=64) [s]" in line for line in table), table
csv = sp("scaling", *GRID, *X, "--format", "csv").stdout.splitlines()
assert csv[0] == ("region,model,form,c0,c1,c2,p_poly_exponent,p_log_exponent,n_poly_exponent,"
                  "n_log_exponent,cv_smape_percent,smape_percent"), csv[0]
row = csv[1].split(",")
assert row[:3] == ["solve", "0.001 + 1e-06 * p * n", "product"] and row[6:10] == ["1", "0", "1", "0"], row
assert abs(float(row[3]) - 1e-3) < 1e-15 and abs(float(row[4]) - 1e-6) < 1e-18 and row[5] == "0.0", row
assert csv[2].startswith("exchange,0.0005 + 2e-06 * p + 3e-06 * log2(n),sum,"), csv[2]

# a grid too small: one line saying what to add
without_p32 = [f for f in GRID if not f.startswith("grid_32_")]
p = sp("scaling", *without_p32, *X, code=2)
assert p.stderr.count("\n") == 1, p.stderr
assert ("these runs have 4 procs values (at problem_size = 16) and 5 problem_size values "
        "(at procs = 2), 12 off both: add 1 more runs (1 at other procs values with "
        "problem_size = 16; a full 5x5 grid is best)") in p.stderr, p.stderr
cross = [f"grid_{q}_16.h5" for q in PS] + [f"grid_2_{n}.h5" for n in NS[1:]]
p = sp("scaling", *cross, *X, code=2)
assert "0 off both: add 1 more runs (1 with procs != 2 and problem_size != 16;" in p.stderr, p.stderr

# bad input: one line each, exit 2
p = sp("scaling", *GRID, "--x", "procs,problem_size", code=2)
assert "--x procs,problem_size gives two parameters: that needs --model" in p.stderr, p.stderr
p = sp("scaling", *GRID, "--x", "procs,", "--model", code=2)
assert "two parameters are two names with one comma" in p.stderr, p.stderr
p = sp("scaling", *GRID, *X, "--predict", "p=1024", code=2)
assert "give both parameters as positive numbers, p=P,n=N or procs=P,problem_size=N" in p.stderr
p = sp("scaling", *GRID, *X, "--predict", "p=1024,q=3", code=2)
assert "--predict p=1024,q=3" in p.stderr, p.stderr
p = sp("scaling", *GRID, "--x", "procs", "--model", "--predict", "p=4,n=5", code=2)
assert "names parameters: a one-parameter model takes a size" in p.stderr, p.stderr
p = sp("scaling", *GRID, "--x", "procs,mesh", "--model", code=2)
assert "has no metadata field 'mesh'" in p.stderr, p.stderr
print("models_cli2: ok")
