# src/models: empirical scaling models (Extra-P's performance-model normal form, issue 26).
set(SP_SOURCES_models pmnf_terms.c pmnf_fit.c pmnf_text.c scaling_models.c scaling_models_out.c
    pmnf2_fit.c pmnf_cells.c scaling_models2.c scaling_models2_out.c)
