/* blas_calls.c — calls the BLAS GEMM symbols through libclgemm_blas (linked first) in every
 * argument form and compares each C with the host BLAS's own answer (the same call made through a
 * private dlopen of the host library), with the gaps between C's columns checked untouched.
 *   blas_calls HOST_LIBRARY        (e.g. libopenblas.so.0); exit 0 when every call matches
 * Run with CLGEMM_BLAS_DEVICE=0 CLGEMM_BLAS_MIN_FLOPS=0 to send every call to the device. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
            const int*, const double*, const int*, const double*, double*, const int*);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);

typedef void (*fortran_s)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                          const int*, const float*, const int*, const float*, float*, const int*);
typedef void (*fortran_d)(const char*, const char*, const int*, const int*, const int*, const double*,
                          const double*, const int*, const double*, const int*, const double*, double*, const int*);
typedef void (*cblas_s)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
typedef void (*cblas_d)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*,
                        int);

static fortran_s host_sgemm;
static fortran_d host_dgemm;
static cblas_s host_cblas_sgemm;
static cblas_d host_cblas_dgemm;
static int failures = 0, calls = 0;

static double unit(void) { return (double)rand() / RAND_MAX * 2.0 - 1.0; }

/* C as the interposer left it (got) against the host's (want): within a relative 1e-4 (float) or
 * 1e-12 (double) of the largest element, NaN where the host has NaN, bit-equal in the gaps. */
static void compare(const char* what, const double* got, const double* want, size_t count, double tol) {
  double scale = 1e-30, worst = 0;
  for (size_t i = 0; i < count; ++i)
    if (isfinite(want[i]) && fabs(want[i]) > scale) scale = fabs(want[i]);
  size_t bad = 0;
  for (size_t i = 0; i < count; ++i) {
    if (isnan(want[i]) != isnan(got[i])) { ++bad; continue; }
    const double d = fabs(got[i] - want[i]) / scale;
    if (d > worst) worst = d;
    if (d > tol) ++bad;
  }
  ++calls;
  if (bad) {
    ++failures;
    printf("MISMATCH %s: %zu of %zu elements, worst %.2e\n", what, bad, count, worst);
  }
}

/* One call in double and in float through each of the four entry points. Column-major via the
 * Fortran names and CblasColMajor, row-major via CblasRowMajor. */
static void check(char ta, char tb, int m, int n, int k, int pad, double alpha, double beta, int nan_in_c) {
  const int ta_t = ta != 'N' && ta != 'n', tb_t = tb != 'N' && tb != 'n';
  for (int row = 0; row <= 1; ++row) {
    /* Stored shapes: column-major A is (ta ? k : m) rows; row-major A is (ta ? k : m) rows too. */
    const int a_rows = ta_t ? k : m, a_cols = ta_t ? m : k, b_rows = tb_t ? n : k, b_cols = tb_t ? k : n;
    const int lda = (row ? a_cols : a_rows) + pad, ldb = (row ? b_cols : b_rows) + pad, ldc = (row ? n : m) + pad;
    const size_t a_size = (size_t)lda * (row ? a_rows : a_cols) + 1, b_size = (size_t)ldb * (row ? b_rows : b_cols) + 1,
                 c_size = (size_t)ldc * (row ? m : n) + 1;
    double *a = malloc(a_size * 8), *b = malloc(b_size * 8), *c0 = malloc(c_size * 8);
    for (size_t i = 0; i < a_size; ++i) a[i] = unit();
    for (size_t i = 0; i < b_size; ++i) b[i] = unit();
    for (size_t i = 0; i < c_size; ++i) c0[i] = nan_in_c ? NAN : unit();
    double *got = malloc(c_size * 8), *want = malloc(c_size * 8);
    float *af = malloc(a_size * 4), *bf = malloc(b_size * 4), *cf = malloc(c_size * 4), *wf = malloc(c_size * 4);
    for (size_t i = 0; i < a_size; ++i) af[i] = (float)a[i];
    for (size_t i = 0; i < b_size; ++i) bf[i] = (float)b[i];
    char what[160];
    snprintf(what, sizeof what, "%s %c%c %dx%dx%d pad %d alpha %g beta %g%s", row ? "row-major" : "column-major", ta,
             tb, m, n, k, pad, alpha, beta, nan_in_c ? " NaN in C" : "");
    const int order = row ? 101 : 102, cta = ta_t ? 112 : 111, ctb = tb_t ? 112 : 111;
    /* double */
    memcpy(got, c0, c_size * 8), memcpy(want, c0, c_size * 8);
    if (row) {
      cblas_dgemm(order, cta, ctb, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc);
      host_cblas_dgemm(order, cta, ctb, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc);
    } else {
      dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, got, &ldc);
      host_dgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, want, &ldc);
      compare(what, got, want, c_size, 1e-12);
      memcpy(got, c0, c_size * 8);
      cblas_dgemm(order, cta, ctb, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc);
    }
    compare(what, got, want, c_size, 1e-12);
    /* float */
    const float alphaf = (float)alpha, betaf = (float)beta;
    for (size_t i = 0; i < c_size; ++i) cf[i] = wf[i] = (float)c0[i];
    if (row) {
      cblas_sgemm(order, cta, ctb, m, n, k, alphaf, af, lda, bf, ldb, betaf, cf, ldc);
      host_cblas_sgemm(order, cta, ctb, m, n, k, alphaf, af, lda, bf, ldb, betaf, wf, ldc);
    } else {
      sgemm_(&ta, &tb, &m, &n, &k, &alphaf, af, &lda, bf, &ldb, &betaf, cf, &ldc);
      host_sgemm(&ta, &tb, &m, &n, &k, &alphaf, af, &lda, bf, &ldb, &betaf, wf, &ldc);
    }
    for (size_t i = 0; i < c_size; ++i) got[i] = cf[i], want[i] = wf[i];
    compare(what, got, want, c_size, 1e-4);
    free(a), free(b), free(c0), free(got), free(want), free(af), free(bf), free(cf), free(wf);
  }
}

int main(int argc, char** argv) {
  void* host = dlopen(argc > 1 ? argv[1] : "libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!host) {
    fprintf(stderr, "cannot open the host BLAS: %s\n", dlerror());
    return 2;
  }
  host_sgemm = (fortran_s)dlsym(host, "sgemm_"), host_dgemm = (fortran_d)dlsym(host, "dgemm_");
  host_cblas_sgemm = (cblas_s)dlsym(host, "cblas_sgemm"), host_cblas_dgemm = (cblas_d)dlsym(host, "cblas_dgemm");
  if (!host_sgemm || !host_dgemm || !host_cblas_sgemm || !host_cblas_dgemm) {
    fprintf(stderr, "the host BLAS lacks a GEMM symbol\n");
    return 2;
  }
  srand(7);
  const char transposes[] = {'N', 'T', 'C', 'n', 't'};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) check(transposes[i], transposes[j], 37, 29, 41, (i + j) % 3, 1.5, -0.5, 0);
  check('N', 'N', 64, 65, 66, 0, 1.0, 0.0, 1); /* beta 0: C is not read, a NaN there does not survive */
  check('T', 'N', 100, 3, 257, 5, -2.0, 1.0, 0);
  check('N', 'T', 1, 300, 200, 1, 1.0, 0.25, 0);
  check('N', 'N', 20, 30, 0, 2, 1.0, 0.5, 0);   /* k = 0: C = beta·C */
  check('N', 'N', 20, 30, 40, 2, 0.0, 2.0, 0);  /* alpha = 0 */
  check('N', 'N', 0, 30, 40, 2, 1.0, 0.0, 0);   /* m = 0: nothing to do */
  check('T', 'T', 129, 127, 131, 3, 0.75, 0.0, 0);
  check('N', 'T', 300, 280, 260, 1, 1.0, 0.5, 0); /* above the size that starts the model's measurement */
  check('T', 'N', 700, 600, 500, 3, 1.0, -1.0, 0); /* operands past 1 MiB: the threads copy them */
  /* An invalid leading dimension: the host BLAS reports it (its xerbla) and C is left as it was. */
  {
    const int m = 8, n = 8, k = 8, lda = 7, ld = 8;
    const float one = 1.0f, zero = 0.0f;
    float a[64] = {0}, b[64] = {0}, c[64];
    for (int i = 0; i < 64; ++i) c[i] = (float)i;
    sgemm_("N", "N", &m, &n, &k, &one, a, &lda, b, &ld, &zero, c, &ld);
    for (int i = 0; i < 64; ++i)
      if (c[i] != (float)i) {
        printf("MISMATCH: an invalid call changed C\n");
        ++failures;
        break;
      }
  }
  printf("blas_calls: %d comparisons, %d mismatched\n", calls, failures);
  return failures != 0;
}
