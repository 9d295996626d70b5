// local_limits.hpp — how much local memory a work-group may have, as measured on the device.
//
// OpenCL reports one number, CL_DEVICE_LOCAL_MEM_SIZE, and on NVIDIA it describes only dynamic
// `__local` kernel arguments: 49,152 bytes, of which a launch gets 49,148 (H200, driver 580,
// ../shared/probes/dynamic_local_probe.cpp). A static `__local` array gets the SM's opt-in shared
// memory, 232,444 bytes on sm_90 (static_local_probe.cpp), so the static limit is a property of
// each device that only a build shows: ptxas refuses a kernel that declares more, and says how
// much it allows.
#pragma once

#include <clgemm/context.hpp>

#include <optional>
#include <string>

namespace clgemm::detail {

// The largest static local array, in bytes, that the ptxas refusal in `log` allows, for a kernel
// that declared `requested` bytes: the log's line "... uses too much shared data (0xU bytes, 0xL
// max)" gives the bytes used U (the request and what the runtime adds, U − requested) and the
// most L; the answer is L − (U − requested). nullopt where the log holds no such line, or its
// numbers do not fit together (U below the request, or the runtime's share above L).
std::optional<size_t> static_local_limit_from_log(const std::string& log, size_t requested);

// The largest static `__local` array a kernel of ctx's device may declare. On NVIDIA GPUs it is
// found once per Context (remembered on disk, in the program cache's folder, keyed by the device
// and driver): a kernel declaring 1 MiB is built, ptxas's refusal read, and a kernel of exactly
// the limit built and run on one work-group, which must give back every value it stored. Where
// any step fails, and on every other device, CL_DEVICE_LOCAL_MEM_SIZE.
size_t static_local_limit(const Context& ctx);

// ctx.info() with static_local_bytes measured (static_local_limit).
DeviceInfo with_local_limits(const Context& ctx);

}  // namespace clgemm::detail
