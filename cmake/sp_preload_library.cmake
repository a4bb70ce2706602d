# sp_preload_library(NAME SOURCES source... LINK library...): a library that
# `scope-profiler run` preloads into a program (never linked by one): C with
# the project's warnings, only the symbols it marks exported, libscope_profiler
# found beside it ($ORIGIN), the dynamic loader's API, installed into the
# library directory. src/preload and src/mpi (the Fortran wrappers) build one each.
function(sp_preload_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LINK")
  add_library(${name} SHARED ${arg_SOURCES})
  set_target_properties(${name} PROPERTIES C_VISIBILITY_PRESET hidden INSTALL_RPATH "$ORIGIN")
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                             ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${name} PRIVATE ${SP_WARNINGS} -fno-plt)
  target_compile_definitions(${name} PRIVATE _GNU_SOURCE)
  target_link_libraries(${name} PRIVATE ${arg_LINK} ${CMAKE_DL_LIBS})
  install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()
