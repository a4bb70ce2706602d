set(SP_SOURCES_analysis results.c)
