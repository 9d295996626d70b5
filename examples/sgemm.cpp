// sgemm.cpp — multiplies two matrices with clgemm's C++ API (column-major, B transposed) and
// checks the result against a host loop.
#include <clgemm/clgemm.hpp>

#include <cmath>
#include <iostream>
#include <vector>

int main() {
  try {
    clgemm::Context ctx(clgemm::choose_device());  // $CLGEMM_DEVICE, else first GPU, else CPU
    const size_t m = 123, n = 45, k = 67;
    std::vector<float> a(m * k), b(n * k), c(m * n);  // A m×k and B n×k, both column-major
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 11) / 11.0f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 13) / 13.0f - 0.5f;
    cl::Buffer da(ctx.context(), CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data());
    cl::Buffer db(ctx.context(), CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data());
    cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE, c.size() * 4);

    clgemm::GemmCall call;
    call.layout = clgemm::Layout::ColMajor;
    call.b_transpose = clgemm::Transpose::Yes;  // C = A · B^T
    call.m = m, call.n = n, call.k = k;
    call.a = {da(), 0, m};
    call.b = {db(), 0, n};
    call.c = {dc(), 0, m};
    clgemm::gemm(call, ctx.queue()());
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.size() * 4, c.data());

    double worst = 0;
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        double want = 0;
        for (size_t p = 0; p < k; ++p) want += double(a[p * m + i]) * b[p * n + j];
        worst = std::max(worst, std::abs(want - c[j * m + i]));
      }
    std::cout << "largest difference from the host: " << worst << " on " << ctx.info().name << "\n";
    return worst < 1e-3 ? 0 : 1;
  } catch (const clgemm::Error& e) {
    std::cerr << "clgemm: " << e.what() << "\n";
    return 1;
  }
}
