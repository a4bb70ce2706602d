set(SP_SOURCES_format adler32.c atomic_file.c chunk_decode.c chunk_read.c publish.c chunk_compress.c guarded_driver.c h5_write.c writer.c writer_tables.c
    h5_read.c read_index.c read_events.c read_stats.c read_extras.c
    read_metadata.c read_schema1.c read_histograms.c write_histograms.c write_aggregate.c reader.c read.c lzf_filter.c
    vlen_check.c vlen_read.c read_shared_strings.c)
# stored strings checked as libhdf5 converts them (issue 22 item 8)
list(APPEND SP_SOURCES_format vlen_guard.c chunk_check.c)
# fork points of threads (issue 30)
list(APPEND SP_SOURCES_format read_forks.c)
# plausibility checks on read (issue 22 item 7)
list(APPEND SP_SOURCES_format plausibility.c drop_calls.c)
# object headers checked before libhdf5 opens a dataset (issue 22 item 8)
list(APPEND SP_SOURCES_format header_check.c)
# the event columns read window by window (issue 29 item 5)
list(APPEND SP_SOURCES_format event_source.c)
