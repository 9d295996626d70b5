// bench/impl.hpp — the interface every benchmarked GEMM implementation offers the runner.
//
// The runner owns the protocol (same inputs, reset, check, warm-up, repeats); an implementation
// only knows how to hold the operands where it computes, run one GEMM and time it its own way.
#pragma once

#include "bench/checker.hpp"
#include "bench/problem.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clgemm::bench {

// How an implementation's time is taken.
enum class Timing {
  Events,      // OpenCL profiling events: start of the first to end of the last command it enqueued
  HostClock,   // steady clock around the call plus a finish (calls that may enqueue several kernels)
  CudaEvents,  // cudaEventRecord before and after the call on its stream
  MarkerEvents,  // OpenCL events: from a marker enqueued just before the call to the end of the
                 // event the call returns (for libraries that hand back only their last event)
};
// "opencl events", "host clock" (with a finish for OpenCL calls), "cuda events"
const char* timing_name(Timing t);

// Where the work runs, so that "% of peak" is only quoted against the hardware that did it.
enum class Hardware { OpenCLDevice, HostCPU, CudaDevice };

struct ImplInfo {
  std::string name;         // what --impl calls it: "clgemm", "ladder:6", "clblast", "cublas-tf32", ...
  std::string description;  // one line for tables: the library and the entry point
  bool peer = false;        // counts when finding the best peer to compare clgemm with
  bool batched = false;     // computes a strided batch (Shape::batch > 1) in one call
  bool grouped = false;     // computes a grouped shape (Shape::problems) in one call
  // Reads the quantized weights (Problem::w) itself, and is checked against their exact
  // dequantized values (quantized_reference); the others compute on Problem::b.
  bool quantized = false;
  Precision precision = Precision::FP32;  // its arithmetic at the run's types (the checker's tolerance)
  Hardware hardware = Hardware::OpenCLDevice;
  Timing timing = Timing::HostClock;
  std::string hardware_name;  // for CudaDevice: the CUDA device's name (peak applies if it is the OpenCL device)
};

class Implementation {
 public:
  virtual ~Implementation() = default;
  virtual const ImplInfo& info() const = 0;

  // Empty when the implementation can run at all in this process, else why not ("built without
  // CLBlast", "no CUDA device: ..."). Asked once, before the first shape.
  virtual std::string unavailable() const { return ""; }
  // Empty when it can compute this problem, else why not (layout, transposes, too slow...).
  virtual std::string unsupported(const Problem&) const { return ""; }

  // Puts the problem's inputs where the implementation computes (device buffers, say), builds
  // what it needs, and leaves C holding the problem's C0.
  virtual void prepare(const Problem& p) = 0;
  // Restores C to C0 and waits until that is done (never timed).
  virtual void reset_c() = 0;
  // One GEMM; returns its time in seconds, measured as info().timing says.
  virtual double run() = 0;
  // C after the last run, in the problem's storage order and C's type (settings.types.out).
  virtual HostMatrix result() = 0;
  // Frees what prepare() made; prepare() may follow again with another problem.
  virtual void release() = 0;
};

using ImplList = std::vector<std::unique_ptr<Implementation>>;

}  // namespace clgemm::bench
