set(SP_SOURCES_analysis results.c run_summary.c)
