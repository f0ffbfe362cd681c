# cmake -DCLI=stackline-cli [-DEMULATOR=qemu-aarch64] -DCASE=dir [-DKINFO_BASE=k -DKINFO_NEW=k]
#       -DOUT=file -P compare_diff.cmake
# Runs `diff CASE/base.json CASE/new.json --json` and compares its output with CASE/expected.json
# (what tools/run_diff_cases.py computed from its model of the two runs), byte for byte.
set(kernel_info)
if(KINFO_BASE)
  set(kernel_info --kernel-info-base ${KINFO_BASE} --kernel-info-new ${KINFO_NEW})
endif()
execute_process(COMMAND ${EMULATOR} ${CLI} diff ${CASE}/base.json ${CASE}/new.json ${kernel_info} --json
                OUTPUT_FILE ${OUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "stackline-cli diff exited with ${status}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${CASE}/expected.json
                RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${OUT} differs from ${CASE}/expected.json")
endif()
message(STATUS "diff --json equals ${CASE}/expected.json")
