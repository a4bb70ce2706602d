# Reading what a run left in its journal, for `scope-profiler recover` (issue 15).
set(SP_SOURCES_recover journal_read.c journal_model.c)
