/* clblast_sgemm.c — a program written for CLBlast's C API, linked to libclgemm_clblast in place of
 * libclblast, so that clgemm computes its SGEMM. It checks every element against a host loop.
 * Build against an installed clgemm:
 *   cc clblast_sgemm.c $(pkg-config --cflags --libs clgemm-clblast OpenCL) -o clblast_sgemm */
#define CL_TARGET_OPENCL_VERSION 300
#include <clblast_c.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { M = 130, N = 67, K = 45, LDA = K + 3, LDB = N + 1, LDC = N + 2, OFF = 5 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device (error %d)\n", err);
    return 1;
  }
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);

  const size_t a_size = OFF + M * LDA, b_size = OFF + K * LDB, c_size = OFF + M * LDC;
  float* a = malloc(sizeof(float) * a_size);
  float* b = malloc(sizeof(float) * b_size);
  float* c = malloc(sizeof(float) * c_size);
  for (size_t i = 0; i < a_size; ++i) a[i] = (float)(i % 7) - 3.0f;
  for (size_t i = 0; i < b_size; ++i) b[i] = (float)(i % 5) * 0.5f;
  for (size_t i = 0; i < c_size; ++i) c[i] = (float)(i % 3);
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * a_size, a, &err);
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * b_size, b, &err);
  cl_mem dc = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float) * c_size, c, &err);

  cl_event event = NULL;
  CLBlastStatusCode status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, M, N, K, 1.5f,
                                          da, OFF, LDA, db, OFF, LDB, -0.5f, dc, OFF, LDC, &queue, &event);
  if (status != CLBlastSuccess) {
    fprintf(stderr, "CLBlastSgemm returned %d\n", (int)status);
    return 1;
  }
  clWaitForEvents(1, &event);
  clReleaseEvent(event);
  float* got = malloc(sizeof(float) * c_size);
  clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, sizeof(float) * c_size, got, 0, NULL, NULL);
  int wrong = 0;
  for (size_t i = 0; i < c_size; ++i) {
    const size_t at = i - OFF, row = at / LDC, col = at % LDC;
    double want = c[i];
    if (i >= OFF && col < N) {
      double sum = 0;
      for (size_t p = 0; p < K; ++p) sum += (double)a[OFF + row * LDA + p] * b[OFF + p * LDB + col];
      want = 1.5 * sum - 0.5 * c[i];
    }
    wrong += fabs(got[i] - want) > 1e-4 * (1 + fabs(want));
  }
  /* A bad leading dimension gets CLBlast's own status. */
  const CLBlastStatusCode bad = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, M, N, K,
                                             1.0f, da, 0, K - 1, db, 0, LDB, 0.0f, dc, 0, LDC, &queue, NULL);
  /* A complex GEMM, which clgemm does not compute, goes to the real CLBlast: CLBlastNotImplemented
   * where there is none. */
  const cl_float2 one = {{1.0f, 0.0f}}, zero = {{0.0f, 0.0f}};
  const CLBlastStatusCode complex = CLBlastCgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, 4, 4,
                                                 4, one, da, 0, 4, db, 0, 4, zero, dc, 0, 4, &queue, NULL);
  clFinish(queue);
  printf("CLBlastSgemm %dx%dx%d: %d wrong of %zu; ld below K: status %d; CLBlastCgemm: status %d\n", M, N, K, wrong,
         c_size, (int)bad, (int)complex);
  return wrong || bad != CLBlastInvalidLeadDimA || (complex != CLBlastSuccess && complex != CLBlastNotImplemented);
}
