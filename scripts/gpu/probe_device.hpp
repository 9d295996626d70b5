// probe_device.hpp — what the standalone probes (batched_probe, precision_probe) share: the device
// they run on, chosen as the CLI chooses it, and the profiling times of an event. Header-only, so
// that each probe stays one g++ command (pack.sh).
#pragma once

#include <CL/cl.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace probe {

// $CLGEMM_DEVICE (an index over all platforms' devices, or part of a name), else the first GPU,
// else the first device.
inline cl_device_id pick_device() {
  const char* want = std::getenv("CLGEMM_DEVICE");
  cl_platform_id platforms[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, platforms, &np);
  cl_device_id first_gpu = nullptr, first = nullptr;
  int index = 0;
  for (cl_uint p = 0; p < np; ++p) {
    cl_device_id devices[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < nd; ++d, ++index) {
      char name[256] = {};
      clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof name, name, nullptr);
      cl_device_type type = 0;
      clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      if (want && *want && (std::to_string(index) == want || std::strstr(name, want))) return devices[d];
      if (!first) first = devices[d];
      if (!first_gpu && (type & CL_DEVICE_TYPE_GPU)) first_gpu = devices[d];
    }
  }
  return first_gpu ? first_gpu : first;
}

inline cl_ulong profile(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr);
  return t;
}

}  // namespace probe
