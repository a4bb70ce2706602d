# Wait states and POP efficiencies of MPI profiles (issue 25).
set(SP_SOURCES_waits peer_read.c waits.c waits_messages.c waits_collectives.c pop.c blame.c pop_paths.c)
