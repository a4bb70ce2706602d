set(SP_SOURCES_present)
