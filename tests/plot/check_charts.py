"""Structure of the charts and the report, without a browser.

Runs `scope-profiler plot` and `report` on the profiles of make_plot_profiles
and the reference fixtures, then checks: every SVG parses as XML, holds no
script, event handler, foreign object or link; hostile names appear as text
(never as elements); lane labels and bar order are as the data says; a chart
of many sub-pixel calls stays within its element bound; the report holds
exactly its two scripts and no element made from a name.

Usage: check_charts.py SCOPE_PROFILER WORKDIR FIXTURES_DIR
"""
import html.parser
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = [
    "<script>alert(1)</script>",
    '" onmouseover="x',
    "solve",
    "a_region_with_a_very_long_name_that_no_chart_has_room_for_"
    "assemble_the_global_stiffness_matrix_and_apply_the_boundary_conditions_"
    "then_solve_it_0123456789",
    "ünï/cöde & <b>",
]
KINDS = ["gantt", "flame-chart", "flame-graph", "durations", "imbalance", "histogram"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(tool, *args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def safe_svg(path):
    """Parses path; checks the document is inert. Returns the root."""
    root = ET.parse(path).getroot()
    check(root.tag == SVG + "svg", f"{path}: root is {root.tag}")
    for el in root.iter():
        tag = el.tag.replace(SVG, "")
        check(tag not in ("script", "foreignObject", "a", "image", "use"), f"{path}: <{tag}>")
        for name, value in el.attrib.items():
            check(not name.lower().startswith("on"), f"{path}: attribute {name}")
            check("href" not in name, f"{path}: attribute {name}")
            check("url(" not in value, f"{path}: url() in {name}")
    return root


def texts(root):
    out = []
    for el in root.iter():
        if el.tag in (SVG + "text", SVG + "title"):
            out.append("".join(t for t in el.itertext() if el.tag == SVG + "title" or True))
    return out


def direct_text(el):
    """The text of a <text> element without its <title> child."""
    s = el.text or ""
    for child in el:
        s += child.tail or ""
    return s


def main():
    tool, work, fixtures = sys.argv[1], sys.argv[2], sys.argv[3]
    out = os.path.join(work, "charts")
    profiles = {
        "hostile": os.path.join(work, "hostile.h5"),
        "threads": os.path.join(work, "threads.h5"),
        "big": os.path.join(work, "big.h5"),
        "tutorial": os.path.join(fixtures, "py_tutorial2.h5"),
        "multirank": os.path.join(fixtures, "multirank_schema3.h5"),
    }
    for name, path in profiles.items():
        run(tool, "plot", "all", path, "-o", os.path.join(out, name))
        for kind in KINDS:
            safe_svg(os.path.join(out, name, kind + ".svg"))

    # Hostile names: text in every chart that shows all regions, never markup.
    for kind in ["gantt", "durations", "imbalance", "flame-graph"]:
        root = safe_svg(os.path.join(out, "hostile", kind + ".svg"))
        all_text = "\n".join("".join(el.itertext()) for el in root.iter()
                             if el.tag in (SVG + "text", SVG + "title"))
        for h in HOSTILE:
            check(h in all_text, f"hostile {kind}: {h!r} not shown as text")
        # The long name is shortened with an ellipsis, the full name in the <title>.
        shortened = [el for el in root.iter(SVG + "text") if "…" in direct_text(el)]
        check(any(el.find(SVG + "title") is not None and el.find(SVG + "title").text.startswith(HOSTILE[3])
                  for el in shortened), f"hostile {kind}: long name not shortened with a title")

    # Gantt lanes: one per (region, rank), per thread where a rank has several.
    root = safe_svg(os.path.join(out, "threads", "gantt.svg"))
    labels = [direct_text(el) for el in root.iter(SVG + "text") if el.get("text-anchor") == "end" and el.get("data-r") is not None]
    check(labels == ["work · r0 t1", "work · r0 t2", "io · r0 t2"], f"threads gantt lanes {labels}")
    root = safe_svg(os.path.join(out, "hostile", "gantt.svg"))
    labels = [direct_text(el) for el in root.iter(SVG + "text") if el.get("text-anchor") == "end" and el.get("data-r") is not None]
    check(labels[:2] == ["<script>alert(1)</script> · r0", "<script>alert(1)</script> · r1"],
          f"hostile gantt lanes {labels[:2]}")
    check(len(labels) == 10, f"hostile gantt: {len(labels)} lanes, expected 10")
    bars = [r for r in root.iter(SVG + "rect") if r.get("data-r") is not None]
    check(len(bars) == 16, f"hostile gantt: {len(bars)} bars, expected 16 calls")

    # Durations: bars by total, largest first: outer (80 ms) > solve (24 ms) > long (8 ms) > ...
    root = safe_svg(os.path.join(out, "hostile", "durations.svg"))
    order = [el.get("data-r") for el in root.iter(SVG + "rect") if el.get("data-r") is not None]
    check(order == ["0", "2", "3", "1", "4"], f"durations order {order}")
    values = [direct_text(el) for el in root.iter(SVG + "text") if el.get("text-anchor") is None
              and el.get("data-r") is not None]
    check(values[:2] == ["80.0 ms", "24.0 ms"], f"durations values {values[:2]}")

    # Imbalance: solve's slowest rank is rank 1 (3x rank 0).
    root = safe_svg(os.path.join(out, "hostile", "imbalance.svg"))
    heads = [direct_text(el) for el in root.iter(SVG + "text")]
    check(any(h.startswith("solve · slowest rank 1: 18.0 ms, mean 12.0 ms (+50.0%)") for h in heads),
          "imbalance: solve's slowest rank")

    # Many sub-pixel calls: at most one bar per lane and pixel column.
    path = os.path.join(out, "big", "gantt.svg")
    root = safe_svg(path)
    rects = sum(1 for _ in root.iter(SVG + "rect"))
    check(rects <= 2 * 960 + 2, f"big gantt: {rects} rects for 2 lanes x 960 px")
    check(os.path.getsize(path) < 200_000, f"big gantt: {os.path.getsize(path)} bytes")
    path = os.path.join(out, "big", "flame-chart.svg")
    rects = sum(1 for _ in safe_svg(path).iter(SVG + "rect"))
    check(rects <= 2 * 960 + 2, f"big flame chart: {rects} rects")
    for kind in KINDS:
        size = os.path.getsize(os.path.join(out, "big", kind + ".svg"))
        check(size < 300_000, f"big {kind}: {size} bytes")

    # Speedup: three runs, ideal line, one polyline per series.
    run(tool, "plot", "speedup", *(os.path.join(work, f"scale_np{n}.h5") for n in (4, 1, 2)),
        "-o", os.path.join(out, "scale"))
    root = safe_svg(os.path.join(out, "scale", "speedup.svg"))
    lines = list(root.iter(SVG + "polyline"))
    check(len(lines) == 3, f"speedup: {len(lines)} series (wall, solve, serial)")
    tips = ["".join(t.itertext()) for t in root.iter(SVG + "title")]
    check(any(t.startswith("solve at 4: speedup 4.00x (1 run)") for t in tips), f"speedup tips {tips}")
    check(any(t.startswith("serial at 4: speedup 1.00x") for t in tips), "serial speedup")

    # The report: two scripts (data, code), hostile names only as text.
    report = os.path.join(work, "hostile.html")
    run(tool, "report", profiles["hostile"], "-o", report)
    size = os.path.getsize(report)

    class Walk(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.data, self.handlers, self.links = [], [], [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            for k, v in attrs:
                if k.startswith("on"):
                    self.handlers.append(k)
                if k in ("href", "src"):
                    self.links.append(v)

        def handle_data(self, d):
            self.data.append(d)

    w = Walk()
    with open(report, encoding="utf-8") as f:
        w.feed(f.read())
    text = "".join(w.data)
    check(w.tags.count("script") == 2, f"report: {w.tags.count('script')} scripts")
    for tag in ("img", "b", "i", "link", "iframe"):
        check(tag not in w.tags, f"report: a <{tag}> element")
    check(not w.handlers, f"report: handlers {w.handlers}")
    check(all(l.startswith("#") for l in w.links), f"report: links outside the page {w.links}")
    for h in HOSTILE + ["<img src=x onerror=alert(2)>", '"host"<i>']:
        check(h in text, f"report: {h!r} not shown as text")
    check(size < 300_000, f"report: {size} bytes")

    # Several runs: the comparison stage's rows and verdicts, and the speedup chart.
    multi = os.path.join(work, "scale.html")
    run(tool, "report", *(os.path.join(work, f"scale_np{n}.h5") for n in (1, 2, 4)), "-o", multi)
    with open(multi, encoding="utf-8") as f:
        page = f.read()
    check(page.count('class="sortable changes"') == 2, "scale report: two comparison tables")
    check("Speedup against mpi_size" in page, "scale report: speedup chart")
    check("+300.0%" in page, "scale report: serial's total change on 4 ranks")
    check('<div class="k">np4</div><div class="v faster">2.82x faster</div><div class="s">wall time '
          '33.0 ms against 93.0 ms (baseline)</div>' in page, "scale report: np4 verdict card")
    check(page.index('id="comparison"') < page.index('id="hotspots"'), "scale report: comparison not first")

    # Threads: the report's thread balance and headline, lanes named per thread.
    threads = os.path.join(work, "threads.html")
    run(tool, "report", profiles["threads"], "-o", threads)
    with open(threads, encoding="utf-8") as f:
        page = f.read()
    check('<section id="threads"><h2>Thread balance</h2>' in page, "threads report: no thread balance")
    check('<td data-v="2">2</td><td data-v="0.0045">4.50 ms</td><td data-v="0.003">3.00 ms</td>'
          '<td data-v="0.006">6.00 ms</td><td class="name">r0 t1</td><td class="name">r0 t2</td>'
          '<td data-v="0.0015">1.50 ms</td><td data-v="33.3333">33.3%</td>' in page,
          "threads report: work's thread row")
    check('<div class="k">Worst thread imbalance</div><div class="v">+1.50 ms</div><div class="s">'
          'work: r0 t1 over the mean (+33.3%)</div>' in page, "threads report: headline")
    check("nothing to balance" not in page, "threads report: says nothing to balance")
    lanes = [direct_text(el) for el in safe_svg(os.path.join(out, "threads", "gantt.svg")).iter(SVG + "text")
             if el.get("class") == "lb" and el.get("data-r") is not None]
    check(lanes == ["work · r0 t1", "work · r0 t2", "io · r0 t2"], f"threads gantt lanes {lanes}")
    # The histogram's default region: the most time among regions called more than once
    # (the session root and io have one call), its count axis in whole numbers.
    hist = safe_svg(os.path.join(out, "threads", "histogram.svg"))
    check(hist.find(SVG + "title").text == "Histogram · work", "threads histogram: not of work")
    ticks = [direct_text(el) for el in hist.iter(SVG + "text")
             if el.get("text-anchor") == "end" and float(el.get("x")) < 64]
    check(ticks == ["0", "1"], f"threads histogram count ticks {ticks}")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
