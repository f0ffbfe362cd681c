# cmake -DCLI=stackline-cli [-DEMULATOR=qemu-aarch64] -DTRACE=trace.json -DEXPECTED=dir -DOUT=dir
#       -P compare_annotate.cmake
# Annotates TRACE (its kernel information found beside it) and compares the annotated trace and the
# report with EXPECTED/annotated.json and EXPECTED/report.json, byte for byte.
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${EMULATOR} ${CLI} annotate ${TRACE} -o ${OUT}/annotated.json --report ${OUT}/report.json
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "stackline-cli annotate exited with ${status}")
endif()
foreach(name annotated.json report.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${name} ${EXPECTED}/${name}
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${OUT}/${name} differs from ${EXPECTED}/${name}")
  endif()
endforeach()
message(STATUS "annotated.json and report.json equal the expected ones")
