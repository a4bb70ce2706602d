set(SP_SOURCES_present run_summary.c)
