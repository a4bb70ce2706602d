set(SP_SOURCES_analysis
    balance.c
    path_balance.c
    step_balance.c
    clock_alignment.c
    region_source.c
    threads.c
    call_tree.c call_merge.c merge_pipe.c call_parent.c
    region_entry.c
    unavailable.c
    meta_value.c
    events.c
    exclusive.c
    excluded_time.c
    histograms.c
    filter.c
    lanes.c
    message_bytes.c
    metadata_access.c
    mpi_region.c
    numpy_stats.c
    path_trie.c node_calls.c
    path_walk.c
    path_hists.c
    path_depth.c
    pool.c
    rank_region.c
    region_lookup.c
    region_stats.c
    regions.c
    results.c
    results_build.c
    run_times.c
    suggest.c
    summary.c
    table_fallback.c
    table_order.c
    table_rows.c)
# region tag condition of filters (issue 26)
list(APPEND SP_SOURCES_analysis filter_tags.c)
