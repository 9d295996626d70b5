// clgemm/clgemm.hpp — the C++ API in one include.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/cpu.hpp>
#include <clgemm/device.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/ladder.hpp>
#include <clgemm/quant.hpp>
#include <clgemm/tune.hpp>
#include <clgemm/types.hpp>
#include <clgemm/warnings.hpp>
