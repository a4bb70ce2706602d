# The C++ layer, compiled as C++11, 17 and 20; the C++ tutorial examples.
foreach(std 11 17 20)
  add_executable(test_cxx${std} test_cxx.cpp)
  set_target_properties(test_cxx${std} PROPERTIES CXX_STANDARD ${std} CXX_STANDARD_REQUIRED ON
                                                  CXX_EXTENSIONS OFF)
  target_compile_options(test_cxx${std} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  target_link_libraries(test_cxx${std} PRIVATE scope_profiler)
  add_test(NAME test_cxx${std} COMMAND test_cxx${std})
endforeach()

add_executable(check_tutorial check_tutorial.cpp)
target_compile_options(check_tutorial PRIVATE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(check_tutorial PRIVATE scope_profiler)

add_test(NAME tutorial_cxx
         COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/run_and_check.sh
                 ${CMAKE_CURRENT_BINARY_DIR}/tutorial_cxx.h5 0 $<TARGET_FILE:tutorial_cxx>
                 $<TARGET_FILE:check_tutorial> c++ setup timestep tutorial::Solver::assemble
                 tutorial::Solver::solve tutorial::residual<double>)
if(TARGET tutorial_cxx_mpi)
  add_test(NAME tutorial_cxx_mpi
           COMMAND ${SP_SH} ${CMAKE_CURRENT_SOURCE_DIR}/run_and_check.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/tutorial_cxx_mpi.h5 2 $<TARGET_FILE:tutorial_cxx_mpi>
                   $<TARGET_FILE:check_tutorial> c++ setup timestep {anonymous}::Solver::assemble
                   {anonymous}::Solver::solve MPI_Allreduce)  # the example times its MPI calls
  set_tests_properties(tutorial_cxx_mpi PROPERTIES LABELS "mpi;no_sanitizer" RUN_SERIAL TRUE
                       ENVIRONMENT "SP_MPIEXEC=${SP_BINDINGS_MPIEXEC}")
endif()
