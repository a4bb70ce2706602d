# Runs at install time (install(SCRIPT)): writes the install prefix into the
# installed pkg-config files, so that -L, -I and -rpath name the real
# directories (a file that computed them from ${pcfiledir} gave
# "PREFIX/lib/pkgconfig/../../lib" as every program's run path). An install
# moved elsewhere is still found with pkg-config --define-prefix.
# Expects SP_PC_LIBDIR (CMAKE_INSTALL_LIBDIR) set by an install(CODE) before it.
if(IS_ABSOLUTE "${SP_PC_LIBDIR}")
  set(sp_pc_dir "$ENV{DESTDIR}${SP_PC_LIBDIR}/pkgconfig")
else()
  set(sp_pc_dir "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${SP_PC_LIBDIR}/pkgconfig")
endif()
file(GLOB sp_pc_files "${sp_pc_dir}/scope_profiler*.pc")
foreach(pc IN LISTS sp_pc_files)
  file(READ "${pc}" text)
  string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=${CMAKE_INSTALL_PREFIX}" text "${text}")
  file(WRITE "${pc}" "${text}")
  message(STATUS "Prefix written into: ${pc}")
endforeach()
