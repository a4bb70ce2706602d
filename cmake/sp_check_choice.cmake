# sp_check_choice(VAR WHAT CHOICE...): stop the configure with one line when
# the cache variable VAR holds none of the choices (a typo in -DVAR=... must
# not be accepted silently). Also lists the choices for cmake-gui/ccmake.
function(sp_check_choice var what)
  set_property(CACHE ${var} PROPERTY STRINGS ${ARGN})
  if(NOT "${${var}}" IN_LIST ARGN)
    set(shown "")
    foreach(c IN LISTS ARGN)
      if(c STREQUAL "")
        list(APPEND shown "\"\" (empty)")
      else()
        list(APPEND shown "${c}")
      endif()
    endforeach()
    string(REPLACE ";" ", " choices "${shown}")
    message(FATAL_ERROR "${var}=${${var}} is not ${what}: choose one of ${choices}")
  endif()
endfunction()
