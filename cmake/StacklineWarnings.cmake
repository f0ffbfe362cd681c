# The project's warning options, given to each of its own targets rather than to the whole
# directory tree, so that a target added from elsewhere (a vendored library, a generated file's
# target) keeps its own and ours can grow stricter without touching others.
function(stackline_warnings)
  foreach(target IN LISTS ARGN)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endforeach()
endfunction()
