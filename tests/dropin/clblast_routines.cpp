// clblast_routines.cpp — a program written for CLBlast's C and C++ APIs, linked to libclgemm_clblast
// in place of libclblast (scripts/dropin/clblast_link_in_place.sh runs it). Its GEMMs are
// clgemm's; its other routines (AXPY, SCAL, NRM2, and a complex GEMM) reach the real CLBlast
// through the shim, or get CLBlast's kNotImplemented where there is none. Every result is checked
// on the host.
//   clblast_routines            expects the real CLBlast behind the shim
//   clblast_routines missing    expects none: kNotImplemented from the others, GEMMs still served
#define CL_TARGET_OPENCL_VERSION 300
#include <clblast.h>
#include <clblast_c.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) ++failures;
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

template <typename T>
cl_mem upload(cl_context ctx, std::vector<T>& host) {
  cl_int err;
  return clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T), host.data(), &err);
}

template <typename T>
std::vector<T> download(cl_command_queue q, cl_mem buffer, size_t count) {
  std::vector<T> out(count);
  clEnqueueReadBuffer(q, buffer, CL_TRUE, 0, count * sizeof(T), out.data(), 0, nullptr, nullptr);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool missing = argc > 1 && std::strcmp(argv[1], "missing") == 0;
  cl_platform_id platform;
  cl_device_id device;
  if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  const int status_other = missing ? CLBlastNotImplemented : CLBlastSuccess;

  // C: SAXPY on 1001 elements at offsets 3 and 5, y = 2.5·x + y.
  const size_t n = 1001;
  std::vector<float> x(n + 3), y(n + 5);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 13) - 6.0f;
  for (size_t i = 0; i < y.size(); ++i) y[i] = float(i % 7) * 0.25f;
  cl_mem dx = upload(ctx, x), dy = upload(ctx, y);
  const CLBlastStatusCode axpy = CLBlastSaxpy(n, 2.5f, dx, 3, 1, dy, 5, 1, &q, nullptr);
  expect(axpy == status_other, "CLBlastSaxpy's status");
  const std::vector<float> y_got = download<float>(q, dy, y.size());
  size_t wrong = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const float want = i < 5 || missing ? y[i] : 2.5f * x[i - 5 + 3] + y[i];
    wrong += std::fabs(y_got[i] - want) > 1e-5f * (1 + std::fabs(want));
  }
  expect(wrong == 0, "CLBlastSaxpy's result (or y unchanged without CLBlast)");

  // C++: SCAL and NRM2 in double, x = 0.5·x, then its norm.
  std::vector<double> v(257);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(double(i));
  cl_mem dv = upload(ctx, v);
  std::vector<double> norm_host(1, -1.0);
  cl_mem dnorm = upload(ctx, norm_host);
  const clblast::StatusCode scal = clblast::Scal<double>(v.size(), 0.5, dv, 0, 1, &q, nullptr);
  const clblast::StatusCode nrm2 = clblast::Nrm2<double>(v.size(), dnorm, 0, dv, 0, 1, &q, nullptr);
  expect(int(scal) == status_other && int(nrm2) == status_other, "clblast::Scal<double> and Nrm2<double>'s status");
  double want_norm = 0;
  for (double e : v) want_norm += 0.25 * e * e;
  want_norm = std::sqrt(want_norm);
  const double got_norm = download<double>(q, dnorm, 1)[0];
  expect(missing ? got_norm == -1.0 : std::fabs(got_norm - want_norm) < 1e-12 * want_norm,
         "clblast::Nrm2<double>'s result (or untouched without CLBlast)");

  // A complex GEMM through the C++ API: CLBlast's own, never clgemm's.
  using cf = std::complex<float>;
  std::vector<cf> ca(4 * 3), cb(3 * 2), cc(4 * 2, cf(0, 0));
  for (size_t i = 0; i < ca.size(); ++i) ca[i] = cf(float(i), 1.0f);
  for (size_t i = 0; i < cb.size(); ++i) cb[i] = cf(1.0f, float(i) * 0.5f);
  cl_mem dca = upload(ctx, ca), dcb = upload(ctx, cb), dcc = upload(ctx, cc);
  const clblast::StatusCode cgemm =
      clblast::Gemm<cf>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, 4, 2, 3, cf(1, 0),
                        dca, 0, 3, dcb, 0, 2, cf(0, 0), dcc, 0, 2, &q, nullptr);
  expect(int(cgemm) == status_other, "clblast::Gemm<complex<float>>'s status");
  if (!missing) {
    const std::vector<cf> got = download<cf>(q, dcc, cc.size());
    size_t off = 0;
    for (size_t i = 0; i < 4; ++i)
      for (size_t j = 0; j < 2; ++j) {
        cf want(0, 0);
        for (size_t p = 0; p < 3; ++p) want += ca[i * 3 + p] * cb[p * 2 + j];
        off += std::abs(got[i * 2 + j] - want) > 1e-4f * (1 + std::abs(want));
      }
    expect(off == 0, "clblast::Gemm<complex<float>>'s result");
  }

  // The GEMMs are clgemm's either way: C SGEMM and C++ DGEMM, 37×29×41, column-major.
  const size_t m = 37, nn = 29, k = 41;
  std::vector<float> sa(m * k), sb(k * nn), sc(m * nn, 1.0f);
  for (size_t i = 0; i < sa.size(); ++i) sa[i] = float(i % 11) * 0.125f - 0.5f;
  for (size_t i = 0; i < sb.size(); ++i) sb[i] = float(i % 5) - 2.0f;
  std::vector<double> da(sa.begin(), sa.end()), db(sb.begin(), sb.end()), dc(sc.begin(), sc.end());
  cl_mem bsa = upload(ctx, sa), bsb = upload(ctx, sb), bsc = upload(ctx, sc);
  cl_mem bda = upload(ctx, da), bdb = upload(ctx, db), bdc = upload(ctx, dc);
  const CLBlastStatusCode sgemm = CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, nn, k,
                                               1.0f, bsa, 0, m, bsb, 0, k, 2.0f, bsc, 0, m, &q, nullptr);
  const clblast::StatusCode dgemm = clblast::Gemm<double>(clblast::Layout::kColMajor, clblast::Transpose::kNo,
                                                          clblast::Transpose::kNo, m, nn, k, 1.0, bda, 0, m, bdb, 0,
                                                          k, 2.0, bdc, 0, m, &q, nullptr);
  expect(sgemm == CLBlastSuccess && dgemm == clblast::StatusCode::kSuccess, "SGEMM and DGEMM's status");
  const std::vector<float> s_got = download<float>(q, bsc, sc.size());
  const std::vector<double> d_got = download<double>(q, bdc, dc.size());
  size_t gemm_wrong = 0;
  for (size_t j = 0; j < nn; ++j)
    for (size_t i = 0; i < m; ++i) {
      double sum = 0;
      for (size_t p = 0; p < k; ++p) sum += double(sa[p * m + i]) * double(sb[j * k + p]);
      const double want = sum + 2.0;
      gemm_wrong += std::fabs(s_got[j * m + i] - want) > 1e-4 * (1 + std::fabs(want));
      gemm_wrong += std::fabs(d_got[j * m + i] - want) > 1e-12 * (1 + std::fabs(want));
    }
  expect(gemm_wrong == 0, "SGEMM and DGEMM's results");
  for (cl_mem b : {dx, dy, dv, dnorm, dca, dcb, dcc, bsa, bsb, bsc, bda, bdb, bdc}) clReleaseMemObject(b);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  std::printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
