// builtin_database.cpp — tuning results shipped with the library: entries measured by the project
// with `clgemm tune` on the devices it could reach (docs/performance.md records the runs).
#include "tune/database.hpp"

namespace clgemm::detail {

namespace {
// NVIDIA H200: the better of `clgemm tune --budget 180` and `--budget 480 --seed 7` per class,
// on 2026-11-22 (second session, with the cp.async pipeline in the search space); its architecture entry (sm_90) also
// serves the H100: the H100's own `clgemm tune --budget 180` entries lost to these at most shapes
// on the H100 (eighteenth session, docs/performance.md). PoCL on an AVX-512 Xeon (2 cores):
// `clgemm tune --budget 300` the same day; the architecture entry (skylake-avx512) serves other
// CPUs PoCL compiles for that target. Both runs are recorded in docs/tuning.md. MINWG = 2 on the
// sm_90 large and mid entries was measured by hand in the seventh session (docs/tuning.md, log).
// The sm_90 small entry (16×32 tiles) and its first two alternatives (24×24 and 24×32 tiles with
// K-steps of 48, which the planner takes at 257-300³, where 16×32 tiles would put two blocks on
// some SMs) were picked by hand in the ninth session from `clgemm tune --try` runs at 128-300³;
// their gflops are the medians of those runs at 256³ (scripts/gpu/configs/small-*-9.txt).
// Sliced K (thirteenth session, scripts/gpu/configs/sliced-k-13.txt, medians of three `--try`
// runs): the 24×24 alternative has 4 slices (3075 GFLOP/s at 256³ against 2962 without), the
// skinny entry 2 (12 739 at 16×4096×4096 against 9 006).
// Measured points (fourteenth session, scripts/gpu/configs/medium-points-14.txt, medians of three
// `--try` runs with the planner's split): every configuration of the sm_90 medium entry at 516³,
// from which the planner predicts calls nearer 516³ than 1024³; and a fifth alternative, 48×48
// tiles in 4 slices (121 blocks at 516³: 21.5-22.4 µs against 22.8-23.8 for the 32×64 tiles
// split; at 1024³ 16 934 GFLOP/s, sliced-medium-14.txt).
// Fifteenth session (scripts/gpu/configs/odd-387-15.txt, odd-387-variants-15.txt, medians of three
// `--try` runs): a sixth alternative, 36×36 tiles (9×6 work-items of 4×6 in 4 slices), which fit
// 387 = 9·43: their 121 blocks cover 4.7 % more than C, 48×48 tiles 25 % more (387³: 16.4 µs
// against 19.6 for 32×64; 1024³: 16 803 GFLOP/s); and points at 384³ and 387³ for every
// configuration (medium-points-15.txt), which the planner's picks at 336-432³ were checked against
// (medium-picks-15.txt). The sm_90 small entry: two more alternatives, its 16×32 tiles with K-steps
// of 16 and 16×16 tiles in 4 slices (128³: 6.6 µs against 8.2; 129³: 7.7 against 9.0), and points
// for every configuration at 128³, 129³, 192³, 258³ and 300³ (small-odd-15.txt,
// small-points-15.txt; the picks between them checked in small-picks-15.txt).
// Twentieth session (scripts/gpu/configs/a-rows-small-20.txt, medians of three `--try` runs): the
// sm_90 small entry and five of its alternatives keep a row-major A as stored in local memory
// (ALK; 24×24 tiles at 258³: 10.1 µs against 10.9 transposing it), the two that ran slower so
// (32×64 tiles, and 16×32 with K-steps of 16) do not, and every configuration's gflops and points
// are that session's.
// The tensor path's entries (kernel xmma, 3xTF32; eighteenth session): `clgemm tune --tensor
// --budget 540 --seed 7`, which measured all 91 configurations valid on the H200 at 4096³ and at
// 2048³; `--budget 180` had found the same two best (docs/tuning.md).
const char* const kBuiltin = R"JSON({
 "entries": [
  {
   "alternatives": [
    {
     "gflops": 47570.16288059189,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 16,
      "MWG": 128,
      "NDIMC": 16,
      "NWG": 256,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 0
     }
    },
    {
     "gflops": 47036.17592430349,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 64,
      "NDIMC": 8,
      "NWG": 64,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 8
     }
    },
    {
     "gflops": 46446.64052513761,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 64,
      "NDIMC": 16,
      "NWG": 128,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 4,
      "WX": 8
     }
    },
    {
     "gflops": 45180.220443284976,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 128,
      "NDIMC": 8,
      "NWG": 64,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 8
     }
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 48948.84318016047,
   "kernel": "xgemm",
   "params": {
    "ASYNC": 2,
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 16,
    "MDIMC": 16,
    "MINWG": 2,
    "MWG": 128,
    "NDIMC": 16,
    "NWG": 128,
    "PACKA": 1,
    "PADA": 1,
    "PADB": 1,
    "SA": 1,
    "SB": 1,
    "STRM": 1,
    "STRN": 1,
    "VWM": 4,
    "VWN": 4,
    "WX": 0
   },
   "shape": [
    4096,
    4096,
    4096
   ],
   "shape_class": "large",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 44813.932554257095,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 16,
      "MWG": 128,
      "NDIMC": 16,
      "NWG": 256,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 4
     }
    },
    {
     "gflops": 39179.078449974455,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 16,
      "MWG": 128,
      "NDIMC": 16,
      "NWG": 64,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 8,
      "VWN": 4,
      "WX": 8
     }
    },
    {
     "gflops": 38715.7216413067,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 64,
      "NDIMC": 8,
      "NWG": 64,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 8
     }
    },
    {
     "gflops": 38027.40558152713,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 16,
      "MWG": 64,
      "NDIMC": 16,
      "NWG": 128,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 4
     }
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 45804.19008617013,
   "kernel": "xgemm",
   "params": {
    "ASYNC": 2,
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 16,
    "MDIMC": 16,
    "MINWG": 2,
    "MWG": 128,
    "NDIMC": 16,
    "NWG": 128,
    "PACKA": 1,
    "PADA": 1,
    "PADB": 1,
    "SA": 1,
    "SB": 1,
    "STRM": 1,
    "STRN": 1,
    "VWM": 4,
    "VWN": 4,
    "WX": 4
   },
   "shape": [
    2048,
    2048,
    2048
   ],
   "shape_class": "mid",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 31729.959338061468,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 64,
      "NDIMC": 8,
      "NWG": 64,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 8,
      "VWN": 4,
      "WX": 8
     },
     "points": [
      {
       "gflops": 4798.6,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 3523.4,
       "shape": [
        387,
        387,
        387
       ]
      },
      {
       "gflops": 6505.1,
       "shape": [
        516,
        516,
        516
       ]
      }
     ]
    },
    {
     "gflops": 27424.954638332652,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 32,
      "NDIMC": 16,
      "NWG": 128,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 8
     },
     "points": [
      {
       "gflops": 6508.4,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 4693.2,
       "shape": [
        387,
        387,
        387
       ]
      },
      {
       "gflops": 7899.5,
       "shape": [
        516,
        516,
        516
       ]
      }
     ]
    },
    {
     "gflops": 27049.118903667877,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 32,
      "MDIMC": 8,
      "MWG": 32,
      "NDIMC": 16,
      "NWG": 64,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 8
     },
     "points": [
      {
       "gflops": 7033.9,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 5914.3,
       "shape": [
        387,
        387,
        387
       ]
      },
      {
       "gflops": 11698.6,
       "shape": [
        516,
        516,
        516
       ]
      }
     ]
    },
    {
     "gflops": 19401.23272622145,
     "params": {
      "ASYNC": 0,
      "DB": 1,
      "KUNROLL": 8,
      "KWG": 8,
      "MDIMC": 8,
      "MWG": 32,
      "NDIMC": 8,
      "NWG": 32,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 4
     },
     "points": [
      {
       "gflops": 2379.1,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 1978.2,
       "shape": [
        387,
        387,
        387
       ]
      },
      {
       "gflops": 5921.9,
       "shape": [
        516,
        516,
        516
       ]
      }
     ]
    },
    {
     "gflops": 16933.9,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KSLICE": 4,
      "KUNROLL": 4,
      "KWG": 48,
      "MDIMC": 6,
      "MWG": 48,
      "NDIMC": 12,
      "NWG": 48,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 4,
      "WX": 0
     },
     "points": [
      {
       "gflops": 7033.9,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 5546.5,
       "shape": [
        387,
        387,
        387
       ]
      },
      {
       "gflops": 12372.8,
       "shape": [
        516,
        516,
        516
       ]
      }
     ]
    },
    {
     "gflops": 16803.5,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KSLICE": 4,
      "KUNROLL": 4,
      "KWG": 48,
      "MDIMC": 9,
      "MWG": 36,
      "NDIMC": 6,
      "NWG": 36,
      "PACKA": 0,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 4,
      "VWN": 2,
      "WX": 0
     },
     "points": [
      {
       "gflops": 7651.8,
       "shape": [
        384,
        384,
        384
       ]
      },
      {
       "gflops": 7068.4,
       "shape": [
        387,
        387,
        387
       ]
      }
     ]
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 32848.195790504156,
   "kernel": "xgemm",
   "params": {
    "ASYNC": 3,
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 16,
    "MDIMC": 8,
    "MWG": 64,
    "NDIMC": 16,
    "NWG": 128,
    "PACKA": 0,
    "PADA": 1,
    "PADB": 1,
    "SA": 1,
    "SB": 1,
    "STRM": 0,
    "STRN": 1,
    "VWM": 4,
    "VWN": 4,
    "WX": 8
   },
   "points": [
    {
     "gflops": 5690.8,
     "shape": [
      384,
      384,
      384
     ]
    },
    {
     "gflops": 4891.2,
     "shape": [
      387,
      387,
      387
     ]
    },
    {
     "gflops": 8638.6,
     "shape": [
      516,
      516,
      516
     ]
    }
   ],
   "shape": [
    1024,
    1024,
    1024
   ],
   "shape_class": "medium",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 3393.4,
     "params": {
      "ALK": 4,
      "ASYNC": 2,
      "DB": 0,
      "KSLICE": 4,
      "KUNROLL": 4,
      "KWG": 48,
      "MDIMC": 12,
      "MWG": 24,
      "NDIMC": 12,
      "NWG": 24,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 2,
      "WX": 0
     },
     "points": [
      {
       "gflops": 524.3,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 545.4,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1546.7,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 3418.3,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 3835.2,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 3075.0,
     "params": {
      "ALK": 4,
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 48,
      "MDIMC": 12,
      "MWG": 24,
      "NDIMC": 16,
      "NWG": 32,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 2,
      "WX": 0
     },
     "points": [
      {
       "gflops": 478.4,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 474.1,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1509.8,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 3058.0,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 4371.8,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 3111.5,
     "params": {
      "ALK": 4,
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 64,
      "MDIMC": 16,
      "MWG": 64,
      "NDIMC": 16,
      "NWG": 16,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 1,
      "WX": 16
     },
     "points": [
      {
       "gflops": 526.4,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 380.1,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1541.4,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 2490.4,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 3906.3,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 2614.9,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 32,
      "MDIMC": 8,
      "MWG": 32,
      "NDIMC": 16,
      "NWG": 64,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 4,
      "WX": 4
     },
     "points": [
      {
       "gflops": 463.2,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 354.9,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1328.4,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 2422.9,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 3809.3,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 2634.6,
     "params": {
      "ALK": 4,
      "ASYNC": 4,
      "DB": 0,
      "KUNROLL": 4,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 32,
      "NDIMC": 16,
      "NWG": 16,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 0,
      "VWM": 2,
      "VWN": 1,
      "WX": 0
     },
     "points": [
      {
       "gflops": 480.1,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 480.9,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1382.4,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 2502.0,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 3368.3,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 3472.1,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 16,
      "MDIMC": 8,
      "MWG": 16,
      "NDIMC": 16,
      "NWG": 32,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 2,
      "WX": 0
     },
     "points": [
      {
       "gflops": 539.4,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 528.2,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1694.9,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 2696.8,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 3924.4,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    },
    {
     "gflops": 3415.6,
     "params": {
      "ALK": 2,
      "ASYNC": 3,
      "DB": 0,
      "KSLICE": 4,
      "KUNROLL": 2,
      "KWG": 32,
      "MDIMC": 8,
      "MWG": 16,
      "NDIMC": 8,
      "NWG": 16,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 2,
      "VWN": 2,
      "WX": 0
     },
     "points": [
      {
       "gflops": 585.1,
       "shape": [
        128,
        128,
        128
       ]
      },
      {
       "gflops": 549.9,
       "shape": [
        129,
        129,
        129
       ]
      },
      {
       "gflops": 1694.9,
       "shape": [
        192,
        192,
        192
       ]
      },
      {
       "gflops": 2787.9,
       "shape": [
        258,
        258,
        258
       ]
      },
      {
       "gflops": 4177.0,
       "shape": [
        300,
        300,
        300
       ]
      }
     ]
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 3438.0,
   "kernel": "xgemm",
   "params": {
    "ALK": 4,
    "ASYNC": 3,
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 32,
    "MDIMC": 8,
    "MWG": 16,
    "NDIMC": 16,
    "NWG": 32,
    "PACKA": 0,
    "PADA": 1,
    "PADB": 1,
    "SA": 1,
    "SB": 1,
    "STRM": 0,
    "STRN": 1,
    "VWM": 2,
    "VWN": 2,
    "WX": 0
   },
   "points": [
    {
     "gflops": 514.0,
     "shape": [
      128,
      128,
      128
     ]
    },
    {
     "gflops": 510.1,
     "shape": [
      129,
      129,
      129
     ]
    },
    {
     "gflops": 1656.8,
     "shape": [
      192,
      192,
      192
     ]
    },
    {
     "gflops": 2780.7,
     "shape": [
      258,
      258,
      258
     ]
    },
    {
     "gflops": 3961.3,
     "shape": [
      300,
      300,
      300
     ]
    }
   ],
   "shape": [
    256,
    256,
    256
   ],
   "shape_class": "small",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 7828.845543630426,
     "params": {
      "ASYNC": 2,
      "DB": 0,
      "KUNROLL": 32,
      "KWG": 64,
      "MDIMC": 4,
      "MWG": 16,
      "NDIMC": 32,
      "NWG": 64,
      "PACKA": 0,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 0,
      "VWM": 2,
      "VWN": 2,
      "WX": 8
     }
    },
    {
     "gflops": 4692.927552447553,
     "params": {
      "ASYNC": 3,
      "DB": 0,
      "KUNROLL": 8,
      "KWG": 16,
      "MDIMC": 4,
      "MWG": 16,
      "NDIMC": 16,
      "NWG": 16,
      "PACKA": 1,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 1,
      "WX": 8
     }
    },
    {
     "gflops": 2104.517812343201,
     "params": {
      "ASYNC": 0,
      "DB": 1,
      "KUNROLL": 2,
      "KWG": 16,
      "MDIMC": 4,
      "MWG": 16,
      "NDIMC": 32,
      "NWG": 128,
      "PACKA": 0,
      "PADA": 0,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 0,
      "STRN": 1,
      "VWM": 1,
      "VWN": 1,
      "WX": 8
     }
    },
    {
     "gflops": 1884.0220101066818,
     "params": {
      "ASYNC": 0,
      "DB": 1,
      "KUNROLL": 1,
      "KWG": 16,
      "MDIMC": 4,
      "MWG": 16,
      "NDIMC": 32,
      "NWG": 256,
      "PACKA": 1,
      "PADA": 1,
      "PADB": 1,
      "SA": 1,
      "SB": 1,
      "STRM": 1,
      "STRN": 0,
      "VWM": 2,
      "VWN": 8,
      "WX": 0
     }
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 12739.0,
   "kernel": "xgemm",
   "params": {
    "ASYNC": 3,
    "DB": 0,
    "KSLICE": 2,
    "KUNROLL": 32,
    "KWG": 64,
    "MDIMC": 4,
    "MWG": 16,
    "NDIMC": 16,
    "NWG": 32,
    "PACKA": 0,
    "PADA": 1,
    "PADB": 1,
    "SA": 1,
    "SB": 1,
    "STRM": 0,
    "STRN": 1,
    "VWM": 4,
    "VWN": 2,
    "WX": 16
   },
   "shape": [
    16,
    4096,
    4096
   ],
   "shape_class": "skinny",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 48.28097723780212,
     "params": {
      "ASYNC": 0,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 32,
      "MDIMC": 8,
      "MINWG": 0,
      "MWG": 64,
      "NDIMC": 4,
      "NWG": 128,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 0,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 8,
      "WX": 0
     }
    },
    {
     "gflops": 43.96160222150363,
     "params": {
      "ASYNC": 0,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 32,
      "MDIMC": 8,
      "MINWG": 0,
      "MWG": 32,
      "NDIMC": 4,
      "NWG": 64,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 0,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 8,
      "WX": 0
     }
    },
    {
     "gflops": 32.29979540198722,
     "params": {
      "ASYNC": 0,
      "DB": 0,
      "KUNROLL": 16,
      "KWG": 32,
      "MDIMC": 8,
      "MINWG": 0,
      "MWG": 128,
      "NDIMC": 4,
      "NWG": 64,
      "PACKA": 1,
      "PADA": 0,
      "PADB": 0,
      "SA": 1,
      "SB": 0,
      "STRM": 1,
      "STRN": 1,
      "VWM": 4,
      "VWN": 8,
      "WX": 0
     }
    },
    {
     "gflops": 23.477779623823743,
     "params": {
      "ASYNC": 0,
      "DB": 0,
      "KUNROLL": 32,
      "KWG": 32,
      "MDIMC": 16,
      "MINWG": 0,
      "MWG": 128,
      "NDIMC": 32,
      "NWG": 256,
      "PACKA": 1,
      "PADA": 1,
      "PADB": 0,
      "SA": 1,
      "SB": 0,
      "STRM": 1,
      "STRN": 1,
      "VWM": 8,
      "VWN": 4,
      "WX": 8
     }
    }
   ],
   "architecture": "skylake-avx512",
   "date": "2026-11-22",
   "device": "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
   "device_type": "CPU",
   "gflops": 71.48510863139578,
   "kernel": "xgemm",
   "params": {
    "ASYNC": 0,
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 32,
    "MDIMC": 8,
    "MINWG": 0,
    "MWG": 64,
    "NDIMC": 4,
    "NWG": 64,
    "PACKA": 1,
    "PADA": 0,
    "PADB": 0,
    "SA": 1,
    "SB": 0,
    "STRM": 1,
    "STRN": 1,
    "VWM": 4,
    "VWN": 8,
    "WX": 0
   },
   "shape": [
    1024,
    1024,
    1024
   ],
   "shape_class": "large",
   "vendor": "GenuineIntel"
  },
  {
   "architecture": "skylake-avx512",
   "date": "2026-11-22",
   "device": "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
   "device_type": "CPU",
   "gflops": 52.44214611648238,
   "kernel": "xgemm",
   "params": {
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 16,
    "MDIMC": 8,
    "MWG": 64,
    "NDIMC": 4,
    "NWG": 64,
    "PACKA": 1,
    "PADA": 0,
    "PADB": 0,
    "SA": 1,
    "SB": 1,
    "STRM": 1,
    "STRN": 1,
    "VWM": 4,
    "VWN": 8
   },
   "shape": [
    512,
    512,
    512
   ],
   "shape_class": "medium",
   "vendor": "GenuineIntel"
  },
  {
   "architecture": "skylake-avx512",
   "date": "2026-11-22",
   "device": "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
   "device_type": "CPU",
   "gflops": 27.424708073732074,
   "kernel": "xgemm",
   "params": {
    "DB": 0,
    "KUNROLL": 4,
    "KWG": 32,
    "MDIMC": 4,
    "MWG": 16,
    "NDIMC": 4,
    "NWG": 128,
    "PACKA": 1,
    "PADA": 0,
    "PADB": 0,
    "SA": 1,
    "SB": 0,
    "STRM": 0,
    "STRN": 1,
    "VWM": 4,
    "VWN": 4
   },
   "shape": [
    16,
    1024,
    1024
   ],
   "shape_class": "skinny",
   "vendor": "GenuineIntel"
  },
  {
   "architecture": "skylake-avx512",
   "date": "2026-11-22",
   "device": "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
   "device_type": "CPU",
   "gflops": 20.6091088213761,
   "kernel": "xgemm",
   "params": {
    "DB": 0,
    "KUNROLL": 16,
    "KWG": 16,
    "MDIMC": 8,
    "MWG": 64,
    "NDIMC": 4,
    "NWG": 64,
    "PACKA": 1,
    "PADA": 0,
    "PADB": 0,
    "SA": 1,
    "SB": 1,
    "STRM": 1,
    "STRN": 1,
    "VWM": 4,
    "VWN": 8
   },
   "shape": [
    128,
    128,
    128
   ],
   "shape_class": "small",
   "vendor": "GenuineIntel"
  },
  {
   "alternatives": [
    {
     "gflops": 58897.29298026686,
     "params": {
      "BK": 8,
      "BM": 64,
      "BN": 128,
      "FK": 1,
      "STAGES": 4,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 52753.48856846399,
       "shape": [
        2868,
        2868,
        2868
       ]
      }
     ]
    },
    {
     "gflops": 58430.9543024284,
     "params": {
      "BK": 8,
      "BM": 128,
      "BN": 64,
      "FK": 1,
      "STAGES": 2,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 52599.16706503514,
       "shape": [
        2868,
        2868,
        2868
       ]
      }
     ]
    },
    {
     "gflops": 56518.67691335931,
     "params": {
      "BK": 8,
      "BM": 256,
      "BN": 64,
      "FK": 1,
      "STAGES": 4,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 41624.05431652645,
       "shape": [
        2868,
        2868,
        2868
       ]
      }
     ]
    },
    {
     "gflops": 56339.26195660729,
     "params": {
      "BK": 8,
      "BM": 256,
      "BN": 128,
      "FK": 1,
      "STAGES": 2,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 35463.79439567048,
       "shape": [
        2868,
        2868,
        2868
       ]
      }
     ]
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 58940.93916480259,
   "kernel": "xmma",
   "params": {
    "BK": 8,
    "BM": 128,
    "BN": 128,
    "FK": 1,
    "STAGES": 3,
    "TERMS": 3,
    "WM": 64,
    "WN": 64
   },
   "points": [
    {
     "gflops": 43827.68799976219,
     "shape": [
      2868,
      2868,
      2868
     ]
    }
   ],
   "shape": [
    4096,
    4096,
    4096
   ],
   "shape_class": "large",
   "vendor": "NVIDIA Corporation"
  },
  {
   "alternatives": [
    {
     "gflops": 52408.32799687622,
     "params": {
      "BK": 8,
      "BM": 128,
      "BN": 64,
      "FK": 1,
      "STAGES": 2,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 30655.398643389304,
       "shape": [
        1640,
        1640,
        1640
       ]
      }
     ]
    },
    {
     "gflops": 52250.2104136253,
     "params": {
      "BK": 8,
      "BM": 64,
      "BN": 128,
      "FK": 1,
      "STAGES": 4,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 31091.011616104657,
       "shape": [
        1640,
        1640,
        1640
       ]
      }
     ]
    },
    {
     "gflops": 50505.25983066793,
     "params": {
      "BK": 8,
      "BM": 256,
      "BN": 64,
      "FK": 1,
      "STAGES": 4,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 29810.121107266434,
       "shape": [
        1640,
        1640,
        1640
       ]
      }
     ]
    },
    {
     "gflops": 50165.47486451131,
     "params": {
      "BK": 8,
      "BM": 256,
      "BN": 128,
      "FK": 1,
      "STAGES": 2,
      "TERMS": 3,
      "WM": 64,
      "WN": 64
     },
     "points": [
      {
       "gflops": 29881.20528939952,
       "shape": [
        1640,
        1640,
        1640
       ]
      }
     ]
    }
   ],
   "architecture": "sm_90",
   "date": "2026-11-22",
   "device": "NVIDIA H200",
   "device_type": "GPU",
   "gflops": 54465.95434716445,
   "kernel": "xmma",
   "params": {
    "BK": 8,
    "BM": 128,
    "BN": 128,
    "FK": 1,
    "STAGES": 4,
    "TERMS": 3,
    "WM": 64,
    "WN": 32
   },
   "points": [
    {
     "gflops": 32582.909821534096,
     "shape": [
      1640,
      1640,
      1640
     ]
    }
   ],
   "shape": [
    2048,
    2048,
    2048
   ],
   "shape_class": "mid",
   "vendor": "NVIDIA Corporation"
  }
 ],
 "format": 1
})JSON";
}  // namespace

const TuningDatabase& builtin_database() {
  static const TuningDatabase db = TuningDatabase::parse(kBuiltin);
  return db;
}

}  // namespace clgemm::detail
