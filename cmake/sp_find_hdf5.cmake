# Finds HDF5, the library's one mandatory dependency: the pkg-config modules
# `hdf5-serial` (Debian) or `hdf5` (Spack, conda, source builds) first, then
# CMake's FindHDF5 (h5cc wrappers, HDF5_ROOT, RHEL, module systems, HDF5's own
# CMake package). SP_HDF5_FROM=cmake skips pkg-config. Defines:
#   PkgConfig::HDF5         the target the build links (the name the build
#                           first used, whichever way HDF5 was found)
#   SP_HDF5_LINK_LIBRARIES  full library paths, for the static library's users
#   SP_PC_HDF5_REQUIRES     pkg-config module for scope_profiler.pc, or empty
#   SP_PC_HDF5_LIBS         link flags for scope_profiler.pc when no module
set(SP_HDF5_FROM "auto" CACHE STRING
    "How to find HDF5: auto (pkg-config, then FindHDF5) or cmake (FindHDF5 only)")
include(${CMAKE_CURRENT_LIST_DIR}/sp_check_choice.cmake)
sp_check_choice(SP_HDF5_FROM "a way to find HDF5 (auto: pkg-config, then FindHDF5; cmake: FindHDF5 only)"
                auto cmake)
set(SP_PC_HDF5_REQUIRES "")
set(SP_PC_HDF5_LIBS "")
if(NOT SP_HDF5_FROM STREQUAL "cmake")
  pkg_search_module(HDF5 IMPORTED_TARGET hdf5-serial hdf5)
endif()
if(TARGET PkgConfig::HDF5)
  set(SP_HDF5_LINK_LIBRARIES ${HDF5_LINK_LIBRARIES})
  set(SP_PC_HDF5_REQUIRES "${HDF5_MODULE_NAME}")
  message(STATUS "HDF5 ${HDF5_VERSION} (pkg-config module ${HDF5_MODULE_NAME})")
else()
  set(HDF5_PREFER_PARALLEL OFF)
  find_package(HDF5 COMPONENTS C)
  if(NOT HDF5_FOUND OR NOT TARGET hdf5::hdf5)
    message(FATAL_ERROR "HDF5 not found: neither the pkg-config module hdf5-serial or hdf5 "
                        "nor CMake's FindHDF5 (set HDF5_ROOT, or put h5cc on PATH)")
  endif()
  add_library(sp_hdf5 INTERFACE)
  target_link_libraries(sp_hdf5 INTERFACE hdf5::hdf5)
  add_library(PkgConfig::HDF5 ALIAS sp_hdf5)
  # Only the HDF5 libraries themselves: FindHDF5 also lists their own dependencies.
  set(SP_HDF5_LINK_LIBRARIES "")
  foreach(lib IN LISTS HDF5_C_LIBRARIES)
    if(lib MATCHES "hdf5")
      list(APPEND SP_HDF5_LINK_LIBRARIES ${lib})
      string(APPEND SP_PC_HDF5_LIBS " ${lib}")
    endif()
  endforeach()
  message(STATUS "HDF5 ${HDF5_VERSION} (FindHDF5): ${SP_HDF5_LINK_LIBRARIES}")
endif()
