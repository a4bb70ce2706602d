set(SP_SOURCES_record clock.c registry.c thread_state.c hot_path.c mismatch.c config.c collect.c collect_stream.c metadata.c source_capture.c session.c session_root.c output_path.c companion.c)
# entry points and settings for the C++ and Fortran layers
list(APPEND SP_SOURCES_record exported.c thread_name.c language.c)
# the session switch against recording threads (issue 10)
list(APPEND SP_SOURCES_record quiesce.c)
# recording v2: blocks in a journal or in memory, endings other than finalize (issue 15)
list(APPEND SP_SOURCES_record store.c endings.c)
# the next block populated ahead by a helper thread (issue 15)
list(APPEND SP_SOURCES_record background.c)
