# Finds HDF5 built with MPI-IO, for libscope_profiler_mpi_parallel only: the
# serial library and the CLI keep sp_find_hdf5.cmake's hdf5-serial, even when
# installing the MPI flavour (Debian libhdf5-openmpi-dev) pointed the generic
# hdf5.pc and h5cc at it. The flavour must match the MPI that FindMPI found.
#   SP_HDF5_PARALLEL        AUTO (build the variant when found), ON (required), OFF
#   SP::HDF5_PARALLEL       the target to link
#   SP_HDF5_PARALLEL_FOUND  ON when found
set(SP_HDF5_PARALLEL "AUTO" CACHE STRING
    "Parallel HDF5 for libscope_profiler_mpi_parallel: AUTO, ON (required) or OFF")
include(${CMAKE_CURRENT_LIST_DIR}/sp_check_choice.cmake)
sp_check_choice(SP_HDF5_PARALLEL "a choice for the parallel-HDF5 variant" AUTO ON OFF)
set(SP_HDF5_PARALLEL_FOUND OFF)
if(NOT SP_HDF5_PARALLEL STREQUAL "OFF" AND NOT TARGET SP::HDF5_PARALLEL)
  if(MPI_C_LIBRARIES MATCHES "mpich")
    set(sp_hdf5_parallel_modules hdf5-mpich)
  else()
    set(sp_hdf5_parallel_modules hdf5-openmpi)
  endif()
  pkg_search_module(SP_HDF5_PAR IMPORTED_TARGET ${sp_hdf5_parallel_modules})
  if(TARGET PkgConfig::SP_HDF5_PAR)
    # The module must really be a parallel build: its H5pubconf.h says so.
    set(sp_parallel_conf "")
    foreach(dir IN LISTS SP_HDF5_PAR_INCLUDE_DIRS)
      if(EXISTS "${dir}/H5pubconf.h")
        file(STRINGS "${dir}/H5pubconf.h" sp_parallel_conf REGEX "define H5_HAVE_PARALLEL 1")
      endif()
    endforeach()
    if(sp_parallel_conf)
      add_library(sp_hdf5_parallel INTERFACE)
      target_link_libraries(sp_hdf5_parallel INTERFACE PkgConfig::SP_HDF5_PAR)
      add_library(SP::HDF5_PARALLEL ALIAS sp_hdf5_parallel)
      set(SP_HDF5_PARALLEL_FOUND ON)
      message(STATUS "Parallel HDF5 ${SP_HDF5_PAR_VERSION} (pkg-config module "
                     "${SP_HDF5_PAR_MODULE_NAME}): building libscope_profiler_mpi_parallel")
    endif()
  endif()
  if(NOT SP_HDF5_PARALLEL_FOUND)
    set(sp_why "no pkg-config module ${sp_hdf5_parallel_modules} with H5_HAVE_PARALLEL "
               "(Debian: apt-get install libhdf5-openmpi-dev)")
    if(SP_HDF5_PARALLEL STREQUAL "ON")
      message(FATAL_ERROR "SP_HDF5_PARALLEL=ON but parallel HDF5 is missing: ${sp_why}")
    endif()
    message(STATUS "Not building libscope_profiler_mpi_parallel: ${sp_why}")
  endif()
elseif(TARGET SP::HDF5_PARALLEL)
  set(SP_HDF5_PARALLEL_FOUND ON)
endif()
