set(SP_SOURCES_format atomic_file.c h5_write.c writer.c)
