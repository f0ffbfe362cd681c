# cmake -DMAKE_TRACE=make_trace -DCLI=stackline-cli [-DEMULATOR=qemu-aarch64] -DOUT=dir
#       -P make_trace_deep.cmake
# Generates a 5 MB trace of the deep shape (Python frames around every op) into OUT, annotates it
# with stackline-cli and checks its summary: kernels annotated, eager kernels given the stacks of
# their Python frames, no diagnostic that the Kineto shape does not have. OUT is deleted after.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EMULATOR} ${MAKE_TRACE} ${OUT} 5 --shape deep
                RESULT_VARIABLE status OUTPUT_VARIABLE paths ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "make_trace exited with ${status}: ${log}")
endif()
string(REGEX MATCHALL "[^\n]+" paths "${paths}")
list(GET paths 0 trace)
list(GET paths 1 kernel_info)
if(NOT trace MATCHES "/bench_deep_[0-9]+_1\\.pt\\.trace\\.json$")
  message(FATAL_ERROR "unexpected trace name: ${trace}")
endif()

execute_process(COMMAND ${EMULATOR} ${CLI} annotate ${trace} --kernel-info ${kernel_info}
                        -o ${OUT}/annotated.json
                RESULT_VARIABLE status ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "stackline-cli annotate exited with ${status}: ${log}")
endif()
execute_process(COMMAND ${EMULATOR} ${CLI} summary ${trace} --kernel-info ${kernel_info}
                RESULT_VARIABLE status OUTPUT_VARIABLE summary ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "stackline-cli summary exited with ${status}: ${log}")
endif()
message(STATUS "${summary}")
foreach(count "annotated kernels" "eager stacks")
  if(NOT summary MATCHES "${count}: +([0-9]+)" OR CMAKE_MATCH_1 EQUAL 0)
    message(FATAL_ERROR "the summary reports no ${count}")
  endif()
endforeach()
# The Kineto shape's only diagnostic: kernels that are neither Triton nor extern kernels.
string(REGEX MATCHALL "\n  [a-z_]+:" kinds "${summary}")
list(REMOVE_ITEM kinds "\n  unrecognized_kernel:")
if(kinds)
  message(FATAL_ERROR "diagnostics the Kineto shape does not have: ${kinds}")
endif()
file(REMOVE_RECURSE ${OUT})
