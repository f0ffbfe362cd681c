# cmake -DMAKE_PFTRACE=make_pftrace -DOUT=dir -P pftrace_over_4gib.cmake
# A Cuspy-layout trace of more than 2^32 bytes, raw and gzip: make_pftrace streams a small trace
# (one CPU op with a 4 MiB argument, its launch and its kernel) 1,100 times over, and --verify
# reads each file back (the gzip one inflated, its size field wrapped mod 2^32) and checks the
# counts and the args of the last slice, past byte 2^32. Each file is deleted after.
# Each mode needs its 4.6 GB on disk (the raw file; the gzip one's inflated scratch copy), and
# the rest of the suite its room beside it: with less free, the test says so and is skipped
# (SKIP_REGULAR_EXPRESSION) rather than filling the disk under the tests that run after it.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(need_kib 6815744)  # 6.5 GiB: the 4.6 GB file and 1.9 GiB for everything else
execute_process(COMMAND df -Pk ${OUT} OUTPUT_VARIABLE df RESULT_VARIABLE df_status)
if(df_status EQUAL 0 AND df MATCHES "\n[^ ]+ +[0-9]+ +[0-9]+ +([0-9]+)")
  set(free_kib ${CMAKE_MATCH_1})
  if(free_kib LESS need_kib)
    math(EXPR free_mib "${free_kib} / 1024")
    file(REMOVE_RECURSE ${OUT})
    message(STATUS "SKIPPED: ${OUT} has ${free_mib} MiB free; this test needs 6.5 GiB")
    return()
  endif()
endif()
string(REPEAT "0123456789abcdef" 262144 payload)
file(WRITE ${OUT}/big_args.json
     "{\"baseTimeNanoseconds\": 1700000000000000000, \"traceEvents\": [\n"
     "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::big\",\"pid\":1,\"tid\":1,\"ts\":10.5,\"dur\":20,"
     "\"args\":{\"External id\":7,\"payload\":\"${payload}\"}},\n"
     "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
     "\"ts\":12,\"dur\":3,\"args\":{\"cbid\":211,\"correlation\":9,\"External id\":7}},\n"
     "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":16,\"dur\":4,"
     "\"args\":{\"device\":0,\"stream\":7,\"correlation\":9,\"grid\":[1,1,1],\"block\":[32,1,1]}}\n"
     "]}\n")
foreach(mode raw gzip)
  set(flags --repeat 1100 --verify)
  if(mode STREQUAL raw)
    list(APPEND flags --raw)
  endif()
  execute_process(COMMAND ${MAKE_PFTRACE} ${OUT}/big_args.json ${OUT}/big.${mode}.pftrace ${flags}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE log)
  file(REMOVE ${OUT}/big.${mode}.pftrace)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "make_pftrace (${mode}) exited with ${status}: ${log}\n${out}")
  endif()
  if(NOT out MATCHES "verified: last slice at byte ([0-9]+) of ([0-9]+)")
    message(FATAL_ERROR "make_pftrace (${mode}) did not verify its output:\n${out}")
  endif()
  set(at ${CMAKE_MATCH_1})
  set(size ${CMAKE_MATCH_2})
  if(at LESS 4294967296)  # 2^32
    message(FATAL_ERROR "the last slice is not past byte 2^32: ${out}")
  endif()
  message(STATUS "${mode}: last slice at byte ${at} of ${size}")
endforeach()
file(REMOVE_RECURSE ${OUT})
