# SVG charts: the document builder and its helpers, then one file per chart.
set(SP_SOURCES_plot
  svg.c text_fit.c colour.c axis.c px_merge.c plot.c
  gantt.c flame_chart.c flame_graph.c durations.c imbalance.c histogram.c speedup.c)
