# Trace exports (scope_profiler/export.h): the call walker every writer builds
# on, the output sink, and one file per format.
set(SP_SOURCES_export
  call_select.c call_walk.c names.c sink.c protobuf.c
  chrome_trace.c perfetto.c speedscope.c folded.c hist_calls.c
  estimate.c export.c
  json_value.c path_map.c hatchet.c pstats.c otf2.c plot_data.c plot_data_flame.c
  plot_data_series.c plot_data_speedup.c)
# Extra-P JSON Lines (export extrap, issue 26)
list(APPEND SP_SOURCES_export extrap.c)
