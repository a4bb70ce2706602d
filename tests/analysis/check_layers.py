#!/usr/bin/env python3
"""The analysis room layers bottom-up (src/analysis/README.md, "Layers"):
model -> call tree -> exclusive time -> pooled statistics and histograms ->
rank region -> MPI region -> results. Fails on a cycle among the files of
src/analysis, in their #include lines (a file and its header are one
module) or in the functions their objects define and call (nm), and on a
file that reaches one above it in that order; and when src/model,
src/format, src/record or src/common include an analysis header.

  check_layers.py SOURCE_DIR [OBJECT.o...]
"""
import os
import re
import subprocess
import sys

ORDER = [["call_tree"], ["exclusive"], ["pool", "histograms"], ["rank_region"],
         ["mpi_region"], ["results", "results_build"]]
BELOW_ANALYSIS = ["model", "format", "record", "common"]


def stem(path):
    name = os.path.basename(path)
    for suffix in (".c.o", ".c", ".h"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def include_graph(src):
    graph = {}
    adir = os.path.join(src, "analysis")
    for name in sorted(os.listdir(adir)):
        if not name.endswith((".c", ".h")):
            continue
        text = open(os.path.join(adir, name), encoding="utf-8").read()
        mod = stem(name)
        deps = graph.setdefault(mod, set())
        for dep in re.findall(r'#include "analysis/([a-z_0-9]+)\.h"', text):
            if dep != mod:
                deps.add(dep)
    return graph


def symbol_graph(objects):
    defined, used = {}, {}
    for obj in objects:
        mod = stem(obj)
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defined[parts[2]] = mod
            elif len(parts) == 2 and parts[0] == "U":
                used.setdefault(mod, set()).add(parts[1])
    graph = {stem(o): set() for o in objects}
    for mod, names in used.items():
        for name in names:
            dep = defined.get(name)
            if dep and dep != mod:
                graph[mod].add(dep)
    return graph


def find_cycle(graph):
    state, path = {}, []

    def visit(node):
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def reaches(graph, start):
    seen, todo = set(), [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def check(graph, what):
    cycle = find_cycle(graph)
    if cycle:
        return ["%s: cycle %s" % (what, " -> ".join(cycle))]
    problems = []
    for low in range(len(ORDER)):
        for mod in ORDER[low]:
            above = {m for level in ORDER[low + 1:] for m in level}
            for dep in sorted(reaches(graph, mod) & above):
                problems.append("%s: %s (layer %d) reaches %s, a layer above it" %
                                (what, mod, low + 1, dep))
    return problems


def main():
    src = sys.argv[1]
    objects = [o for o in sys.argv[2:] if "/src/analysis/" in o and o.endswith(".o")]
    problems = check(include_graph(src), "#include lines")
    if objects:
        problems += check(symbol_graph(objects), "functions (nm)")
    for area in BELOW_ANALYSIS:
        for root, _, files in os.walk(os.path.join(src, area)):
            for name in files:
                path = os.path.join(root, name)
                if name.endswith((".c", ".h")) and \
                        '#include "analysis/' in open(path, encoding="utf-8").read():
                    problems.append("%s includes an analysis header (a layer above it)" %
                                    os.path.relpath(path, src))
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("src/analysis layers bottom-up: no include cycle, no call cycle (%d objects)" %
          len(objects))
    return 0


if __name__ == "__main__":
    sys.exit(main())
