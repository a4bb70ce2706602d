# The Fortran modules: the tutorial examples checked through the analysis
# API, a unit test of the module, and the status codes against the C enum.
add_test(NAME tutorial_fortran
         COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/run_and_check.sh
                 ${CMAKE_CURRENT_BINARY_DIR}/tutorial_fortran.h5 0 $<TARGET_FILE:tutorial_fortran>
                 $<TARGET_FILE:check_tutorial> fortran setup timestep assemble solve residual)
if(TARGET tutorial_fortran_mpi)
  add_test(NAME tutorial_fortran_mpi
           COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/run_and_check.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/tutorial_fortran_mpi.h5 2
                   $<TARGET_FILE:tutorial_fortran_mpi> $<TARGET_FILE:check_tutorial> fortran
                   setup timestep assemble solve residual)
  set_tests_properties(tutorial_fortran_mpi PROPERTIES LABELS "mpi;no_sanitizer" RUN_SERIAL TRUE
                       ENVIRONMENT "SP_MPIEXEC=${SP_BINDINGS_MPIEXEC}")
endif()

if(TARGET tutorial_fortran_mpi_parallel)
  # the parallel writer from Fortran: the tutorial's file checked as above,
  # written by the parallel writer, with one HDF5 library in the process
  add_test(NAME tutorial_fortran_mpi_parallel
           COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/run_fortran_parallel.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/tutorial_fortran_mpi_parallel.h5
                   $<TARGET_FILE:tutorial_fortran_mpi_parallel> $<TARGET_FILE:check_tutorial>
                   $<TARGET_FILE:scope-profiler> ${CMAKE_CURRENT_SOURCE_DIR}/run_and_check.sh)
  set_tests_properties(tutorial_fortran_mpi_parallel PROPERTIES LABELS "mpi;no_sanitizer"
                       RUN_SERIAL TRUE ENVIRONMENT "SP_MPIEXEC=${SP_BINDINGS_MPIEXEC}")
endif()

add_executable(test_fortran test_fortran.F90)
target_link_libraries(test_fortran PRIVATE scope_profiler_fortran)
target_compile_options(test_fortran PRIVATE ${SP_FORTRAN_FLAGS} -ffree-line-length-none)
add_test(NAME test_fortran
         COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/test_fortran.sh $<TARGET_FILE:test_fortran>
                 $<TARGET_FILE:scope-profiler> ${CMAKE_CURRENT_SOURCE_DIR})
add_test(NAME fortran_status_codes
         COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/check_fortran_status.sh
                 ${PROJECT_SOURCE_DIR}/include/scope_profiler.h
                 ${PROJECT_SOURCE_DIR}/bindings/fortran/scope_profiler.f90)

# SP_LOC past column 132: the target's own flags are enough under
# -std=f2008 -Werror (was "Line truncated"); the region's location and its
# captured source come through.
set(sp_deep_dir ${CMAKE_CURRENT_BINARY_DIR}/a_source_directory_nested/as_deep_as/a_real/project/tree/with/many/levels/of/subdirectories/src)
configure_file(sp_loc_deep.F90 ${sp_deep_dir}/sp_loc_deep.F90 COPYONLY)
add_executable(sp_loc_deep ${sp_deep_dir}/sp_loc_deep.F90)
target_link_libraries(sp_loc_deep PRIVATE scope_profiler_fortran)
target_compile_options(sp_loc_deep PRIVATE -std=f2008 -Werror -Wall)
add_test(NAME fortran_sp_loc_long_path
         COMMAND ${SP_SH} -c "$0 \"$1\" && $2 inspect \"$1\" --source deep | grep -F \"subdirectories/src/sp_loc_deep.F90:12)\""
                 $<TARGET_FILE:sp_loc_deep> ${CMAKE_CURRENT_BINARY_DIR}/sp_loc_deep.h5
                 $<TARGET_FILE:scope-profiler>)
