# The HTML report: the document, its sections, its inline style and script.
set(SP_SOURCES_report
  report.c report_assets.c report_header.c report_tables.c report_charts.c report_compare.c
  report_diff_flame.c)
