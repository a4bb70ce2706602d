set(SP_SOURCES_present
  tbuf.c utf8.c py_float.c py_repr.c py_path.c json_escape.c csv_escape.c
  json_build.c json_print.c text_file.c
  table_columns.c table_cells.c table_layout.c notes_box.c table_print.c
  run_summary.c)
