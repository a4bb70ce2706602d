# The code cells of the post-processing tutorial (seed/02-post-processing-tutorial.txt),
# in order, as one script; a cell whose last line a notebook displays prints it.
import time

from scope_profiler import ProfileManager, read_h5

ProfileManager.setup(file_path="profiling_data.h5", label="tutorial 2")


@ProfileManager.profile("assemble")
def assemble(scale):
    time.sleep(0.004 * scale)


with ProfileManager.region("setup"):
    time.sleep(0.02)

for step in range(5):
    with ProfileManager.region("timestep"):
        assemble(scale=1 + step % 3)
        with ProfileManager.region("solve"):
            time.sleep(0.003)

ProfileManager.finalize(verbose=False)
results = read_h5("profiling_data.h5")
print(repr(results))
print("regions:", results.region_names)
print("count:", len(results))
print("'solve' recorded?", "solve" in results)
print("ranks in file:", results.num_ranks)

for region in results:
    print(f"  {region.name:<10} {region.num_calls:>3} calls")
try:
    results["sovle"]  # typo
except KeyError as exc:
    print(exc)
timestep = results["timestep"]

print("aggregated over ranks")
print("  ranks       :", timestep.ranks)
print("  num_calls   :", timestep.num_calls)
print("  total   [s] :", timestep.total_duration)
print("  average [s] :", timestep.average_duration)
print("  min/max [s] :", timestep.min_duration, timestep.max_duration)
print("  std     [s] :", timestep.std_duration)

rank0 = timestep[0]
print("\nrank 0 only")
print("  durations [s]:", rank0.durations)
print("  start times [s]:", (rank0.start_times - results.time_origin).round(3))
print("  summary:", rank0.get_summary())
print("calls per rank :", timestep.num_calls_per_rank())
print("total per rank :", timestep.total_durations())
print("avg per rank   :", timestep.average_durations())
print("max per rank   :", timestep.max_durations())
results.print_summary(suppress_notes=True)
fields = (
    "name",
    "num_calls",
    "total_duration",
    "exclusive_duration",
    "p95",
    "imbalance",
)
for row in results.summary():
    print({key: row[key] for key in fields})
frame = results.to_dataframe()
columns = ["name", "num_calls", "total_duration", "exclusive_duration", "p95_duration"]
print(frame[columns].sort_values("total_duration", ascending=False))
per_rank = results.to_dataframe(per_rank=True)
print(per_rank[["name", "rank", "num_calls", "total_duration", "average_duration"]])
frame = frame.assign(share=lambda df: df.total_duration / df.total_duration.sum())
print(frame[["name", "num_calls", "total_duration", "share"]].sort_values(
    "share", ascending=False
))
print([region.name for region in results.get_regions(include="s")])
print([region.name for region in results.get_regions(exclude=["setup", "assemble"])])
print([row["name"] for row in results.summary(include=["solve", "timestep"])])
for key, value in sorted(results.metadata.items()):
    print(f"{key:>24}: {value}")
ProfileManager.setup(file_path="full.h5", metadata_detail="full", label="full metadata")
with ProfileManager.region("work"):
    pass
full = ProfileManager.finalize(verbose=False, return_results=True)

print("extra fields:", sorted(set(full.metadata) - set(results.metadata)))
from scope_profiler.inspection import write_metadata_json

payload = write_metadata_json("profiling_data.h5", "metadata.json")
print(sorted(payload["files"][0]["metadata"])[:8])
from scope_profiler import collect_region_statistics, write_region_statistics_json

stats = collect_region_statistics(results, include="solve")
print(stats["units"])
print(stats["files"][0]["region_statistics"]["solve"])

write_region_statistics_json(results, "region_statistics.json")
print("wrote region_statistics.json")
