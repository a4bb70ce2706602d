set(SP_SOURCES_common blob.c error.c parallel_for.c status.c text_buffer.c decimal_format.c utf8.c py_float.c shortest_double.c py_repr.c json_escape.c markup_escape.c
    terminal_text.c duration_text.c)
# rules for user metadata keys and values (issue 26)
list(APPEND SP_SOURCES_common user_meta.c)
# threads the analysis may use (SCOPE_PROFILER_THREADS, issue 29)
list(APPEND SP_SOURCES_common worker_threads.c)
