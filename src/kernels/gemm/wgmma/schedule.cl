// wgmma/schedule.cl — where tile `tile` of C lies: tiles go in bands of GROUP_M tile rows, each
// band walked column by column, so that the work-groups running together share their slices of A
// and B in L2. Every schedule walks tiles in this order: one tile per work-group, the split tiles
// after the whole ones (wgmma/split.cl), or WS's persistent work-groups, tile g, g + groups, ...
inline void tile_origin(const int tile, const int tiles_m, const int tiles_n, int* m0, int* n0) {
  const int band = tile / (GROUP_M * tiles_n);
  const int first_m = band * GROUP_M;
  const int band_rows = min(GROUP_M, tiles_m - first_m);
  const int in_band = tile % (GROUP_M * tiles_n);
  *m0 = (first_m + in_band % band_rows) * BM;
  *n0 = (in_band / band_rows) * BN;
}
