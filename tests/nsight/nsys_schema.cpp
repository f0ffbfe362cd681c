#include "nsys_schema.h"

#include <stdexcept>

namespace stackline::nsys {

namespace {

// "name:I!" -> INTEGER NOT NULL; T = TEXT, R = REAL; '*' marks a primary-key column.
std::vector<Column> columns(std::initializer_list<std::string_view> specs) {
    std::vector<Column> out;
    for (std::string_view spec : specs) {
        const size_t colon = spec.find(':');
        if (colon == std::string_view::npos) throw std::logic_error("bad column spec");
        Column c;
        c.name = spec.substr(0, colon);
        for (char f : spec.substr(colon + 1)) {
            if (f == 'I') c.type = "INTEGER";
            if (f == 'T') c.type = "TEXT";
            if (f == 'R') c.type = "REAL";
            if (f == '!') c.notNull = true;
            if (f == '*') c.primaryKey = true;
        }
        out.push_back(c);
    }
    return out;
}

// The four CUDA activity tables gained greenContextId after contextId in 3.7.2.
std::vector<Column> gpuPrefix(SchemaVersion v) {
    std::vector<Column> c = columns({"start:I!", "end:I!", "deviceId:I!", "contextId:I!",
                                     "streamId:I!", "correlationId:I", "globalPid:I"});
    if (v == SchemaVersion::v3_7_2) c.insert(c.begin() + 4, columns({"greenContextId:I"})[0]);
    return c;
}

std::vector<Column> join(std::vector<Column> a, const std::vector<Column>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

std::vector<Table> tables(SchemaVersion v) {
    std::vector<Table> t;
    t.push_back({"StringIds", columns({"id:I!*", "value:T!"})});
    t.push_back({"ThreadNames", columns({"nameId:I!", "priority:I", "globalTid:I"})});
    t.push_back(
        {"TARGET_INFO_SESSION_START_TIME", columns({"utcEpochNs:I", "utcTime:T", "localTime:T"})});
    t.push_back({"ANALYSIS_DETAILS",
                 columns({"globalVid:I!", "duration:I!", "startTime:I!", "stopTime:I!"})});
    t.push_back({"TARGET_INFO_GPU", columns({"vmId:I!",
                                             "id:I!",
                                             "name:T",
                                             "busLocation:T",
                                             "isDiscrete:I",
                                             "l2CacheSize:I",
                                             "totalMemory:I",
                                             "memoryBandwidth:I",
                                             "clockRate:I",
                                             "smCount:I",
                                             "pwGpuId:I",
                                             "uuid:T",
                                             "luid:I",
                                             "chipName:T",
                                             "cuDevice:I",
                                             "ctxswDevPath:T",
                                             "ctrlDevPath:T",
                                             "revision:I",
                                             "nodeMask:I",
                                             "constantMemory:I",
                                             "maxIPC:I",
                                             "maxRegistersPerBlock:I",
                                             "maxShmemPerBlock:I",
                                             "maxShmemPerBlockOptin:I",
                                             "maxShmemPerSm:I",
                                             "maxRegistersPerSm:I",
                                             "threadsPerWarp:I",
                                             "asyncEngines:I",
                                             "maxWarpsPerSm:I",
                                             "maxBlocksPerSm:I",
                                             "maxThreadsPerBlock:I",
                                             "maxBlockDimX:I",
                                             "maxBlockDimY:I",
                                             "maxBlockDimZ:I",
                                             "maxGridDimX:I",
                                             "maxGridDimY:I",
                                             "maxGridDimZ:I",
                                             "computeMajor:I",
                                             "computeMinor:I",
                                             "smMajor:I",
                                             "smMinor:I"})});
    t.push_back({std::string_view(metaDataTable(v)), columns({"name:T!", "value:T"})});
    t.push_back(
        {"CUPTI_ACTIVITY_KIND_MEMCPY",
         join(gpuPrefix(v),
              columns({"bytes:I!", "copyKind:I!", "deprecatedSrcId:I", "srcKind:I", "dstKind:I",
                       "srcDeviceId:I", "srcContextId:I", "dstDeviceId:I", "dstContextId:I",
                       "migrationCause:I", "graphNodeId:I", "virtualAddress:I"}))});
    t.push_back(
        {"CUPTI_ACTIVITY_KIND_MEMSET",
         join(gpuPrefix(v), columns({"value:I!", "bytes:I!", "graphNodeId:I", "memKind:I"}))});
    t.push_back(
        {"CUPTI_ACTIVITY_KIND_KERNEL", join(gpuPrefix(v), columns({"demangledName:I!",
                                                                   "shortName:I!",
                                                                   "mangledName:I",
                                                                   "launchType:I",
                                                                   "cacheConfig:I",
                                                                   "registersPerThread:I!",
                                                                   "gridX:I!",
                                                                   "gridY:I!",
                                                                   "gridZ:I!",
                                                                   "blockX:I!",
                                                                   "blockY:I!",
                                                                   "blockZ:I!",
                                                                   "staticSharedMemory:I!",
                                                                   "dynamicSharedMemory:I!",
                                                                   "localMemoryPerThread:I!",
                                                                   "localMemoryTotal:I!",
                                                                   "gridId:I!",
                                                                   "sharedMemoryExecuted:I",
                                                                   "graphNodeId:I",
                                                                   "sharedMemoryLimitConfig:I"}))});
    t.push_back({"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                 join(gpuPrefix(v), columns({"syncType:I!", "eventId:I!"}))});
    t.push_back({"CUPTI_ACTIVITY_KIND_RUNTIME",
                 columns({"start:I!", "end:I!", "eventClass:I!", "globalTid:I", "correlationId:I",
                          "nameId:I!", "returnValue:I!", "callchainId:I"})});
    t.push_back(
        {"CUDA_GRAPH_EVENTS", columns({"start:I!", "end:I!", "eventClass:I!", "globalTid:I",
                                       "nameId:I!", "graphNodeId:I!", "originalGraphNodeId:I"})});
    t.push_back({"CUDA_CALLCHAINS", columns({"id:I!*", "symbol:I!", "module:I!", "unresolved:I",
                                             "originalIP:I", "stackDepth:I!*"})});
    t.push_back({"NVTX_EVENTS",
                 columns({"start:I!", "end:I", "eventType:I!", "rangeId:I", "category:I", "color:I",
                          "text:T", "globalTid:I", "endGlobalTid:I", "textId:I", "domainId:I",
                          "uint64Value:I", "int64Value:I", "doubleValue:R", "uint32Value:I",
                          "int32Value:I", "floatValue:R", "jsonTextId:I", "jsonText:T"})});
    t.push_back({"PROCESSES", columns({"globalPid:I", "pid:I", "name:T"})});
    return t;
}

const Table* findTable(const std::vector<Table>& tables, std::string_view name) {
    for (const Table& t : tables)
        if (t.name == name) return &t;
    return nullptr;
}

std::string createStatement(const Table& table) {
    std::string sql = "CREATE TABLE " + std::string(table.name) + " (\n";
    std::vector<std::string_view> key;
    for (const Column& c : table.columns)
        if (c.primaryKey) key.push_back(c.name);
    for (size_t i = 0; i < table.columns.size(); ++i) {
        const Column& c = table.columns[i];
        sql += "    " + std::string(c.name) + " " + std::string(c.type);
        if (c.notNull) sql += " NOT NULL";
        if (c.primaryKey && key.size() == 1) sql += " PRIMARY KEY";
        if (i + 1 < table.columns.size() || key.size() > 1) sql += ",";
        sql += "\n";
    }
    if (key.size() > 1) {
        sql += "    PRIMARY KEY (";
        for (size_t i = 0; i < key.size(); ++i) sql += (i ? ", " : "") + std::string(key[i]);
        sql += ")\n";
    }
    return sql + ");";
}

std::string_view metaDataTable(SchemaVersion v) {
    return v == SchemaVersion::v3_0_0 ? "EXPORT_META_DATA" : "META_DATA_EXPORT";
}

std::string_view schemaVersionText(SchemaVersion v) {
    return v == SchemaVersion::v3_0_0 ? "3.0.0" : "3.7.2";
}

std::string_view productVersionText(SchemaVersion v) {
    return v == SchemaVersion::v3_0_0 ? "2022.4.2.1" : "2023.4.4.54";
}

std::vector<EnumTable> enumTables() {
    return {
        {"ENUM_NSYS_EVENT_TYPE",
         {{33, "NvtxCategory", "NvtxCategory"},
          {34, "NvtxMark", "NvtxMark"},
          {39, "NvtxThread", "NvtxThread"},
          {59, "NvtxPushPopRange", "NvtxPushPopRange"},
          {60, "NvtxStartEndRange", "NvtxStartEndRange"},
          {75, "NvtxDomainCreate", "NvtxDomainCreate"},
          {76, "NvtxDomainDestroy", "NvtxDomainDestroy"}}},
        {"ENUM_NSYS_EVENT_CLASS",
         {{0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
          {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
          {67, "TRACE_PROCESS_EVENT_CUDABACKTRACE", "CUDA backtrace"},
          {77, "TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation"}}},
        {"ENUM_CUDA_MEMCPY_OPER",
         {{0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
          {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
          {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
          {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
          {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
          {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
          {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
          {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
          {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
          {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
          {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
          {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
          {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
          {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"}}},
        {"ENUM_CUDA_MEM_KIND",
         {{0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
          {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
          {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
          {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
          {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
          {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
          {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
          {7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"}}},
        {"ENUM_CUPTI_SYNC_TYPE",
         {{0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
          {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
          {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
          {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
          {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"}}},
        // The misspelling is nsys's own.
        {"ENUM_CUDA_KRENEL_LAUNCH_TYPE",
         {{0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown"},
          {1, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR", "Regular"},
          {2, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE", "Coop Single Device"},
          {3, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE", "Coop Multi Device"}}},
        {"ENUM_CUDA_FUNC_CACHE_CONFIG",
         {{0, "CU_FUNC_CACHE_PREFER_NONE", "None"},
          {1, "CU_FUNC_CACHE_PREFER_SHARED", "Shared"},
          {2, "CU_FUNC_CACHE_PREFER_L1", "L1"},
          {3, "CU_FUNC_CACHE_PREFER_EQUAL", "Equal"}}},
        {"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG",
         {{0, "CUDA_SHARED_MEM_LIMIT_DEFAULT", "Default"},
          {1, "CUDA_SHARED_MEM_LIMIT_OPTIN", "Opt in"}}},
    };
}

}  // namespace stackline::nsys
