# The scope-profiler command-line tool: main.c dispatches to one file per
# sub-command; the cli_*.c helpers are shared by them.
set(SP_SOURCES_cli
  main.c help.c
  cli_args.c cli_choice.c cli_colour.c cli_contain.c cli_error.c cli_files.c cli_list.c cli_ranks.c cli_runs.c
  cli_select.c cli_select_check.c cli_text.c cli_shown.c
  inspect.c inspect_header.c inspect_meta.c inspect_regions.c inspect_threads.c
  inspect_balance.c inspect_user.c
  stats.c events.c metadata.c
  merge.c merge_scan.c merge_aggregate.c
  cli_compare.c diff.c check.c scaling.c cli_meta.c stats_group.c export_extrap.c scaling_two.c
  export.c export_data.c
  plot.c report.c help_plot.c
  recover.c
  calibrate.c run.c
  waits.c inspect_waits.c cli_wrap.c)
# what the reader repaired in a damaged profile (issue 22 item 7)
list(APPEND SP_SOURCES_cli cli_repairs.c)
# --max-depth of inspect and export folded (issue 22 item 3)
list(APPEND SP_SOURCES_cli cli_depth.c)
