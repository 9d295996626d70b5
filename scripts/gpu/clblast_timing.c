/* clblast_timing.c — times CLBlast's C GEMM API as a program sees it, for scripts/gpu/clblast_speed.sh,
 * which runs it once against the real libclblast and once with libclgemm_clblast preloaded: the
 * same binary, the same card, the same call. For each precision and size: the median of REPEAT calls
 * (host clock, each call waited for) after two untimed, TFLOP/s, and the largest error of 64 sampled
 * elements against a float64 sum. Built by scripts/gpu/pack.sh:
 *   cc -O2 clblast_timing.c -lclblast -lOpenCL -lm -o clblast_timing
 * Run as clblast_timing [S|D|H] SIZE... (H uses clblast_half.h's conversions). Exits 1 on a wrong
 * result; a status other than success is printed and the size skipped. The first GPU, else the
 * first device. */
#define CL_TARGET_OPENCL_VERSION 300
#include <clblast_c.h>
#include <clblast_half.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int compare(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static double value_of(char p, const void* base, size_t i) {
  if (p == 'S') return ((const float*)base)[i];
  if (p == 'D') return ((const double*)base)[i];
  return HalfToFloat(((const cl_half*)base)[i]);
}

static void store(char p, void* base, size_t i, double v) {
  if (p == 'S') ((float*)base)[i] = (float)v;
  else if (p == 'D') ((double*)base)[i] = v;
  else ((cl_half*)base)[i] = FloatToHalf((float)v);
}

static CLBlastStatusCode call(char p, size_t n, cl_mem a, cl_mem b, cl_mem c, cl_command_queue* q, cl_event* e) {
  const CLBlastLayout L = CLBlastLayoutRowMajor;
  const CLBlastTranspose N = CLBlastTransposeNo;
  if (p == 'S') return CLBlastSgemm(L, N, N, n, n, n, 1.0f, a, 0, n, b, 0, n, 0.0f, c, 0, n, q, e);
  if (p == 'D') return CLBlastDgemm(L, N, N, n, n, n, 1.0, a, 0, n, b, 0, n, 0.0, c, 0, n, q, e);
  return CLBlastHgemm(L, N, N, n, n, n, FloatToHalf(1.0f), a, 0, n, b, 0, n, FloatToHalf(0.0f), c, 0, n, q, e);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s S|D|H SIZE...\n", argv[0]);
    return 2;
  }
  const char p = argv[1][0];
  const size_t e = p == 'D' ? 8 : p == 'S' ? 4 : 2;
  const int repeat = getenv("REPEAT") ? atoi(getenv("REPEAT")) : 10;
  cl_platform_id platforms[8];
  cl_uint np = 0;
  cl_device_id device = NULL;
  clGetPlatformIDs(8, platforms, &np);
  for (cl_uint i = 0; i < np && !device; ++i)
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) device = NULL;
  /* No GPU: the first device of any kind (PoCL's CPU device here, for a try of the program). */
  if (!device && (np == 0 || clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  int wrong = 0;
  for (int s = 2; s < argc; ++s) {
    const size_t n = strtoul(argv[s], NULL, 10), bytes = n * n * e;
    void* ha = malloc(bytes);
    void* hb = malloc(bytes);
    void* hc = malloc(bytes);
    srand(7 + s);
    for (size_t i = 0; i < n * n; ++i) {
      store(p, ha, i, (rand() % 2001 - 1000) / 1000.0);
      store(p, hb, i, (rand() % 2001 - 1000) / 1000.0);
    }
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hb, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    double times[64];
    int runs = repeat > 62 ? 62 : repeat;
    CLBlastStatusCode status = CLBlastSuccess;
    for (int r = -2; r < runs && status == CLBlastSuccess; ++r) {
      cl_event ev = NULL;
      const double t0 = now();
      status = call(p, n, a, b, c, &q, &ev);
      if (status == CLBlastSuccess) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
      }
      if (r >= 0) times[r] = now() - t0;
    }
    if (status != CLBlastSuccess) {
      printf("%cgemm %zu: status %d\n", p, n, (int)status);
    } else {
      clEnqueueReadBuffer(q, c, CL_TRUE, 0, bytes, hc, 0, NULL, NULL);
      double worst = 0;
      for (int t = 0; t < 64; ++t) {
        const size_t i = (size_t)rand() % n, j = (size_t)rand() % n;
        double sum = 0, mag = 0;
        for (size_t l = 0; l < n; ++l) {
          const double x = value_of(p, ha, i * n + l) * value_of(p, hb, l * n + j);
          sum += x, mag += fabs(x);
        }
        const double err_ij = fabs(value_of(p, hc, i * n + j) - sum) / (mag > 0 ? mag : 1);
        if (err_ij > worst) worst = err_ij;
      }
      const double tol = p == 'D' ? 1e-12 : p == 'S' ? 1e-5 : 4e-3;
      qsort(times, runs, sizeof(double), compare);
      const double t = times[runs / 2];
      printf("%cgemm %zu: %.3f ms, %.1f TFLOP/s, error %.1e %s\n", p, n, t * 1e3, 2.0 * n * n * n / t * 1e-12, worst,
             worst <= tol ? "ok" : "WRONG");
      wrong |= worst > tol;
    }
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c);
    free(ha), free(hb), free(hc);
  }
  return wrong;
}
