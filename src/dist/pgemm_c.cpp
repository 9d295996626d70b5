// pgemm_c.cpp — clgemm/dist.h: ScaLAPACK's p?gemm arguments in, INFO out, no exception escapes.
#include <clgemm/dist.h>
#include <clgemm/dist.hpp>

#include "dist/argument_checks.hpp"

#include <new>
#include <string>

namespace {

thread_local std::string last_message;

template <class F>
int guarded(F&& f) noexcept {
  try {
    f();
    last_message.clear();
    return 0;
  } catch (const clgemm::dist::ArgumentError& e) {
    last_message = e.what();
    return e.info();
  } catch (const clgemm::Error& e) {
    last_message = e.what();
    return -static_cast<int>(e.status());
  } catch (const std::bad_alloc&) {
    last_message = "out of host memory";
    return -static_cast<int>(clgemm::Status::OutOfResources);
  } catch (const std::exception& e) {
    last_message = std::string("internal error: ") + e.what();
    return -static_cast<int>(clgemm::Status::InternalError);
  } catch (...) {
    last_message = "internal error";
    return -static_cast<int>(clgemm::Status::InternalError);
  }
}

template <class T>
int pgemm_c(const char* routine, const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const T* alpha, const T* a, const int* ia, const int* ja, const int* desca, const T* b, const int* ib,
            const int* jb, const int* descb, const T* beta, T* c, const int* ic, const int* jc, const int* descc) {
  return guarded([&] {
    using namespace clgemm::dist;
    // Fortran passes every argument by reference; a null one is that argument's error.
    const void* const args[] = {transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc};
    for (int i = 0; i < 19; ++i) {
      // A, B and C may be null where a process holds no local block of them.
      if (i == 6 || i == 10 || i == 15) continue;
      if (!args[i]) throw ArgumentError(-(i + 1), std::string(routine) + ": argument " + std::to_string(i + 1) + " is a null pointer (INFO = " + std::to_string(-(i + 1)) + ")");
    }
    const auto ta = parse_transpose(transa, 1, routine), tb = parse_transpose(transb, 2, routine);
    pgemm<T>(ta, tb, *m, *n, *k, *alpha, HostMatrix<const T>{a, Descriptor::from(desca), *ia, *ja},
             HostMatrix<const T>{b, Descriptor::from(descb), *ib, *jb}, *beta,
             HostMatrix<T>{c, Descriptor::from(descc), *ic, *jc});
  });
}

}  // namespace

extern "C" {

int clgemm_psgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
                  const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
                  const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
                  const int* descc) {
  return pgemm_c("psgemm", transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}

int clgemm_pdgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
                  const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
                  const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
                  const int* descc) {
  return pgemm_c("pdgemm", transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}

const char* clgemm_dist_error_message(void) { return last_message.c_str(); }

int clgemm_dist_set_device(const char* spec) {
  return guarded([&] { clgemm::dist::set_rank_device(spec ? spec : ""); });
}

}  // extern "C"
