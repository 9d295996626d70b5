// export.hpp — the shim builds with hidden symbols; only CLBlast's names are exported.
#pragma once

#define CLGEMM_DROPIN_EXPORT __attribute__((visibility("default")))
