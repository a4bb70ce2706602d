set(SP_SOURCES_present
  py_path.c csv_escape.c
  json_build.c json_print.c text_file.c
  table_columns.c table_cells.c table_layout.c notes_box.c table_print.c
  run_info.c print_summary.c run_summary.c
  summary_fields.c summary_out.c summary_csv.c summary_json.c
  json_export_file.c json_export_stats.c json_export_metadata.c
  box_table.c compare_text.c compare_json.c scaling_out.c
  balance_json.c)
