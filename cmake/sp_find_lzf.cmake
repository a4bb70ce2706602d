# liblzf, optional: with it the reader decompresses h5py's LZF filter (32000),
# so profiles the Python package writes with hdf5_compression="lzf" open.
# SP_LZF=AUTO (default) uses it when pkg-config finds liblzf, ON requires it,
# OFF leaves it out (HDF5 stays the library's only mandatory dependency).
# Defines SP_LZF_FOUND, PkgConfig::LZF, SP_LZF_LINK_LIBRARIES, SP_PC_LZF_REQUIRES.
include(${CMAKE_CURRENT_LIST_DIR}/sp_optional_package.cmake)
set(SP_LZF "AUTO" CACHE STRING "LZF decompression for h5py's filter 32000: AUTO, ON or OFF")
sp_optional_package(LZF liblzf)
message(STATUS "LZF filter (h5py's 32000): ${SP_LZF_FOUND}")
