# libotf2, optional: with it `scope-profiler export otf2` writes OTF2 archives
# (Vampir, otf2-print and the rest of the Score-P family's tools read them).
# SP_OTF2=AUTO (default) uses it when pkg-config finds otf2, ON requires it,
# OFF leaves it out (the exporter then says "built without OTF2").
# Defines SP_OTF2_FOUND, PkgConfig::OTF2, SP_OTF2_LINK_LIBRARIES, SP_PC_OTF2_REQUIRES.
set(SP_OTF2 "AUTO" CACHE STRING "OTF2 trace export (libotf2): AUTO, ON or OFF")
set(SP_OTF2_FOUND OFF)
set(SP_OTF2_LINK_LIBRARIES "")
set(SP_PC_OTF2_REQUIRES "")
if(NOT SP_OTF2 STREQUAL "OFF")
  if(SP_OTF2 STREQUAL "ON")
    pkg_check_modules(OTF2 REQUIRED IMPORTED_TARGET otf2)
  else()
    pkg_check_modules(OTF2 IMPORTED_TARGET otf2)
  endif()
  if(TARGET PkgConfig::OTF2)
    set(SP_OTF2_FOUND ON)
    set(SP_OTF2_LINK_LIBRARIES ${OTF2_LINK_LIBRARIES})
    set(SP_PC_OTF2_REQUIRES " otf2")
  endif()
endif()
message(STATUS "OTF2 export (libotf2): ${SP_OTF2_FOUND}")
