# sp_optional_package(PREFIX MODULE): an optional pkg-config dependency behind
# the cache option SP_<PREFIX> (AUTO: use it when pkg-config finds MODULE, ON:
# require it, OFF: leave it out). Sets SP_<PREFIX>_FOUND, the imported target
# PkgConfig::<PREFIX>, SP_<PREFIX>_LINK_LIBRARIES and SP_PC_<PREFIX>_REQUIRES
# (" MODULE" for Requires.private in the .pc files).
function(sp_optional_package prefix module)
  set(found OFF)
  set(libs "")
  set(requires "")
  if(NOT SP_${prefix} STREQUAL "OFF")
    if(SP_${prefix} STREQUAL "ON")
      pkg_check_modules(${prefix} REQUIRED IMPORTED_TARGET ${module})
    else()
      pkg_check_modules(${prefix} IMPORTED_TARGET ${module})
    endif()
    if(TARGET PkgConfig::${prefix})
      set(found ON)
      set(libs ${${prefix}_LINK_LIBRARIES})
      set(requires " ${module}")
    endif()
  endif()
  set(SP_${prefix}_FOUND ${found} PARENT_SCOPE)
  set(SP_${prefix}_LINK_LIBRARIES "${libs}" PARENT_SCOPE)
  set(SP_PC_${prefix}_REQUIRES "${requires}" PARENT_SCOPE)
endfunction()
