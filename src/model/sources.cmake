set(SP_SOURCES_model model.c histogram.c)
