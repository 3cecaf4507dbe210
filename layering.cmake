# The layers (DESIGN.md, "Layers and the way data flows"), checked on the
# link graph at configure time: a library links only the layers below it,
# so a link that turns the graph upside down fails the configure, and
# layering_test fails on an #include that does the same without a link.
#
#   core <- model <- probes, engines <- bench <- predict, tune <- app <- cli
#   core <- model <- reports <- cli
#
# reports/ reads the typed model only: it links model and core and nothing
# else. Only src/cli links reports: the Report every command fills, and its
# Summary, are src/model (report.h, summary.h), so the layers that measure,
# predict and tune, and app that runs them, never render.

# Every disktune_* library `target` links, directly or through another.
function(_disktune_links target out)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo t)
    if(NOT TARGET ${t})
      continue()
    endif()
    get_target_property(direct ${t} LINK_LIBRARIES)
    if(NOT direct)
      continue()
    endif()
    foreach(d ${direct})
      if(d MATCHES "^disktune_" AND NOT d IN_LIST seen)
        list(APPEND seen ${d})
        list(APPEND todo ${d})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Fails the configure when `target` links any of ARGN.
function(_disktune_must_not_link target)
  _disktune_links(${target} links)
  foreach(above ${ARGN})
    if(above IN_LIST links)
      message(FATAL_ERROR "layering: ${target} links ${above}, a layer above "
                          "it; move the code it needs down (layering.cmake)")
    endif()
  endforeach()
endfunction()

# Fails the configure when `target` links a disktune_* library not in ARGN.
function(_disktune_may_link_only target)
  _disktune_links(${target} links)
  string(JOIN ", " allowed ${ARGN})
  foreach(l ${links})
    if(NOT l IN_LIST ARGN)
      message(FATAL_ERROR "layering: ${target} links ${l}; it may link only "
                          "${allowed} (layering.cmake)")
    endif()
  endforeach()
endfunction()

foreach(lib disktune_core disktune_model disktune_probes disktune_engines
            disktune_bench disktune_predict disktune_tune disktune_reports)
  _disktune_must_not_link(${lib} disktune_app disktune_cli)
endforeach()
_disktune_must_not_link(disktune_core disktune_model disktune_probes
                        disktune_engines disktune_bench disktune_tune)
_disktune_must_not_link(disktune_app disktune_cli)
foreach(lib disktune_core disktune_model disktune_probes disktune_engines
            disktune_bench disktune_predict disktune_tune disktune_app)
  _disktune_must_not_link(${lib} disktune_reports)
endforeach()
_disktune_may_link_only(disktune_model disktune_core)
_disktune_may_link_only(disktune_probes disktune_model disktune_core)
_disktune_may_link_only(disktune_engines disktune_model disktune_core)
_disktune_may_link_only(disktune_bench disktune_engines disktune_model
                        disktune_core)
_disktune_may_link_only(disktune_reports disktune_model disktune_core)

add_test(NAME layering_test
  COMMAND ${PROJECT_SOURCE_DIR}/tests/layering_test.sh ${PROJECT_SOURCE_DIR})
