set(SP_SOURCES_common error.c status.c)
