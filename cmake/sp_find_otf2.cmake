# libotf2, optional: with it `scope-profiler export otf2` writes OTF2 archives
# (Vampir, otf2-print and the rest of the Score-P family's tools read them).
# SP_OTF2=AUTO (default) uses it when pkg-config finds otf2, ON requires it,
# OFF leaves it out (the exporter then says "built without OTF2").
# Defines SP_OTF2_FOUND, PkgConfig::OTF2, SP_OTF2_LINK_LIBRARIES, SP_PC_OTF2_REQUIRES.
include(${CMAKE_CURRENT_LIST_DIR}/sp_optional_package.cmake)
set(SP_OTF2 "AUTO" CACHE STRING "OTF2 trace export (libotf2): AUTO, ON or OFF")
sp_check_choice(SP_OTF2 "a choice for the OTF2 export" AUTO ON OFF)
sp_optional_package(OTF2 otf2)
message(STATUS "OTF2 export (libotf2): ${SP_OTF2_FOUND}")
