# src/compare: diff, check, significance and scaling over results objects.
set(SP_SOURCES_compare
  metric.c tdist.c significance.c
  region_values.c path_values.c side.c
  diff.c check.c scaling.c calibration.c)
list(APPEND SP_SOURCES_compare scaling_pop.c)  # POP computation scalability (issue 25)
