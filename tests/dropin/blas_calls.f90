! blas_calls.f90 — a Fortran program calling SGEMM and DGEMM (through libclgemm_blas, linked
! first) with every pair of transposes and leading dimensions past the rows, checked against the
! MATMUL intrinsic in double precision; the rows of C past M must stay untouched.
program blas_calls
  implicit none
  integer, parameter :: m = 45, n = 38, k = 52, pad = 3
  character(len=1), parameter :: ops(3) = ['N', 'T', 'C']
  real(8) :: a(k + pad, k + pad), b(k + pad, k + pad), c(m + pad, n), c0(m + pad, n), want(m, n)
  real(4) :: as(k + pad, k + pad), bs(k + pad, k + pad), cs(m + pad, n)
  real(8) :: opa(m, k), opb(k, n), alpha, beta, err, errs
  integer :: i, j, bad, lda, ldb, ldc
  bad = 0
  alpha = 1.25d0
  beta = -0.5d0
  call random_number(a)
  call random_number(b)
  call random_number(c0)
  as = real(a, 4)
  bs = real(b, 4)
  lda = k + pad
  ldb = k + pad
  ldc = m + pad
  do i = 1, 3
    do j = 1, 3
      if (ops(i) == 'N') then
        opa = a(1:m, 1:k)
      else
        opa = transpose(a(1:k, 1:m))
      end if
      if (ops(j) == 'N') then
        opb = b(1:k, 1:n)
      else
        opb = transpose(b(1:n, 1:k))
      end if
      want = alpha * matmul(opa, opb) + beta * c0(1:m, 1:n)
      c = c0
      call dgemm(ops(i), ops(j), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
      err = maxval(abs(c(1:m, 1:n) - want)) / maxval(abs(want))
      cs = real(c0, 4)
      call sgemm(ops(i), ops(j), m, n, k, real(alpha, 4), as, lda, bs, ldb, real(beta, 4), cs, ldc)
      errs = maxval(abs(real(cs(1:m, 1:n), 8) - want)) / maxval(abs(want))
      if (err > 1d-12 .or. errs > 1d-5 .or. any(c(m + 1:, :) /= c0(m + 1:, :)) .or. &
          any(cs(m + 1:, :) /= real(c0(m + 1:, :), 4))) then
        bad = bad + 1
        print '(A, A1, A1, A, ES10.2, A, ES10.2)', 'MISMATCH ', ops(i), ops(j), ': dgemm ', err, ', sgemm ', errs
      end if
    end do
  end do
  print '(A, I0, A)', 'blas_calls.f90: 9 pairs of transposes, ', bad, ' mismatched'
  if (bad /= 0) stop 1
end program blas_calls
