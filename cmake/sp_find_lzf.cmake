# liblzf, optional: with it the reader decompresses h5py's LZF filter (32000),
# so profiles the Python package writes with hdf5_compression="lzf" open.
# SP_LZF=AUTO (default) uses it when pkg-config finds liblzf, ON requires it,
# OFF leaves it out (HDF5 stays the library's only mandatory dependency).
# Defines SP_LZF_FOUND, PkgConfig::LZF, SP_LZF_LINK_LIBRARIES, SP_PC_LZF_REQUIRES.
set(SP_LZF "AUTO" CACHE STRING "LZF decompression for h5py's filter 32000: AUTO, ON or OFF")
set(SP_LZF_FOUND OFF)
set(SP_LZF_LINK_LIBRARIES "")
set(SP_PC_LZF_REQUIRES "")
if(NOT SP_LZF STREQUAL "OFF")
  if(SP_LZF STREQUAL "ON")
    pkg_check_modules(LZF REQUIRED IMPORTED_TARGET liblzf)
  else()
    pkg_check_modules(LZF IMPORTED_TARGET liblzf)
  endif()
  if(TARGET PkgConfig::LZF)
    set(SP_LZF_FOUND ON)
    set(SP_LZF_LINK_LIBRARIES ${LZF_LINK_LIBRARIES})
    set(SP_PC_LZF_REQUIRES " liblzf")
  endif()
endif()
message(STATUS "LZF filter (h5py's 32000): ${SP_LZF_FOUND}")
