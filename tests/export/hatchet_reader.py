#!/usr/bin/python3
"""Reads a json-split file the way Hatchet's CaliperReader.read() does
(hatchet/readers/caliper_reader.py, the path-hierarchy case), without Hatchet:

- top-level "data", "columns", "column_metadata", "nodes"; every other key is
  run metadata;
- the hierarchy column is "path" (node type "region"); rows whose path is
  null are dropped; "path" becomes "nid", "mpi.rank" becomes "rank";
- metric columns: is_value true, except the rank column;
- a node whose entry has no "parent" is a root, else the child of nodes[parent]
  (which must come earlier: Hatchet looks it up while it walks the list);
  its order (hnid) is data[idx][0] when a "Node order" column exists;
- the metrics are a DataFrame of the data rows; a node without a row for a
  rank gets zeros for that rank; "Node order" is dropped; the frame is joined
  with the nodes on nid and indexed by (node, rank);
- a metric whose name holds "(inc)" is inclusive, the others exclusive.

    hatchet_reader.py FILE.json   prints {"metadata", "exc_metrics",
                                  "inc_metrics", "rows": [[path, rank, {metric: value}]]}
"""
import json
import sys

import pandas as pd


def read(path):
    with open(path) as f:
        doc = json.load(f)
    data = doc["data"]
    cols = list(doc["columns"])
    mdata = doc["column_metadata"]
    nodes = doc["nodes"]
    metadata = {k: v for k, v in doc.items()
                if k not in ("data", "columns", "column_metadata", "nodes")}
    if len(mdata) != len(cols):
        raise ValueError("column_metadata and columns differ in length")
    if "path" not in cols:
        raise ValueError("No hierarchy column in input file")
    path_col = cols.index("path")
    data = [row for row in data if row[path_col] is not None]
    for row in data:
        if len(row) != len(cols):
            raise ValueError(f"a data row has {len(row)} values for {len(cols)} columns")
    cols = ["nid" if c == "path" else "rank" if c == "mpi.rank" else c for c in cols]
    metric_columns = [c for c, m in zip(cols, mdata) if c != "rank" and m["is_value"] is True]

    # create_graph(): parents before children, order from data[idx][0]
    paths, order = {}, {}
    ordering = "Node order" in cols
    for idx, node in enumerate(nodes):
        if node["column"] != "path":
            continue
        label = node["label"] or f"UNKNOWN {idx}"
        if "parent" in node:
            if node["parent"] not in paths:
                raise ValueError(f"node {idx}: parent {node['parent']} not listed before it")
            paths[idx] = paths[node["parent"]] + (label,)
        else:
            paths[idx] = (label,)
        if ordering:
            order[idx] = data[idx][0]  # IndexError in Hatchet too when rows are missing
            if order[idx] != idx:
                raise ValueError(f"node {idx}: data[{idx}][0] is {order[idx]}, not its order")

    frame = pd.DataFrame(data, columns=cols)
    for c, m in zip(cols, mdata):
        if m["is_value"] is False and c != "nid":
            raise ValueError(f"unexpected non-value column {c}")
    if frame["nid"].max() >= len(nodes) if len(frame) else False:
        raise ValueError("a row names a node that is not in nodes")

    # missing (node, rank) rows are filled with zeros
    missing = []
    if "rank" in cols:
        ranks = range(0, int(frame["rank"].max()) + 1) if len(frame) else range(0)
        for nid in paths:
            present = set(frame.loc[frame["nid"] == nid, "rank"].values)
            for r in ranks:
                if r not in present:
                    missing.append({**{c: 0 for c in metric_columns}, "nid": nid, "rank": r})
    elif len(frame):
        for nid in paths:
            if not (frame["nid"] == nid).any():
                missing.append({**{c: 0 for c in metric_columns}, "nid": nid})
    frame = pd.concat([frame, pd.DataFrame(missing)], ignore_index=True) if missing else frame
    if ordering:
        frame = frame.drop(columns="Node order")
        metric_columns.remove("Node order")
    node_frame = pd.DataFrame({"nid": list(paths), "path": [paths[i] for i in paths]})
    frame = pd.merge(frame, node_frame, on="nid")
    index = ["path"] + (["rank"] if "rank" in cols else [])
    if frame.duplicated(subset=["nid"] + index[1:]).any():
        raise ValueError("two rows for one node and rank")
    frame = frame.set_index(index).sort_index()
    inc = [c for c in metric_columns if "(inc)" in c]
    exc = [c for c in metric_columns if "(inc)" not in c]
    return frame, metadata, exc, inc


def main():
    frame, metadata, exc, inc = read(sys.argv[1])
    rows = []
    for key, row in frame.iterrows():
        path, rank = (key[0], int(key[1])) if isinstance(key, tuple) and len(key) == 2 and \
            isinstance(key[0], tuple) else (key, None)
        rows.append([list(path), rank, {c: float(row[c]) for c in exc + inc}])
    json.dump({"metadata": metadata, "exc_metrics": exc, "inc_metrics": inc, "rows": rows},
              sys.stdout)


if __name__ == "__main__":
    main()
