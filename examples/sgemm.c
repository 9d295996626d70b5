/* sgemm.c — multiplies two matrices with clgemm's C API and checks one element.
 * Build against an installed clgemm:  cc sgemm.c $(pkg-config --cflags --libs clgemm) -o sgemm */
#include <clgemm/clgemm.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { M = 300, N = 200, K = 100 };
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

  float* a = malloc(sizeof(float) * M * K);
  float* b = malloc(sizeof(float) * K * N);
  float* c = malloc(sizeof(float) * M * N);
  for (int i = 0; i < M * K; ++i) a[i] = (float)(i % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i) b[i] = (float)(i % 5) * 0.5f;
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * M * K, a, &err);
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * K * N, b, &err);
  cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof(float) * M * N, NULL, &err);

  /* C = 1·A·B + 0·C, row-major, no transposes; the same call as CLBlastSgemm. */
  cl_event event = NULL;
  clgemmStatus status = clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, M, N, K, 1.0f, da, 0,
                                    K, db, 0, N, 0.0f, dc, 0, N, &queue, &event);
  if (status != clgemmSuccess) {
    fprintf(stderr, "clgemmSgemm: %s: %s\n", clgemmStatusString(status), clgemmLastErrorMessage());
    return 1;
  }
  clWaitForEvents(1, &event);
  clReleaseEvent(event);
  clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, sizeof(float) * M * N, c, 0, NULL, NULL);

  /* Check C[17][42] against the host. */
  double want = 0;
  for (int p = 0; p < K; ++p) want += (double)a[17 * K + p] * b[p * N + 42];
  const double got = c[17 * N + 42];
  printf("C[17][42] = %g (expected %g)\n", got, want);

  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(a);
  free(b);
  free(c);
  return fabs(got - want) <= 1e-3 * (1 + fabs(want)) ? 0 : 1;
}
