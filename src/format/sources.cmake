set(SP_SOURCES_format atomic_file.c guarded_driver.c h5_write.c writer.c)
