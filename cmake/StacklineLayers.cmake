# The folders of core/ and ui/ are layers: each is one static library that links only the layers
# listed before it, and whose sources can include only those layers' headers. Both rules are
# enforced here, so that an upward include is a build error, not a review comment:
#  - each layer compiles against an include root of its own (a folder of links to its folder and
#    to those of the layers it may use), so a .cpp that includes a header from above does not
#    compile;
#  - at configure time every source and header of a layer is read and each quoted include
#    "folder/file.h" must name the layer itself or one it may use (this also catches a header that
#    only other layers compile).
# Includes are written from the folder: #include "model/track_index.h".

# stackline_layer(<folder> GROUP <core|ui> SOURCES <file>... [DEPENDS <folder>...])
# Defines the static library stackline_<folder> from the sources of <group>/<folder>/ (listed
# alphabetically by the caller) and links it to its DEPENDS (layers of the same group, or of an
# earlier group: ui's layers name pipeline to see the whole core).
function(stackline_layer folder)
  cmake_parse_arguments(PARSE_ARGV 1 LAYER "" "GROUP" "SOURCES;DEPENDS")
  set(target stackline_${folder})
  add_library(${target} STATIC ${LAYER_SOURCES})
  stackline_warnings(${target})

  # Every layer this one may use, itself included: its own DEPENDS and theirs.
  set(visible ${folder})
  foreach(dep IN LISTS LAYER_DEPENDS)
    if(NOT TARGET stackline_${dep})
      message(FATAL_ERROR "layer ${folder}: '${dep}' is not a layer defined before it")
    endif()
    get_property(dep_visible GLOBAL PROPERTY STACKLINE_LAYER_VISIBLE_${dep})
    list(APPEND visible ${dep_visible})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY STACKLINE_LAYER_VISIBLE_${folder} "${visible}")
  set_property(GLOBAL PROPERTY STACKLINE_LAYER_DIR_${folder} ${CMAKE_CURRENT_SOURCE_DIR})

  # The include root: <build>/layers/<folder>/<visible folder> -> its source folder.
  set(root ${CMAKE_BINARY_DIR}/layers/${folder})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(name IN LISTS visible)
    get_property(dir GLOBAL PROPERTY STACKLINE_LAYER_DIR_${name})
    file(CREATE_LINK ${dir} ${root}/${name} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PUBLIC ${root})
  list(TRANSFORM LAYER_DEPENDS PREPEND stackline_)
  target_link_libraries(${target} PUBLIC ${LAYER_DEPENDS})

  # The configure-time check over every file of the folder.
  file(GLOB_RECURSE files ${CMAKE_CURRENT_SOURCE_DIR}/*.h ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^#include \"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" used "${line}")
      if(used STREQUAL line)
        message(FATAL_ERROR "${file}: ${line}: includes are written from the folder")
      elseif(NOT used IN_LIST visible)
        message(FATAL_ERROR "${file}: ${line}: layer '${folder}' may include only from "
                            "${visible}")
      endif()
    endforeach()
  endforeach()
endfunction()
