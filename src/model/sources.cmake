set(SP_SOURCES_model model.c histogram.c)
# event columns read window by window (issue 29 item 5)
list(APPEND SP_SOURCES_model event_window.c)
